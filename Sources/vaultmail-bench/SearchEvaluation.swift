import Foundation
import GRDB
import VaultMailAI
import VaultMailCore
import VaultMailMIME
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench eval-search --newsgroups DIR --lists DIR --queries FILE [--per-group N]
/// [--chunk-words W] [--chunks K] [--skip-old]` (issue 35): search by meaning on mail labelled
/// by others. A deterministic sample of 20 Newsgroups (one folder per group, full headers) and
/// of lore mailing-list mboxes (`<list-id>.mbox`) is stripped of what names its group or list
/// (`Newsgroups`, `List-*` and every other header but From, Subject, Date, Message-ID,
/// In-Reply-To and References; `[list]` subject tags, list footers, the list's address; dates
/// spread over one year by a hash of the Message-ID, so no source is newer than another), then
/// synced from a private Dovecot into a fresh store by the product's sync and indexed by its
/// triggers, embedded by `EmbedEmailsUseCase` and searched by `SemanticSearchUseCase` and
/// `SearchMailUseCase`. A conversation is relevant to a query when one of its messages was
/// posted to the query's group (20 Newsgroups: its `Newsgroups` header, cross-posts count) or
/// list. Queries are split into dev and test by a hash of their text (FNV-1a, even = dev);
/// chunking and ranking were chosen on dev. Prints P@10 per query and the means per split for
/// the old one-vector scheme, each ranking of the new one, word search as typed and with OR,
/// and the random-ranking baseline; then the cost: embedding time, query latency, vector bytes.
enum SearchEvaluation {
    struct Options {
        var newsgroups: URL?
        var lists: URL?
        var queries: URL?
        var perGroup = 150
        var chunker = EmbeddingChunker.standard
        var skipOld = false
    }

    struct Query {
        let group: String
        let text: String
        var isDev: Bool { fnv1a(text) % 2 == 0 }
    }

    /// A sampled message, rewritten without its labels, and the groups or list it was posted to.
    struct Sample {
        let messageId: String
        let raw: [UInt8]
        let date: Date
        let labels: Set<String>
    }

    static let usage = "usage: vaultmail-bench eval-search --newsgroups DIR --lists DIR --queries FILE [--per-group N] [--chunk-words W] [--chunks K] [--skip-old]"

    static func main(_ arguments: [String]) async -> Never {
        do {
            let options = try parse(arguments)
            try await run(options)
            exit(0)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("vaultmail-bench eval-search: \(error.message)\n\(usage)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("vaultmail-bench eval-search failed: \(error)\n".utf8))
            exit(1)
        }
    }

    struct UsageError: Error { let message: String }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return next
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name)
            guard let n = Int(text), n > 0 else { throw UsageError(message: "\(name) takes a positive whole number, not '\(text)'") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--newsgroups": options.newsgroups = URL(fileURLWithPath: try value(argument))
            case "--lists": options.lists = URL(fileURLWithPath: try value(argument))
            case "--queries": options.queries = URL(fileURLWithPath: try value(argument))
            case "--per-group": options.perGroup = try number(argument)
            case "--chunk-words": options.chunker.wordsPerChunk = try number(argument)
            case "--chunks": options.chunker.maximumChunks = try number(argument)
            case "--skip-old": options.skipOld = true
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        guard options.queries != nil else { throw UsageError(message: "--queries FILE is required (group<TAB>query per line)") }
        guard options.newsgroups != nil || options.lists != nil else {
            throw UsageError(message: "give --newsgroups DIR (20 Newsgroups, a folder per group) and/or --lists DIR (<list-id>.mbox files)")
        }
        return options
    }

    // MARK: The run

    static func run(_ options: Options) async throws {
        let queries = try loadQueries(options.queries!)
        let groups = Set(queries.map(\.group))
        var samples: [Sample] = []
        var taken = Set<String>()
        var sources: [String] = []
        if let directory = options.newsgroups {
            let root = FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path) ? directory.appendingPathComponent("data") : directory
            let found = try newsgroupSamples(root: root, groups: groups, perGroup: options.perGroup, taken: &taken)
            samples += found
            sources.append("20 Newsgroups (\(root.path)): \(found.count) articles")
        }
        if let directory = options.lists {
            for list in groups.sorted() {
                let file = directory.appendingPathComponent("\(list).mbox")
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                let found = try listSamples(mbox: file, list: list, perList: options.perGroup, taken: &taken)
                samples += found
                sources.append("\(list).mbox: \(found.count) messages")
            }
        }
        let missing = groups.filter { group in !samples.contains { $0.labels.contains(group) } }
        guard missing.isEmpty else { throw UsageError(message: "no message of \(missing.sorted().joined(separator: ", ")) found under the given folders") }
        let dev = queries.filter(\.isDev), test = queries.filter { !$0.isDev }
        say("# eval-search: \(samples.count) messages sampled (\(options.perGroup) per group or list, by FNV-1a of the file name or Message-ID; patches left out of lists)")
        for source in sources { print("#   \(source)") }
        say("# queries: \(queries.count) from \(options.queries!.path); split by FNV-1a of the query text: dev \(dev.count), test \(test.count)")
        say("# chunking: \(options.chunker.wordsPerChunk) words per chunk, at most \(options.chunker.maximumChunks) chunks; model all-MiniLM-L6-v2, \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let scratch = try SearchBenchmarks.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let home = scratch.appendingPathComponent("vaultmail")
        let database = try await importSamples(samples, home: home)
        var readOnly = Configuration()
        readOnly.readonly = true
        let reader = try DatabasePool(path: home.appendingPathComponent("vaultmail.sqlite").path, configuration: readOnly)
        let truth = try await relevance(reader: reader, samples: samples)
        let conversations = truth.count
        say("# store: \(try await emailCount(reader)) emails in \(conversations) conversations")

        let modelId = AIModelCatalog.embeddingModelId
        let session = AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([modelId: try AIModelFixture.installedMiniLMDirectory()]),
                                     modelId: modelId, idleTimeout: .seconds(3600))
        _ = try await session.embed("warm up")
        let search = GRDBMailSearch(database: database)
        let lexical = SearchMailUseCase(search: search)
        var table: [(name: String, scores: [Double])] = []

        // The random ranking: the share of conversations relevant to each query's group.
        table.append(("random ranking (baseline)", queries.map { query in
            Double(truth.values.filter { $0.contains(query.group) }.count) / Double(max(1, conversations))
        }))
        let byRelevance = SearchOptions(sort: .relevance, limit: 10)
        table.append(("word search, as typed (FTS)", try await precision(queries, truth) { try await lexical.threads($0, options: byRelevance).hits }))
        table.append(("word search, any word (FTS, OR)", try await precision(queries, truth) { text in
            let words = SearchText.fold(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            return try await lexical.threads(words.joined(separator: " OR "), options: byRelevance).hits
        }))

        var costs: [String] = []
        if !options.skipOld {
            let old = RenamedEmbedder(base: session, modelId: "\(modelId)#opening")
            let oldIndex = GRDBSemanticIndex(database: database)
            let seconds = try await embedOpenings(reader: reader, index: oldIndex, embedder: old)
            let emails = try await emailCount(reader)
            costs.append(String(format: "old one-vector scheme: %.1f emails/s (%.1f s), one vector = %ld bytes per email", Double(emails) / seconds, seconds, old.dimensions * 4))
            for (name, ranking) in [("window 0.1 (issue 15's ranking)", SemanticSearchUseCase.Ranking(similarityWindow: 0.1)), ("no window", .standard)] {
                let semantic = SemanticSearchUseCase(search: search, index: oldIndex, embedder: old, ranking: ranking)
                table.append(("old: one vector (subject + 300 chars), \(name)", try await precision(queries, truth) { try await semantic.threads($0, options: SearchOptions(limit: 10)).hits }))
            }
        }

        let index = GRDBSemanticIndex(database: database, chunker: options.chunker)
        let started = ContinuousClock.now
        let embedded = try await EmbedEmailsUseCase(index: index, embedder: session).run()
        let seconds = (ContinuousClock.now - started).seconds
        let (chunks, bytes) = try await reader.read { db -> (Int, Int) in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), sum(length(vector)) FROM emailEmbedding WHERE modelId = ?", arguments: [modelId])!
            let count: Int = row[0]
            let total: Int = row[1]
            return (count, total)
        }
        let perEmail = Double(chunks) / Double(max(1, embedded))
        let emailsPerSecond = Double(embedded) / seconds
        let chunksPerSecond = Double(chunks) / seconds
        let bytesPerEmail = Double(bytes) / Double(max(1, embedded))
        costs.append(String(format: "new chunked scheme: %ld emails, %ld chunks (%.2f per email) in %.1f s = %.1f emails/s, %.1f chunks/s; vectors %ld bytes = %.0f bytes per email",
                            embedded, chunks, perEmail, seconds, emailsPerSecond, chunksPerSecond, bytes, bytesPerEmail))
        Measure.report("eval-search-embed-per-email", seconds * 1000 / Double(max(1, embedded)), "ms", n: embedded)
        Measure.report("eval-search-vector-bytes-per-email", Double(bytes) / Double(max(1, embedded)), "bytes", n: embedded)

        for (name, ranking) in rankings {
            let semantic = SemanticSearchUseCase(search: search, index: index, embedder: session, ranking: ranking)
            table.append(("new: chunks, \(name)", try await precision(queries, truth) { try await semantic.threads($0, options: SearchOptions(limit: 10)).hits }))
        }

        // Latency of the product's search by meaning (its standard ranking), 3 rounds of every query.
        let semantic = SemanticSearchUseCase(search: search, index: index, embedder: session)
        var latencies: [Double] = []
        var wordLatencies: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<3 {
            for query in queries {
                latencies.append(try await clock.measure { _ = try await semantic.threads(query.text, options: SearchOptions(limit: 10)) }.millis)
                wordLatencies.append(try await clock.measure { _ = try await lexical.threads(query.text, options: byRelevance) }.millis)
            }
        }
        Measure.report("eval-search-query-median", Measure.median(latencies), "ms", n: chunks)
        Measure.report("eval-search-query-worst", latencies.max() ?? .nan, "ms", n: chunks)
        let (median, worst) = (Measure.median(latencies), latencies.max() ?? .nan)
        let (wordMedian, wordWorst) = (Measure.median(wordLatencies), wordLatencies.max() ?? .nan)
        costs.append(String(format: "search by meaning, first page in process (%ld runs over %ld vectors): median %.1f ms, worst %.1f ms; word search median %.1f ms, worst %.1f ms",
                            latencies.count, chunks, median, worst, wordMedian, wordWorst))

        printReport(queries: queries, table: table)
        for cost in costs { print("# cost: \(cost)") }
    }

    /// The rankings compared on dev; `SemanticSearchUseCase.Ranking.standard` is the one chosen.
    static let rankings: [(String, SemanticSearchUseCase.Ranking)] = [
        ("fused with words, window 0.1 (issue 15's)", .init(similarityWindow: 0.1)),
        ("fused with words, no window (the standard)", .standard),
        ("fused, words at half weight", .init(wordWeight: 0.5)),
        ("by meaning alone", .init(wordWeight: 0)),
    ]

    static func printReport(queries: [Query], table: [(name: String, scores: [Double])]) {
        say("\n## P@10 per query (columns: \(table.indices.map { "[\($0)]" }.joined(separator: " ")))")
        for (index, row) in table.enumerated() { print("# [\(index)] \(row.name)") }
        for (index, query) in queries.enumerated() {
            let cells = table.map { String(format: "%.1f", $0.scores[index]) }.joined(separator: " ")
            say("\(query.isDev ? "dev " : "test") \(cells)  \(query.group): \(query.text)")
        }
        say("\n## mean P@10")
        say("ranking".padding(toLength: 64, withPad: " ", startingAt: 0) + "   test    dev    all")
        for row in table {
            func mean(_ keep: (Query) -> Bool) -> Double {
                let values = zip(queries, row.scores).filter { keep($0.0) }.map(\.1)
                return values.reduce(0, +) / Double(max(1, values.count))
            }
            say(row.name.padding(toLength: 64, withPad: " ", startingAt: 0) + String(format: " %6.3f %6.3f %6.3f", mean { !$0.isDev }, mean(\.isDev), mean { _ in true }))
        }
    }

    /// P@10 of each query: relevant conversations among the first ten (fewer than ten count the rest as misses).
    static func precision(_ queries: [Query], _ truth: [String: Set<String>], _ search: (String) async throws -> [ThreadSearchHit]) async throws -> [Double] {
        var scores: [Double] = []
        for query in queries {
            let hits = try await search(query.text).prefix(10)
            scores.append(Double(hits.filter { truth[$0.thread.id]?.contains(query.group) == true }.count) / 10)
        }
        return scores
    }

    // MARK: Queries and samples

    static func loadQueries(_ file: URL) throws -> [Query] {
        let text = try String(contentsOf: file, encoding: .utf8)
        let queries = text.split(separator: "\n").compactMap { line -> Query? in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return Query(group: String(parts[0]).trimmingCharacters(in: .whitespaces), text: String(parts[1]).trimmingCharacters(in: .whitespaces))
        }
        guard !queries.isEmpty else { throw UsageError(message: "\(file.path) has no 'group<TAB>query' line") }
        return queries
    }

    static func newsgroupSamples(root: URL, groups: Set<String>, perGroup: Int, taken: inout Set<String>) throws -> [Sample] {
        let parser = GMimeMessageParser()
        var samples: [Sample] = []
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { groups.contains($0) }.sorted()
        for group in folders {
            let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(group).path)
                .sorted { (fnv1a("\(group)/\($0)"), $0) < (fnv1a("\(group)/\($1)"), $1) }
            var count = 0
            for file in files where count < perGroup {
                let raw = try [UInt8](Data(contentsOf: root.appendingPathComponent(group).appendingPathComponent(file)))
                let head = headerBlock(raw)
                let newsgroups = Set((header("Newsgroups", in: head) ?? group).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                let parsed = parser.parse(raw)
                let id = messageIdentifier(parsed, fallback: "\(group)-\(file)@20news.invalid")
                guard taken.insert(id).inserted, let sample = rewrite(parsed, raw: head, id: id, labels: newsgroups, list: nil) else { continue }
                samples.append(sample)
                count += 1
            }
        }
        return samples
    }

    static func listSamples(mbox: URL, list: String, perList: Int, taken: inout Set<String>) throws -> [Sample] {
        let data = try Data(contentsOf: mbox, options: .alwaysMapped)
        var messages: [(id: String, range: Range<Int>)] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress, bytes.count > 5 else { return }
            // Each message starts at "From " at the start of a line (memchr: the files are hundreds of MB).
            var starts: [Int] = memcmp(base, "From ", 5) == 0 ? [0] : []
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
                let position = base.distance(to: UnsafeRawPointer(found)) + 1
                if position + 5 <= bytes.count, memcmp(base + position, "From ", 5) == 0 { starts.append(position) }
                offset = position
            }
            for (n, start) in starts.enumerated() {
                let end = n + 1 < starts.count ? starts[n + 1] : bytes.count
                guard let newline = memchr(base + start, 0x0A, end - start) else { continue }
                let bodyStart = base.distance(to: UnsafeRawPointer(newline)) + 1
                let headLength = min(end, bodyStart + 65_536) - bodyStart
                let head = String(decoding: UnsafeRawBufferPointer(start: base + bodyStart, count: headLength), as: UTF8.self)
                let headEnd = head.range(of: "\n\n").map { String(head[..<$0.lowerBound]) } ?? head
                let id = header("Message-ID", in: headEnd).map(bareId) ?? "\(list)-\(n)"
                messages.append((id, bodyStart..<end))
            }
        }
        let parser = GMimeMessageParser()
        var samples: [Sample] = []
        for message in messages.sorted(by: { (fnv1a($0.id), $0.id) < (fnv1a($1.id), $1.id) }) where samples.count < perList {
            guard !taken.contains(message.id) else { continue }
            let raw = unescapeMboxrd([UInt8](data[message.range]))
            let head = headerBlock(raw)
            if let subject = header("Subject", in: head), subject.range(of: #"\[[^\]]*PATCH"#, options: [.regularExpression, .caseInsensitive]) != nil { continue }
            let parsed = parser.parse(raw)
            guard let sample = rewrite(parsed, raw: head, id: message.id, labels: [list], list: list) else { continue }
            taken.insert(message.id)
            samples.append(sample)
        }
        return samples
    }

    /// The message again, with nothing that names its group or list: From, Subject, Date (a day
    /// of 2025 chosen by the Message-ID), Message-ID, In-Reply-To, References and the text
    /// (plain, or the HTML's text) as UTF-8 in base64. Nil when it has no text.
    static func rewrite(_ parsed: ParsedMessage, raw head: String, id: String, labels: Set<String>, list: String?) -> Sample? {
        var body = MessageText.plain(plain: parsed.textPlain, html: parsed.textHTML)
        var subject = parsed.subject
        if let list {
            subject = withoutListTags(subject, list: list)
            body = withoutListFooter(body)
            let address = listAddress(list)
            subject = subject.replacingOccurrences(of: address, with: "list@example.invalid", options: .caseInsensitive)
            body = body.replacingOccurrences(of: address, with: "list@example.invalid", options: .caseInsensitive)
        }
        guard body.contains(where: \.isLetter) else { return nil }
        let date = Date(timeIntervalSince1970: 1_735_689_600 + Double(fnv1a(id) % (365 * 86_400)))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        var lines = [
            "From: \(header("From", in: head) ?? "unknown@example.invalid")",
            "To: reader@example.invalid",
            "Subject: \(encodedWord(subject))",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(id)>",
        ]
        if let value = header("In-Reply-To", in: head) { lines.append("In-Reply-To: \(value)") }
        if let value = header("References", in: head) { lines.append("References: \(value)") }
        lines += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", ""]
        let encoded = Data(body.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        let raw = Array((lines.joined(separator: "\n") + "\n" + encoded + "\n").utf8)
        return Sample(messageId: id, raw: raw, date: date, labels: labels)
    }

    /// `[USRP-users]`, `[Blinux-list]`, `[ksummit]`: a bracketed tag whose letters and digits are
    /// part of the list's id.
    static func withoutListTags(_ subject: String, list: String) -> String {
        let key = list.lowercased().filter { $0.isLetter || $0.isNumber }
        var out = subject
        while let tag = out.range(of: #"\[[^\]]{2,40}\]\s*"#, options: .regularExpression),
              key.contains(out[tag].lowercased().filter { $0.isLetter || $0.isNumber }) {
            out.removeSubrange(tag)
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// The text before a mailing-list footer: a line of underscores or dashes followed by lines
    /// that name a mailing list, a way to unsubscribe or a list's web page.
    static func withoutListFooter(_ body: String) -> String {
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.count >= 5, trimmed.allSatisfy({ $0 == "_" || $0 == "-" }) else { continue }
            let after = lines[(index + 1)...].prefix(8).joined(separator: " ").lowercased()
            if ["mailing list", "unsubscribe", "listinfo", "list info", "lists."].contains(where: after.contains) {
                return lines[..<index].joined(separator: "\n")
            }
        }
        return body
    }

    /// `usrp-users.lists.ettus.com` → `usrp-users@lists.ettus.com`.
    static func listAddress(_ list: String) -> String {
        guard let dot = list.firstIndex(of: ".") else { return list }
        return list[..<dot] + "@" + list[list.index(after: dot)...]
    }

    /// The store's conversations and the groups or lists their messages were posted to.
    static func relevance(reader: DatabasePool, samples: [Sample]) async throws -> [String: Set<String>] {
        let labels = Dictionary(samples.map { ($0.messageId.lowercased(), $0.labels) }, uniquingKeysWith: { $0.union($1) })
        let rows = try await reader.read { db -> [(String, String)] in
            try Row.fetchAll(db, sql: "SELECT threadId, messageId FROM email").map { row -> (String, String) in (row[0], row[1]) }
        }
        var truth: [String: Set<String>] = [:]
        for (thread, messageId) in rows {
            truth[thread, default: []].formUnion(labels[bareId(messageId).lowercased()] ?? [])
        }
        return truth
    }

    static func emailCount(_ reader: DatabasePool) async throws -> Int {
        try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM email") ?? 0 }
    }

    /// The samples written into a private Dovecot and synced into a fresh store, as a user's mail arrives.
    static func importSamples(_ samples: [Sample], home: URL) async throws -> AppDatabase {
        let messages = samples.map(\.raw)
        let corpus = SearchCorpus(originals: messages.count, messages: messages, dates: samples.map(\.date),
                                  distinctMessages: SyncBenchmarks.Corpus.distinctIds(messages))
        let server = try await DovecotServer.start(users: [SyncBenchmarks.user: SyncBenchmarks.password])
        do {
            try corpus.write(home: server.directory.appendingPathComponent("home/\(SyncBenchmarks.user)"))
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let (seconds, engine) = try await SyncBenchmarks.initialSync(
                server: server, path: home.appendingPathComponent("vaultmail.sqlite").path, expected: corpus.distinctMessages)
            await engine.sync.connections.closeAll()
            try await server.stop()
            say("# synced \(corpus.distinctMessages) messages from Dovecot in \(String(format: "%.1f", seconds)) s")
            return engine.database
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Issue 15's vectors, for comparison: one per email, of its subject and the first 300
    /// characters of its opening text; seconds taken.
    static func embedOpenings(reader: DatabasePool, index: GRDBSemanticIndex, embedder: some TextEmbedder) async throws -> Double {
        let inputs = try await reader.read { db -> [(String, String)] in
            try Row.fetchAll(db, sql: "SELECT id, subject, substr(bodyPlain, 1, 600) AS opening, snippet FROM email ORDER BY dateReceived DESC").map { row -> (String, String) in
                let opening = CategorizationInput.openingText(body: row["opening"], snippet: row["snippet"])
                return (row["id"], CategorizationInput.modelText(subject: row["subject"], opening: opening))
            }
        }
        let started = ContinuousClock.now
        for start in stride(from: 0, to: inputs.count, by: 64) {
            let batch = Array(inputs[start..<min(inputs.count, start + 64)])
            let vectors = try await embedder.embed(batch.map { $0.1 })
            try await index.save(zip(batch, vectors).map { ($0.0, [$1]) }, modelId: embedder.modelId)
        }
        return (ContinuousClock.now - started).seconds
    }

    // MARK: Small helpers

    /// A line of the report, written at once (the run takes many minutes).
    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func headerBlock(_ raw: [UInt8]) -> String {
        let text = String(decoding: raw.prefix(65_536), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return text.range(of: "\n\n").map { String(text[..<$0.lowerBound]) } ?? text
    }

    /// A header field's value, unfolded; nil when absent.
    static func header(_ name: String, in head: String) -> String? {
        let prefix = name.lowercased() + ":"
        var value: String?
        for line in head.split(separator: "\n", omittingEmptySubsequences: false) {
            if value != nil {
                if line.first == " " || line.first == "\t" { value! += " " + line.trimmingCharacters(in: .whitespaces); continue }
                break
            }
            if line.lowercased().hasPrefix(prefix) { value = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
        }
        return value
    }

    static func bareId(_ value: String) -> String {
        value.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t"))
    }

    static func messageIdentifier(_ parsed: ParsedMessage, fallback: String) -> String {
        parsed.messageId.map(bareId).flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    static func encodedWord(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        guard !flat.allSatisfy(\.isASCII) else { return flat }
        return "=?UTF-8?B?\(Data(flat.utf8).base64EncodedString())?="
    }

    /// mboxrd: a body line `>From ` (any number of `>`) loses one `>`.
    static func unescapeMboxrd(_ raw: [UInt8]) -> [UInt8] {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains(">From ") else { return raw }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let quotes = line.prefix { $0 == ">" }
            return !quotes.isEmpty && line.dropFirst(quotes.count).hasPrefix("From ") ? line.dropFirst() : line
        }
        return Array(lines.joined(separator: "\n").utf8)
    }
}

/// A sentence model under another id, so the old scheme's vectors live beside the new ones.
struct RenamedEmbedder: TextEmbedder {
    let base: any TextEmbedder
    let modelId: String
    var dimensions: Int { base.dimensions }
    func isAvailable() async -> Bool { await base.isAvailable() }
    func embed(_ texts: [String]) async throws -> [[Float]] { try await base.embed(texts) }
}
