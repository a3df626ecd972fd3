import Foundation

/// Categorizes by meaning: an email goes to the category whose written examples
/// (`CategoryExamples`) its text is nearest to — the mean cosine similarity of its `neighbours`
/// nearest examples in each category — among the categories the headers left open, with the
/// category they leaned to given a small bonus (`leanWeight`, chosen on the dev half of the
/// Gmail-labelled evaluation, docs/ai-evaluation/categories.md).
/// The examples' vectors are computed once per model and kept.
public actor ModelCategorizer {
    public nonisolated let embedder: any TextEmbedder
    private let examples: [AICategory: [String]]
    private let neighbours: Int
    private let leanWeight: Float
    private var exampleVectors: (modelId: String, entries: [(category: AICategory, text: String, vector: [Float])])?

    /// - Parameters:
    ///   - neighbours: how many nearest examples of a category make its score.
    ///   - leanWeight: what the headers' lean adds to its category's score (cosine units).
    public init(embedder: any TextEmbedder, examples: [AICategory: [String]] = CategoryExamples.all,
                neighbours: Int = defaultNeighbours, leanWeight: Float = defaultLeanWeight) {
        self.embedder = embedder
        self.examples = examples
        self.neighbours = max(1, neighbours)
        self.leanWeight = leanWeight
    }

    /// How many nearest examples of a category make its score, unless told otherwise.
    public static let defaultNeighbours = 3
    /// What the headers' lean adds to its category's score (cosine units), unless told otherwise.
    public static let defaultLeanWeight: Float = 0.05

    /// True when the model is installed.
    public func isAvailable() async -> Bool { await embedder.isAvailable() }

    /// Per-category scores of each input (mean similarity of the nearest examples), before the lean.
    public func scores(_ inputs: [CategorizationInput]) async throws -> [[AICategory: Float]] {
        let entries = try await loadExamples()
        let vectors = try await embedder.embed(inputs.map(\.modelText))
        return vectors.map { vector in scores(of: vector, entries).mapValues(\.score) }
    }

    /// A decision (source `.model`) for each input, in order; `leans` (same order, nil for
    /// none) tip close calls.
    public func decide(_ inputs: [CategorizationInput], leans: [CategoryLean?]) async throws -> [CategoryDecision] {
        guard !inputs.isEmpty else { return [] }
        let entries = try await loadExamples()
        let vectors = try await embedder.embed(inputs.map(\.modelText))
        return vectors.indices.map { index in
            let lean = index < leans.count ? leans[index] : nil
            let scored = scores(of: vectors[index], entries)
            var best: (category: AICategory, total: Float)?
            for (category, entry) in scored where lean?.candidates.contains(category) ?? true {
                let total = entry.score + (lean?.category == category ? leanWeight : 0)
                if best == nil || total > best!.total || total == best!.total && category.rawValue < best!.category.rawValue {
                    best = (category, total)
                }
            }
            let category = best?.category ?? .primary
            let entry = scored[category]
            var reason = "nearest to the written examples of \(category.rawValue) (\(String(format: "%.2f", entry?.score ?? 0)))"
            if let example = entry?.nearest { reason += ", e.g. '\(example.prefix(60))\(example.count > 60 ? "…" : "")'" }
            if let lean {
                reason += lean.category == category
                    ? "; the headers agree: \(lean.reason)"
                    : "; the headers leaned \(lean.category.rawValue) (\(lean.reason))"
            }
            return CategoryDecision(category: category, source: .model, reason: reason)
        }
    }

    private func scores(of vector: [Float], _ entries: [(category: AICategory, text: String, vector: [Float])])
        -> [AICategory: (score: Float, nearest: String?)] {
        var similarities: [AICategory: [(Float, String)]] = [:]
        for entry in entries {
            similarities[entry.category, default: []].append((cosineSimilarity(vector, entry.vector), entry.text))
        }
        return similarities.mapValues { list in
            let top = list.sorted { $0.0 > $1.0 }.prefix(neighbours)
            let mean = top.reduce(Float(0)) { $0 + $1.0 } / Float(max(1, top.count))
            return (mean, top.first?.1)
        }
    }

    private func loadExamples() async throws -> [(category: AICategory, text: String, vector: [Float])] {
        if let cached = exampleVectors, cached.modelId == embedder.modelId { return cached.entries }
        var pairs: [(AICategory, String)] = []
        for category in AICategory.allCases {
            for text in examples[category] ?? [] { pairs.append((category, text)) }
        }
        let vectors = try await embedder.embed(pairs.map(\.1))
        let entries = zip(pairs, vectors).map { (category: $0.0, text: $0.1, vector: $1) }
        exampleVectors = (embedder.modelId, entries)
        return entries
    }
}
