import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailSync
import VaultMailTesting

/// `vaultmail-bench search` (issue 14): our search beside notmuch 0.37 on the same mail, in
/// the same run. The corpus: the notmuch `lkml` and `default` corpora and SpamAssassin's ham
/// (`SearchCorpus`), repeated with rewritten Message-IDs to 12,000 files, 10,100 distinct messages (`VAULTMAIL_BENCH_SEARCH_SIZE`
/// to change), each file dated by its Date header. Ours is synced from a private Dovecot (plain
/// IMAP) into a WAL store; notmuch indexes a copy of the same Maildir with `notmuch new`.
/// Figures, medians:
/// - `index-rebuild` (ours: every stored email indexed again, one transaction) beside
///   `notmuch-new`, in messages per second, and the initial sync that indexes as it stores;
/// - sizes: the index, the whole store, notmuch's database;
/// - per query (a common word, `from:ADDRESS`, `subject:WORD`, a date range, a phrase): the
///   first page (25) as a whole `vaultmail search` process and as `notmuch search --limit=25`,
///   our in-process time, and both counts of matching messages; `process-start` (`vaultmail
///   --version`) is the floor under our whole-process figures.
enum SearchBenchmarks {
    static var corpusSize: Int {
        ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SEARCH_SIZE"].flatMap(Int.init) ?? 12_000
    }

    /// A query in both languages.
    struct Query {
        let name: String
        let ours: String
        let notmuch: String
    }

    static let queries = [
        Query(name: "word", ours: "cache", notmuch: "cache"),
        Query(name: "from", ours: "from:joe@perches.com", notmuch: "from:joe@perches.com"),
        Query(name: "subject", ours: "subject:semicolons", notmuch: "subject:semicolons"),
        Query(name: "date-range", ours: "after:2010-06-01 before:2010-07-01", notmuch: "date:2010-06-01..2010-06-30"),
        Query(name: "phrase", ours: "\"unnecessary semicolons\"", notmuch: "\"unnecessary semicolons\""),
    ]

    static func run() async throws {
        let size = corpusSize
        guard var notmuch = SearchPeer.locate() else {
            throw SyncBenchmarks.BenchFailure(description: "notmuch is missing: run scripts/install-bench-deps.sh (Debian's notmuch 0.37)")
        }
        let tool = try await VaultMailTool.locate()
        let corpus = try SearchCorpus.load(repeatedTo: size)
        print("# search: notmuch lkml + default corpora and SpamAssassin ham (\(corpus.originals) messages) repeated with"
              + " rewritten Message-IDs to \(size) (\(corpus.distinctMessages) distinct), dated by their Date headers;"
              + " ours synced from Dovecot (plain IMAP, 127.0.0.1), notmuch \(notmuch.version) on a copy of the Maildir")
        let scratch = try scratchDirectory()
        // VAULTMAIL_BENCH_SEARCH_KEEP=1 keeps the store and notmuch's database for a look afterwards.
        let keep = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SEARCH_KEEP"] == "1"
        defer { if keep { print("# kept \(scratch.path)") } else { try? FileManager.default.removeItem(at: scratch) } }

        let server = try await DovecotServer.start(users: [SyncBenchmarks.user: SyncBenchmarks.password])
        do {
            try await measure(corpus, server: server, scratch: scratch, notmuch: &notmuch, tool: tool)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    static func measure(_ corpus: SearchCorpus, server: DovecotServer, scratch: URL, notmuch: inout SearchPeer, tool: VaultMailTool) async throws {
        try corpus.write(home: server.directory.appendingPathComponent("home/\(SyncBenchmarks.user)"))
        let home = scratch.appendingPathComponent("vaultmail")
        let (syncSeconds, engine) = try await SyncBenchmarks.initialSync(
            server: server, path: home.appendingPathComponent("vaultmail.sqlite").path, expected: corpus.distinctMessages)
        await engine.sync.connections.closeAll()
        let database = engine.database
        Measure.report("initial-sync-with-index", Double(corpus.distinctMessages) / syncSeconds, "msg/s", n: corpus.distinctMessages)

        var rebuilds: [Double] = []
        for _ in 0..<3 {
            let started = ContinuousClock.now
            try await database.rebuildSearchIndex()
            rebuilds.append((ContinuousClock.now - started).seconds)
        }
        let rebuildRate = Double(corpus.distinctMessages) / Measure.median(rebuilds)
        Measure.report("index-rebuild", rebuildRate, "msg/s", n: corpus.distinctMessages)
        Measure.report("index-share-of-initial-sync", 100 * Measure.median(rebuilds) / syncSeconds, "%", n: corpus.distinctMessages)

        let mail = scratch.appendingPathComponent("notmuch")
        try corpus.write(home: mail)
        let newSeconds = try notmuch.index(maildir: mail.appendingPathComponent("Maildir"), scratch: scratch)
        Measure.report("notmuch-new", Double(corpus.distinctMessages) / newSeconds, "msg/s", n: corpus.distinctMessages)
        Measure.report("index-rebuild-vs-notmuch-new", rebuildRate / (Double(corpus.distinctMessages) / newSeconds), "x", n: corpus.distinctMessages)

        let storeBytes = try fileBytes(home.appendingPathComponent("vaultmail.sqlite"))
        Measure.report("index-size", Double(try database.searchIndexBytes()) / 1_048_576, "MiB", n: corpus.distinctMessages)
        Measure.report("store-size", Double(storeBytes) / 1_048_576, "MiB", n: corpus.distinctMessages)
        Measure.report("notmuch-database-size", Double(try directoryBytes(mail.appendingPathComponent("Maildir/.notmuch"))) / 1_048_576, "MiB",
                       n: corpus.distinctMessages)

        // The floor under every whole-process figure: starting the tool at all.
        let start = try TimedProcess.median(runs: 11, tool.binary, ["--version"])
        Measure.report("process-start", start, "ms", n: corpus.distinctMessages)
        let search = SearchMailUseCase(search: GRDBMailSearch(database: database))
        for query in queries {
            try await compare(query, search: search, tool: tool, home: home, notmuch: notmuch, n: corpus.distinctMessages)
        }
    }

    static func compare(_ query: Query, search: SearchMailUseCase, tool: VaultMailTool, home: URL, notmuch: SearchPeer, n: Int) async throws {
        let inProcess = try await Measure.medianMillis(runs: 21) { _ = try await search.threads(query.ours) }
        let page = try await search.threads(query.ours)
        let ours = try TimedProcess.median(runs: 11, tool.binary, ["--home", home.path, "search", "--limit", "25", query.ours])
        let theirs = try TimedProcess.median(runs: 11, notmuch.binary, ["search", "--limit=25", query.notmuch], environment: notmuch.environment)
        let countOurs = try await search.count(query.ours, messages: true)
        let countTheirs = try notmuch.count(query.notmuch)
        Measure.report("search-\(query.name)-in-process", inProcess, "ms", n: n)
        Measure.report("search-\(query.name)-process", ours, "ms", n: n)
        Measure.report("notmuch-search-\(query.name)-process", theirs, "ms", n: n)
        Measure.report("search-\(query.name)-vs-notmuch", ours / theirs, "x", n: n)
        print("# \(query.name): ours `\(query.ours)` \(countOurs) messages (first page \(page.hits.count) conversations);"
              + " notmuch `\(query.notmuch)` \(countTheirs) messages")
    }

    static func scratchDirectory() throws -> URL {
        let memory = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
        let scratch = base.appendingPathComponent("vaultmail-bench-search-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    static func fileBytes(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    static func directoryBytes(_ url: URL) throws -> Int {
        var total = 0
        for case let relative as String in FileManager.default.enumerator(atPath: url.path) ?? .init() {
            total += (try? fileBytes(url.appendingPathComponent(relative))) ?? 0
        }
        return total
    }
}
