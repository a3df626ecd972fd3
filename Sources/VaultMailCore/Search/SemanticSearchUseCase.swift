import Foundation

/// Search by meaning (AC-A-07): the query's words are embedded and compared with every
/// email's vector, while its operators (`from:`, `after:`, `in:` …) still narrow the results
/// exactly. The nearest emails and the word search's best matches are fused by reciprocal
/// rank, so a message that says the words and one that means them both come first.
public struct SemanticSearchUseCase: Sendable {
    /// How the two rankings become one.
    public struct Ranking: Sendable, Hashable {
        /// Reciprocal-rank fusion's constant (Cormack et al. 2009): rank r scores 1 / (k + r).
        public var fusionConstant: Double
        /// What a rank in the word search counts beside the same rank by meaning.
        public var wordWeight: Double
        /// A message found by meaning alone must be at least this close (cosine) to the query;
        /// below it all-MiniLM-L6-v2's neighbours are unrelated text ("car insurance renewal"
        /// is 0.12 from the nearest of a dozen everyday mails that none is about).
        public var minimumSimilarity: Float
        /// …and within this of the nearest, when set (issue 15 had 0.1, so one message that
        /// clearly meant the query was not followed by what was much further). None by default:
        /// on the dev queries of `vaultmail-bench eval-search` the window cut most pages below
        /// ten conversations, P@10 0.50 with it and 0.80 without (docs/ai-evaluation/search.md).
        public var similarityWindow: Float?
        /// How many of each ranking are fused.
        public var depth: Int

        public init(fusionConstant: Double = 60, wordWeight: Double = 1, minimumSimilarity: Float = 0.15,
                    similarityWindow: Float? = nil, depth: Int = 200) {
            self.fusionConstant = fusionConstant
            self.wordWeight = wordWeight
            self.minimumSimilarity = minimumSimilarity
            self.similarityWindow = similarityWindow
            self.depth = depth
        }

        /// The product's ranking: both rankings at full weight, k = 60, the floor and no window.
        public static let standard = Ranking()
    }

    private let lexical: SearchMailUseCase
    private let search: any MailSearch
    private let index: any SemanticIndex
    private let embedder: any TextEmbedder
    private let ranking: Ranking

    public init(search: any MailSearch, index: any SemanticIndex, embedder: any TextEmbedder, clock: any WallClock = SystemWallClock(),
                ranking: Ranking = .standard) {
        self.lexical = SearchMailUseCase(search: search, clock: clock)
        self.search = search
        self.index = index
        self.embedder = embedder
        self.ranking = ranking
    }

    /// A page of conversations, best first. A query of operators only (nothing to mean) is
    /// the word search's, by relevance. Without a model it throws `SearchError.failed` over
    /// `AIError.modelNotInstalled` ("Download a model to enable …").
    public func threads(_ text: String, account: String? = nil, options: SearchOptions = SearchOptions()) async throws(SearchError) -> SearchPage<ThreadSearchHit> {
        let query = try lexical.parse(text, account: account)
        let (meaning, filter) = query.expression.meaning
        guard !meaning.isEmpty else {
            var byRelevance = options
            byRelevance.sort = .relevance
            return try await lexical.threads(text, account: account, options: byRelevance)
        }
        do {
            let ranked = try await fusedEmailIds(query: query, meaning: meaning, filter: filter)
            let hits = try await search.threadHits(emailIds: ranked, query: query)
            let start: Int = if case .offset(let offset) = options.cursor { offset } else { 0 }
            let limit = max(1, options.limit)
            let page = Array(hits.dropFirst(start).prefix(limit))
            let next: SearchCursor? = start + limit < hits.count ? .offset(start + limit) : nil
            return SearchPage(hits: page, nextCursor: next)
        } catch let error as SearchError {
            throw error
        } catch {
            throw .failed(underlying: error)
        }
    }

    /// Emails by fused rank: the word search's ranking and the vectors', each `depth` deep; an
    /// email is as near as its nearest chunk, and a conversation comes where its best email does.
    func fusedEmailIds(query: SearchQuery, meaning: String, filter: SearchExpression?) async throws -> [String] {
        let vector = try await embedder.embed(meaning)
        let filterQuery = filter.map { SearchQuery(text: query.text, expression: $0) }
        async let words = search.rankedEmailIds(query, limit: ranking.depth)
        let near = try await index.nearest(to: vector, modelId: embedder.modelId, filter: filterQuery, limit: ranking.depth)
        return Self.fuse(words: try await words, near: near, ranking: ranking)
    }

    /// Reciprocal-rank fusion of the two rankings; a meaning-only match below
    /// `minimumSimilarity`, or further than `similarityWindow` (when set) from the nearest, is left out.
    /// Ties keep the word ranking's order.
    static func fuse(words: [String], near: [ScoredEmail], ranking: Ranking = .standard) -> [String] {
        let window = ranking.similarityWindow.map { (near.first?.similarity ?? 0) - $0 } ?? -1
        let floor = max(ranking.minimumSimilarity, window)
        let k = ranking.fusionConstant
        var score: [String: Double] = [:]
        var order: [String] = []
        for (rank, id) in words.enumerated() {
            if score[id] == nil { order.append(id) }
            score[id, default: 0] += ranking.wordWeight / (k + Double(rank + 1))
        }
        for (rank, hit) in near.enumerated() {
            if score[hit.emailId] == nil {
                guard hit.similarity >= floor else { continue }
                order.append(hit.emailId)
            }
            score[hit.emailId, default: 0] += 1 / (k + Double(rank + 1))
        }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return order.sorted { a, b in
            let (sa, sb) = (score[a]!, score[b]!)
            return sa != sb ? sa > sb : position[a]! < position[b]!
        }
    }
}
