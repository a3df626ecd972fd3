import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailStore

/// `vaultmail-bench search-agree --mbox PATH [--mbox PATH…] [--dir PATH…] [--count 5000]
/// [--queries 56] [--seed 1]` (issue 31): does our word search find what notmuch finds on the
/// same mail? The first `count` messages of the mboxes, then of the folders (one message per
/// file, by path; one per Message-ID; a message without one gets one made up) are written into a Maildir that notmuch 0.37 indexes (its own configuration
/// and database in a scratch folder, `NOTMUCH_CONFIG`), and synced from a private Dovecot into
/// a fresh store as a user's mail arrives. Queries are drawn from the corpus with the seed
/// (SplitMix64): single words of four frequency bands, words typed capitalized or in capitals,
/// words that exist only after quoted-printable or base64 decoding, two-word phrases, words of
/// the senders' and recipients' names, `from:` and `to:` addresses, `subject:` words. Each runs
/// through both, unpaged; a query agrees when both find the same messages (by Message-ID).
/// Prints per query the counts and the Message-IDs only one side finds, then the agreement
/// rate with the corpus size. Words notmuch also matches against its own terms (tags, MIME
/// types, folder names) are never drawn: `unread`, `text`, `plain`, … find every message there.
enum SearchAgreement {
    struct Options {
        var mboxes: [URL] = []
        var folders: [URL] = []
        var count = 5000
        var queries = 56
        var seed: UInt64 = 1
    }

    /// A query in both languages, with the kind it was drawn as.
    struct Query {
        let kind: String
        let ours: String
        let notmuch: String
    }

    struct UsageError: Error { let message: String }

    static let usage = "usage: vaultmail-bench search-agree --mbox PATH [--mbox PATH…] [--dir PATH…] [--count 5000] [--queries 56] [--seed 1]"

    static func main(_ arguments: [String]) async -> Never {
        do {
            try await run(try parse(arguments))
            exit(0)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("vaultmail-bench search-agree: \(error.message)\n\(usage)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("vaultmail-bench search-agree failed: \(error)\n".utf8))
            exit(1)
        }
    }

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
            case "--mbox":
                let path = try value(argument)
                guard FileManager.default.isReadableFile(atPath: path) else { throw UsageError(message: "cannot read the mbox \(path): check the path") }
                options.mboxes.append(URL(fileURLWithPath: path))
            case "--dir":
                let path = try value(argument)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                    throw UsageError(message: "\(path) is not a folder of message files")
                }
                options.folders.append(URL(fileURLWithPath: path))
            case "--count": options.count = try number(argument)
            case "--queries": options.queries = try number(argument)
            case "--seed": options.seed = UInt64(try number(argument))
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        guard !options.mboxes.isEmpty || !options.folders.isEmpty else {
            throw UsageError(message: "give --mbox PATH (a mailing list's mbox, e.g. under /work/data-research/lists/) or --dir PATH (a folder of message files)")
        }
        return options
    }

    // MARK: The run

    static func run(_ options: Options) async throws {
        guard var notmuch = SearchPeer.locate() else {
            throw UsageError(message: "notmuch is missing: run scripts/install-bench-deps.sh (Debian's notmuch 0.37)")
        }
        let corpus = try load(options)
        let names = (options.mboxes + options.folders).map(\.path).joined(separator: ", ")
        SearchEvaluation.say("# search-agree: the first \(corpus.count) distinct messages of \(names); notmuch \(notmuch.version) on a Maildir of them,"
                             + " ours synced from Dovecot into a fresh store; seed \(options.seed)")
        let scratch = try SearchBenchmarks.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }

        let maildir = scratch.appendingPathComponent("notmuch")
        let messages = corpus.map(\.raw)
        try SearchCorpus(originals: messages.count, messages: messages, dates: corpus.map(\.date), distinctMessages: messages.count).write(home: maildir)
        let seconds = try notmuch.index(maildir: maildir.appendingPathComponent("Maildir"), scratch: scratch)
        SearchEvaluation.say("# notmuch new: \(String(format: "%.1f", seconds)) s")
        let database = try await SearchEvaluation.importSamples(corpus, home: scratch.appendingPathComponent("vaultmail"))
        let search = SearchMailUseCase(search: GRDBMailSearch(database: database))

        let queries = draw(corpus, count: options.queries, seed: options.seed)
        var agreed = 0
        var byKind: [String: (agreed: Int, total: Int)] = [:]
        for query in queries {
            let ours = try await ourMessageIds(query.ours, search: search)
            let theirs = try notmuchMessageIds(query.notmuch, notmuch: notmuch)
            let same = ours == theirs
            if same { agreed += 1 }
            byKind[query.kind, default: (0, 0)].total += 1
            if same { byKind[query.kind, default: (0, 0)].agreed += 1 }
            var line = "\(same ? "agree " : "differ") \(query.kind.padding(toLength: 9, withPad: " ", startingAt: 0)) ours \(ours.count) notmuch \(theirs.count)  `\(query.ours)`"
            if query.notmuch != query.ours { line += " (notmuch `\(query.notmuch)`)" }
            SearchEvaluation.say(line)
            if !same {
                let onlyOurs = ours.subtracting(theirs).sorted(), onlyTheirs = theirs.subtracting(ours).sorted()
                if !onlyOurs.isEmpty { SearchEvaluation.say("    only ours (\(onlyOurs.count)): \(onlyOurs.prefix(6).joined(separator: " "))") }
                if !onlyTheirs.isEmpty { SearchEvaluation.say("    only notmuch (\(onlyTheirs.count)): \(onlyTheirs.prefix(6).joined(separator: " "))") }
            }
        }
        for (kind, tally) in byKind.sorted(by: { $0.key < $1.key }) {
            SearchEvaluation.say("# \(kind): \(tally.agreed) of \(tally.total) agree")
        }
        SearchEvaluation.say("# agreement: \(agreed) of \(queries.count) queries (\(String(format: "%.1f", 100 * Double(agreed) / Double(max(1, queries.count)))) %) on \(corpus.count) messages")
        Measure.report("search-agreement", 100 * Double(agreed) / Double(max(1, queries.count)), "%", n: corpus.count)
    }

    /// The first `count` messages of the mboxes, one per Message-ID, each dated by its Date header.
    static func load(_ options: Options) throws -> [SearchEvaluation.Sample] {
        let parser = GMimeMessageParser()
        var samples: [SearchEvaluation.Sample] = []
        var seen = Set<String>()
        func take(_ message: [UInt8]) {
            let raw = SearchCorpus.withMessageId(message, samples.count)
            let parsed = parser.parse(raw)
            guard let id = parsed.messageId.map(SearchEvaluation.bareId), !id.isEmpty, seen.insert(id).inserted else { return }
            samples.append(SearchEvaluation.Sample(messageId: id, raw: raw, date: parsed.date ?? Date(timeIntervalSince1970: 1_262_304_000), labels: []))
        }
        for mbox in options.mboxes where samples.count < options.count {
            for message in try CategoryEvaluationBench.mboxMessages(mbox.path) where samples.count < options.count { take(message) }
        }
        for folder in options.folders where samples.count < options.count {
            let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
            for file in files where samples.count < options.count {
                let url = folder.appendingPathComponent(file)
                // Message files only: not the JSON of what a parser should make of them (stalwart-mail-parser), nor READMEs.
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, !file.hasPrefix("."),
                      !file.hasSuffix(".json"), !file.hasSuffix(".md"),
                      let data = FileManager.default.contents(atPath: url.path) else { continue }
                take([UInt8](data))
            }
        }
        guard !samples.isEmpty else { throw UsageError(message: "no message found in the given mboxes") }
        return samples
    }

    // MARK: Running a query on each side

    static func ourMessageIds(_ query: String, search: SearchMailUseCase) async throws -> Set<String> {
        var ids = Set<String>()
        var options = SearchOptions(limit: 500)
        while true {
            let page = try await search.messages(query, options: options)
            ids.formUnion(page.hits.map { SearchEvaluation.bareId($0.email.messageId) })
            guard let next = page.nextCursor else { return ids }
            options.cursor = next
        }
    }

    static func notmuchMessageIds(_ query: String, notmuch: SearchPeer) throws -> Set<String> {
        let result = try ProcessCapture.run(notmuch.binary, ["search", "--output=messages", "--exclude=false", query],
                                            environment: notmuch.environment, includeErrors: false)
        guard result.status == 0 else { throw UsageError(message: "notmuch search \(query) failed with status \(result.status)") }
        return Set(String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { line in
            var id = line.hasPrefix("id:") ? line.dropFirst(3) : line[...]
            if id.hasPrefix("\""), id.hasSuffix("\""), id.count >= 2 { id = id.dropFirst().dropLast() }
            return id.replacingOccurrences(of: "\"\"", with: "\"")
        })
    }

    // MARK: Drawing the queries

    /// Words notmuch also matches against terms of its own: tags (`new.tags`, `attachment`,
    /// `signed`, `encrypted`, `replied`…), MIME types (`mimetype:` is searched by bare words too)
    /// and Maildir folder names (`cur`, `new`). A bare `text` finds every message there.
    static let notmuchVocabulary: Set<String> = [
        "inbox", "unread", "attachment", "signed", "encrypted", "replied", "draft", "flagged", "passed",
        "text", "plain", "html", "multipart", "mixed", "alternative", "related", "application", "octet",
        "stream", "message", "rfc", "image", "signature", "pgp", "cur", "new", "tmp", "calendar", "delivery", "status",
    ]

    /// What a message offers the query drawer.
    struct Words {
        var body: [String] = []        // the words of the body text, in order, as written
        var subject: [String] = []
        var names: [String] = []       // the words of From, To and Cc names
        var from: String?
        var to: [String] = []
        var decodedOnly: Set<String> = []  // lowercased words that are not words of the raw bytes
    }

    static func words(of sample: SearchEvaluation.Sample, parser: GMimeMessageParser) -> Words {
        let parsed = parser.parse(sample.raw)
        let text = MessageText.plain(plain: parsed.textPlain, html: parsed.textHTML)
        var words = Words()
        words.body = split(text)
        words.subject = split(parsed.subject)
        words.names = (parsed.from + parsed.to + parsed.cc).flatMap { split($0.name ?? "") }
        words.from = parsed.sender?.email.lowercased()
        words.to = parsed.to.map { $0.email.lowercased() }.filter { !$0.isEmpty }
        let head = SearchEvaluation.headerBlock(sample.raw).lowercased()
        if head.contains("quoted-printable") || head.contains("base64") {
            // Words of the raw bytes as they stand ("configu=" and "ration" across a soft line break).
            let raw = Set(split(String(decoding: sample.raw, as: UTF8.self)).map { $0.lowercased() })
            words.decodedOnly = Set(words.body.map { $0.lowercased() }.filter { !raw.contains($0) })
        }
        return words
    }

    /// Words of ASCII letters, 4 to 20 of them (no digits: notmuch's number handling is its own).
    static func split(_ text: String) -> [String] {
        text.split(whereSeparator: { !($0.isASCII && $0.isLetter) }).map(String.init).filter { (4...20).contains($0.count) }
    }

    static func draw(_ corpus: [SearchEvaluation.Sample], count: Int, seed: UInt64) -> [Query] {
        let parser = GMimeMessageParser()
        let all = corpus.map { words(of: $0, parser: parser) }
        var frequency: [String: Int] = [:]
        var capitalized: [String: Int] = [:]
        var decoded: Set<String> = []
        var pairs: [String: Int] = [:]
        var names: Set<String> = [], senders: Set<String> = [], recipients: Set<String> = [], subjects: Set<String> = []
        for words in all {
            for word in Set((words.body + words.subject).map { $0.lowercased() }) { frequency[word, default: 0] += 1 }
            for word in Set(words.body.filter { $0.first!.isUppercase }) { capitalized[word, default: 0] += 1 }
            decoded.formUnion(words.decodedOnly)
            var seenPairs = Set<String>()
            for (a, b) in zip(words.body, words.body.dropFirst()) where seenPairs.insert("\(a) \(b)".lowercased()).inserted {
                pairs["\(a) \(b)".lowercased(), default: 0] += 1
            }
            names.formUnion(words.names.map { $0.lowercased() })
            if let from = words.from { senders.insert(from) }
            recipients.formUnion(words.to)
            subjects.formUnion(words.subject.map { $0.lowercased() })
        }
        let usable = { (word: String) in !notmuchVocabulary.contains(word.lowercased()) }
        var rng = SplitMix64(seed: seed)
        func pick(_ candidates: some Sequence<String>, _ n: Int) -> [String] {
            Array(candidates.filter(usable).sorted().shuffled(using: &rng).prefix(n))
        }
        func share(_ part: Double) -> Int { max(1, Int((Double(count) * part).rounded())) }
        var queries: [Query] = []
        let bands: [(String, ClosedRange<Int>)] = [("rare", 1...2), ("uncommon", 3...20), ("common", 21...200), ("frequent", 201...Int.max)]
        let perBand = max(1, share(0.24) / bands.count)
        for (name, band) in bands {
            for word in pick(frequency.filter { band.contains($0.value) }.keys, perBand) {
                queries.append(Query(kind: "word-\(name)", ours: word, notmuch: word))
            }
        }
        for word in pick(capitalized.filter { $0.value >= 2 }.keys, share(0.05)) {
            queries.append(Query(kind: "upper", ours: word, notmuch: word))
        }
        for word in pick(frequency.filter { $0.value >= 3 }.keys, share(0.05)) {
            queries.append(Query(kind: "upper", ours: word.uppercased(), notmuch: word.uppercased()))
        }
        for word in pick(decoded, share(0.1)) {
            queries.append(Query(kind: "decoded", ours: word, notmuch: word))
        }
        for phrase in pick(pairs.filter { $0.value >= 2 }.keys.filter { $0.split(separator: " ").allSatisfy { usable(String($0)) } }, share(0.2)) {
            queries.append(Query(kind: "phrase", ours: "\"\(phrase)\"", notmuch: "\"\(phrase)\""))
        }
        for name in pick(names, share(0.1)) {
            queries.append(Query(kind: "name", ours: name, notmuch: name))
        }
        for address in pick(senders, share(0.1)) {
            queries.append(Query(kind: "from", ours: "from:\(address)", notmuch: "from:\(address)"))
        }
        for address in pick(recipients, share(0.06)) {
            queries.append(Query(kind: "to", ours: "to:\(address)", notmuch: "to:\(address)"))
        }
        for word in pick(subjects, share(0.1)) {
            queries.append(Query(kind: "subject", ours: "subject:\(word)", notmuch: "subject:\(word)"))
        }
        return queries
    }
}

/// A small seeded generator (SplitMix64), so a seed draws the same queries on every machine.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
