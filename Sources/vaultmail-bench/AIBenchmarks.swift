import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench ai` (issue 15): the on-device model on real mail — the search suite's
/// corpus (`SearchCorpus`, 10,117 distinct messages) plus one constructed "Quarterly budget
/// review" (`BudgetReviewMessage`), synced from a private Dovecot into a store under /dev/shm.
/// Figures, medians unless said:
/// - `ai-model-load`: all-MiniLM-L6-v2 loaded by `MiniLMEngine` (weights memory-mapped);
/// - memory of this process before the model, with it loaded and used once, after embedding
///   every email (anonymous and file-backed resident memory in the `#` lines);
/// - `ai-embed-throughput`: every email embedded by `EmbedEmailsUseCase`, wall time;
/// - `ai-categorize-50`: rounds of 50 new emails categorized with the model, then the whole
///   store, with the categories that came out;
/// - search by meaning for "financial planning meeting": the first page in process, narrowed
///   by a date, the budget review's rank in it, and `vaultmail search --semantic` as a whole
///   process (which loads the model itself);
/// - then the writing model's figures (`GenerationBenchmarks`, also `vaultmail-bench generation`),
///   and `reply-suggest` and `summarize` as whole processes on real conversations given with
///   `--lists MBOX` (`WritingProcessBenchmarks`, also `vaultmail-bench writing --lists MBOX`).
enum AIBenchmarks {
    static let query = "financial planning meeting"
    static let filteredQuery = "financial planning meeting after:2010-01-01"
    static let modelLoads = 11
    static let categorizeRounds = 7
    static let categorizeBatch = 50

    static func run() async throws {
        let modelDirectory = try AIModelFixture.installedMiniLMDirectory()
        let tool = try await VaultMailTool.locate()
        let scratch = try SearchBenchmarks.scratchDirectory()
        let keep = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SEARCH_KEEP"] == "1"
        defer { if keep { print("# kept \(scratch.path)") } else { try? FileManager.default.removeItem(at: scratch) } }

        let home = scratch.appendingPathComponent("vaultmail")
        let (database, emails) = try await syncedStore(home: home)
        try await measure(database: database, emails: emails, modelDirectory: modelDirectory, home: home, scratch: scratch, tool: tool)
        // The writing model (issue 16): smart replies and summaries; then as whole processes on
        // real conversations (issue 35, `--lists`).
        try await GenerationBenchmarks.run()
        try await WritingProcessBenchmarks.run()
    }

    /// The search corpus and the budget review written into a private Dovecot and synced into
    /// a fresh store in `home`; the corpus is dropped before the model's figures.
    static func syncedStore(home: URL) async throws -> (AppDatabase, Int) {
        let corpus = BudgetReviewMessage.added(to: try SearchCorpus.load(repeatedTo: SearchBenchmarks.corpusSize))
        let cpu = cpuModel()
        print("# ai: notmuch lkml + default corpora and SpamAssassin ham (\(corpus.originals) messages) repeated with"
              + " rewritten Message-IDs to \(corpus.messages.count - 1) (\(corpus.distinctMessages - 1) distinct) plus one constructed"
              + " '\(BudgetReviewMessage.subject)', synced from Dovecot into a store under /dev/shm; model all-MiniLM-L6-v2"
              + " (float32, OpenBLAS, \(ProcessInfo.processInfo.activeProcessorCount) cores\(cpu.map { ", \($0)" } ?? ""))")
        let server = try await DovecotServer.start(users: [SyncBenchmarks.user: SyncBenchmarks.password])
        do {
            try corpus.write(home: server.directory.appendingPathComponent("home/\(SyncBenchmarks.user)"))
            let (seconds, engine) = try await SyncBenchmarks.initialSync(
                server: server, path: home.appendingPathComponent("vaultmail.sqlite").path, expected: corpus.distinctMessages)
            await engine.sync.connections.closeAll()
            try await server.stop()
            print("# synced \(corpus.distinctMessages) emails in \(String(format: "%.1f", seconds)) s")
            return (engine.database, corpus.distinctMessages)
        } catch {
            try? await server.stop()
            throw error
        }
    }

    static func measure(database: AppDatabase, emails n: Int, modelDirectory: URL, home: URL, scratch: URL, tool: VaultMailTool) async throws {
        let modelId = AIModelCatalog.embeddingModelId
        // As the daemon does after its first sync: freed heap goes back to the system.
        ProcessMemory.returnFreeMemory()
        let before = try ProcessStatus.memory(of: getpid())

        // Loading alone, on an engine of its own: load, unload, again.
        var loads: [Double] = []
        for _ in 0..<modelLoads {
            let engine = MiniLMEngine()
            let started = ContinuousClock.now
            try await engine.loadModel(path: modelDirectory)
            loads.append((ContinuousClock.now - started).millis)
            await engine.unloadModel()
        }
        Measure.report("ai-model-load", Measure.median(loads), "ms", n: n)
        print("# model load: first \(String(format: "%.1f", loads[0])) ms, then \(loads.dropFirst().map { String(format: "%.1f", $0) }.joined(separator: ", ")) ms")

        // The session every feature below shares, as the daemon has one.
        let session = AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([modelId: modelDirectory]), modelId: modelId,
                                     idleTimeout: .seconds(3600))
        _ = try await session.embed(query)
        let loaded = try ProcessStatus.memory(of: getpid())
        Measure.report("ai-memory-before-load", before.residentMiB, "MiB", n: n)
        Measure.report("ai-memory-model-loaded", loaded.residentMiB, "MiB", n: n)
        func mib(_ kib: Int) -> String { String(format: "%+.1f", Double(kib) / 1024) }
        print("# memory before the model (the store synced, freed heap returned as the daemon does): \(before.summary);"
              + " loaded and one query embedded: \(loaded.summary); the model adds \(mib(loaded.residentKiB - before.residentKiB)) MiB"
              + " (anon \(mib(loaded.anonymousKiB - before.anonymousKiB)), file \(mib(loaded.fileKiB - before.fileKiB))): the weights are"
              + " memory-mapped, so they count as file-backed (shared with the page cache), and only the pages used are resident")

        let index = GRDBSemanticIndex(database: database)
        let tokens = try await tokenCounts(index: index, modelId: modelId, modelDirectory: modelDirectory)
        let started = ContinuousClock.now
        let embedded = try await EmbedEmailsUseCase(index: index, embedder: session).run()
        let embedSeconds = (ContinuousClock.now - started).seconds
        precondition(embedded == n, "every email must be embedded: \(embedded) of \(n)")
        Measure.report("ai-embed-throughput", Double(embedded) / embedSeconds, "emails/s", n: n)
        Measure.report("ai-embed-tokens-per-email", Double(tokens.reduce(0, +)) / Double(max(1, n)), "tokens", n: n)
        print("# \(tokens.count) chunks (\(String(format: "%.2f", Double(tokens.count) / Double(max(1, n)))) per email)")
        print("# embedding: \(embedded) emails in \(String(format: "%.1f", embedSeconds)) s,"
              + " \(String(format: "%.0f", Double(tokens.reduce(0, +)) / embedSeconds)) tokens/s;"
              + " \(tokens.filter { $0 >= MiniLMEngine.maxSequenceLength }.count) texts cut at \(MiniLMEngine.maxSequenceLength) tokens")
        let afterEmbedding = try ProcessStatus.memory(of: getpid())
        Measure.report("ai-memory-after-embedding", afterEmbedding.residentMiB, "MiB", n: n)
        print("# memory after embedding every email: \(afterEmbedding.summary)")

        try await categorize(database: database, session: session, n: n)
        try await searchByMeaning(database: database, index: index, session: session, n: n)
        try await searchProcess(tool: tool, home: home, scratch: scratch, modelDirectory: modelDirectory, n: n)
    }

    /// Each pending chunk's token count as the model reads it (`[CLS]` and `[SEP]` included).
    static func tokenCounts(index: GRDBSemanticIndex, modelId: String, modelDirectory: URL) async throws -> [Int] {
        let tokenizer = try BertTokenizer(vocabularyFile: modelDirectory.appendingPathComponent("vocab.txt"),
                                          maxLength: MiniLMEngine.maxSequenceLength)
        return try await index.pendingInputs(modelId: modelId, limit: Int(Int32.max)).map { tokenizer.tokenIds(for: $0.text).count }
    }

    // MARK: Categories

    static func categorize(database: AppDatabase, session: some TextEmbedder, n: Int) async throws {
        let repository = GRDBCategoryRepository(database: database)
        // As the daemon builds it: the vectors the model computes are kept for search by meaning.
        let categorizer = CategorizeEmailsUseCase(
            repository: repository, model: ModelCategorizer(embedder: session))
        var sources: [CategorySource: Int] = [:]
        var rounds: [Double] = []
        // Round 0 also embeds the categories' written examples (once per model); reported apart.
        for _ in 0...categorizeRounds {
            let ids = try await repository.pendingInputs(limit: categorizeBatch, includingFallback: false).map(\.emailId)
            precondition(ids.count == categorizeBatch, "the store must have \(categorizeBatch) uncategorized emails")
            let started = ContinuousClock.now
            let decisions = try await categorizer.categorize(emailIds: ids)
            rounds.append((ContinuousClock.now - started).millis)
            precondition(decisions.count == categorizeBatch, "each of the \(categorizeBatch) emails must be decided, \(decisions.count) were")
            for decision in decisions.values { sources[decision.source, default: 0] += 1 }
        }
        Measure.report("ai-categorize-50", Measure.median(Array(rounds.dropFirst())), "ms", n: n)
        print("# categorize 50: first round \(String(format: "%.0f", rounds[0])) ms (embeds the written examples once),"
              + " then \(rounds.dropFirst().map { String(format: "%.0f", $0) }.joined(separator: ", ")) ms;"
              + " decided by \(tally(sources))")

        let all = try await repository.pendingInputs(limit: Int(Int32.max), includingFallback: true).map(\.emailId)
        let started = ContinuousClock.now
        let decided = try await categorizer.categorizePending()
        let seconds = (ContinuousClock.now - started).seconds
        precondition(decided == all.count, "every remaining email must be decided: \(decided) of \(all.count)")
        Measure.report("ai-categorize-all", Double(decided) / seconds, "emails/s", n: n)

        var categories: [AICategory: Int] = [:]
        var decidedBy: [CategorySource: Int] = [:]
        for id in all {
            guard let decision = try await repository.decision(emailId: id) else { continue }
            categories[decision.category, default: 0] += 1
            decidedBy[decision.source, default: 0] += 1
        }
        print("# categorize all: \(decided) emails in \(String(format: "%.1f", seconds)) s; categories:"
              + " \(AICategory.allCases.compactMap { category in categories[category].map { "\(category.rawValue) \($0)" } }.joined(separator: ", "));"
              + " decided by \(tally(decidedBy))")
    }

    static func tally(_ counts: [CategorySource: Int]) -> String {
        counts.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }

    // MARK: Search by meaning

    static func searchByMeaning(database: AppDatabase, index: GRDBSemanticIndex, session: some TextEmbedder, n: Int) async throws {
        let search = SemanticSearchUseCase(search: GRDBMailSearch(database: database), index: index, embedder: session)
        let firstPage = try await Measure.medianMillis(runs: 21) { _ = try await search.threads(query) }
        Measure.report("ai-semantic-first-page", firstPage, "ms", n: n)
        let filtered = try await Measure.medianMillis(runs: 21) { _ = try await search.threads(filteredQuery) }
        Measure.report("ai-semantic-first-page-filtered", filtered, "ms", n: n)
        let embedQuery = try await Measure.medianMillis(runs: 21) { _ = try await session.embed(query) }
        print("# of which embedding the query: \(String(format: "%.1f", embedQuery)) ms")

        let page = try await search.threads(query)
        let rank = (page.hits.firstIndex { $0.thread.subject == BudgetReviewMessage.subject } ?? -1) + 1
        Measure.report("ai-semantic-budget-rank", Double(rank), "rank", n: n)
        let filteredPage = try await search.threads(filteredQuery)
        let filteredRank = (filteredPage.hits.firstIndex { $0.thread.subject == BudgetReviewMessage.subject } ?? -1) + 1
        let budgetText = CategorizationInput.modelText(subject: BudgetReviewMessage.subject,
                                                 opening: CategorizationInput.openingText(body: budgetBody, snippet: nil))
        let vectors = try await session.embed([query, budgetText])
        print("# '\(query)': \(page.hits.count) conversations on the first page, the budget review \(rank == 0 ? "absent" : "#\(rank)")"
              + " (cosine \(String(format: "%.2f", cosineSimilarity(vectors[0], vectors[1]))));"
              + " first: \(page.hits.prefix(5).map { "'\($0.thread.subject.prefix(50))'" }.joined(separator: ", "))")
        print("# '\(filteredQuery)': \(filteredPage.hits.count) conversations, the budget review \(filteredRank == 0 ? "absent" : "#\(filteredRank)")")
    }

    /// The budget review's body as the store keeps it, for its similarity to the query.
    static var budgetBody: String {
        let text = String(decoding: BudgetReviewMessage.raw, as: UTF8.self)
        return text.range(of: "\n\n").map { String(text[$0.upperBound...]) } ?? text
    }

    /// `vaultmail search --semantic` as a whole process: it starts, opens the store, loads the
    /// model from `VAULTMAIL_MODELS_DIR` (installed there as a user would, checksums checked),
    /// finds every email already embedded, embeds the query and searches.
    static func searchProcess(tool: VaultMailTool, home: URL, scratch: URL, modelDirectory: URL, n: Int) async throws {
        let models = scratch.appendingPathComponent("models")
        try AIModelManager(directory: models).install(AIModelCatalog.embeddingModelId, from: [modelDirectory])
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_MODELS_DIR"] = models.path
        let start = try TimedProcess.median(runs: 11, tool.binary, ["--version"], environment: environment)
        let process = try TimedProcess.median(runs: 11, tool.binary, ["--home", home.path, "search", "--semantic", query], environment: environment)
        let words = try TimedProcess.median(runs: 11, tool.binary, ["--home", home.path, "search", query], environment: environment)
        Measure.report("ai-semantic-cli-process", process, "ms", n: n)
        print("# the same process: \(String(format: "%.1f", start)) ms to start (`vaultmail --version`),"
              + " \(String(format: "%.1f", words)) ms for the word search of the same query")
    }

    static func cpuModel() -> String? {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":") else { return nil }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
