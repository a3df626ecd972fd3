import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// `vaultmail-bench eval-categories`: the categorizer measured on mail labelled by others
/// (docs/ai-evaluation/categories.md). It reads the data from the paths given, never from
/// the project, and runs the product's own path — the MIME parser, the header reader,
/// `CategorizeEmailsUseCase` (header rules, then the sentence model) and
/// `RecategorizeThreadUseCase` for corrections — over an in-memory `CategoryRepository`.
///
/// - `--mbox PATH`: a Google Takeout mbox; the label is Gmail's tab in `X-Gmail-Labels`
///   (Category Promotions / Updates / Personal → primary / Social / Forums); drafts and
///   sent mail are left out. Split by sender domain (`split(domain:)`), reported for all
///   mail and for the inbox only (Gmail still gives spam-folder mail a tab).
/// - `--forums-mbox PATH` (repeatable): a mailing list's archive; each message with a
///   List-Id is labelled forums by that provenance. `--per-list N` (default 300) messages
///   are taken, evenly spread.
/// - `--ham-dir PATH` (repeatable): a folder of raw messages (SpamAssassin's ham): mail with
///   a List-Id is labelled forums; a reply with no list or bulk header and no `[list]` tag in
///   its subject is labelled primary (person-to-person); the rest is shown as a
///   distribution, not scored.
/// - `--split dev|test|all` (default test): which half of the Takeout mail to report;
///   `--model DIR` (default `.build/models/all-minilm-l6-v2`), `--no-model`;
///   `--neighbours K`, `--lean-weight W`: the model's settings, to tune them on the dev half;
///   `--misses`: prints the dev half's misses (never the test half's);
///   `--dev-neighbours`: the model's neighbours are the written examples plus every dev-half
///   message under Gmail's tab (what many labelled examples bring); only with `--split test`,
///   since dev measured against itself would say nothing.
///
/// Each table has a row without the sender-infrastructure header fields
/// (`infrastructureFields`): the product on the same mail with those fields removed.
enum CategoryEvaluationBench {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Split: String, CaseIterable {
        case dev, test, all
    }

    struct Options {
        var mbox: String?
        var forumsMboxes: [String] = []
        var hamDirectories: [String] = []
        var split = Split.test
        var model: String? = ".build/models/all-minilm-l6-v2"
        var perList = 300
        var misses = false
        /// The model's settings, for tuning on the dev half (defaults: the product's).
        var neighbours: Int?
        var leanWeight: Float?
        var devNeighbours = false

        static let usage = """
            usage: vaultmail-bench eval-categories [--mbox TAKEOUT.mbox] [--split dev|test|all] \
            [--forums-mbox LIST.mbox]... [--per-list N] [--ham-dir DIR]... [--model DIR | --no-model] [--neighbours K] [--lean-weight W] [--misses] [--dev-neighbours]
            """

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            func value(_ flag: String) throws -> String {
                guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                    throw Failure(description: "\(flag) needs a value.\n\(Self.usage)")
                }
                return next
            }
            while let flag = rest.popFirst() {
                switch flag {
                case "--mbox": mbox = try value(flag)
                case "--forums-mbox": forumsMboxes.append(try value(flag))
                case "--ham-dir": hamDirectories.append(try value(flag))
                case "--model": model = try value(flag)
                case "--no-model": model = nil
                case "--misses": misses = true
                case "--dev-neighbours": devNeighbours = true
                case "--neighbours":
                    let text = try value(flag)
                    guard let count = Int(text), count > 0 else { throw Failure(description: "--neighbours takes a positive number, not '\(text)'") }
                    neighbours = count
                case "--lean-weight":
                    let text = try value(flag)
                    guard let weight = Float(text), weight >= 0 else { throw Failure(description: "--lean-weight takes a number ≥ 0, not '\(text)'") }
                    leanWeight = weight
                case "--per-list":
                    let text = try value(flag)
                    guard let count = Int(text), count > 0 else { throw Failure(description: "--per-list takes a positive number, not '\(text)'") }
                    perList = count
                case "--split":
                    let text = try value(flag)
                    guard let chosen = Split(rawValue: text) else { throw Failure(description: "--split is dev, test or all, not '\(text)'") }
                    split = chosen
                default: throw Failure(description: "unknown option '\(flag)'.\n\(Self.usage)")
                }
            }
            if devNeighbours && (mbox == nil || split != .test || model == nil) {
                throw Failure(description: "--dev-neighbours needs --mbox, --split test and the model: the dev half's messages become the model's examples, so only the test half can be measured with them")
            }
            if mbox == nil && forumsMboxes.isEmpty && hamDirectories.isEmpty {
                throw Failure(description: "give at least one of --mbox, --forums-mbox, --ham-dir.\n\(Self.usage)")
            }
        }
    }

    /// One labelled message.
    struct Sample {
        var input: CategorizationInput
        var label: AICategory
        var date: Date
        /// The sender's registered domain (what the split hashes).
        var domain: String
        var inSpamFolder = false
    }

    static let categories: [AICategory] = [.primary, .social, .promotions, .updates, .forums]

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments)
        var modelCategorizer: ModelCategorizer?
        var examples = CategoryExamples.all
        if options.devNeighbours, let path = options.mbox {
            let dev = try takeoutSamples(path).filter { split(domain: $0.domain) == .dev }
            for sample in dev { examples[sample.label, default: []].append(sample.input.modelText) }
            print("# the model's neighbours: the written examples and the dev half's \(dev.count) messages under Gmail's tab")
        }
        if let path = options.model {
            let directory = URL(fileURLWithPath: path)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("model.safetensors").path) else {
                throw Failure(description: "no sentence model in \(path): run `make deps`, pass --model DIR, or --no-model")
            }
            let modelId = AIModelCatalog.embeddingModelId
            let embedder = AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([modelId: directory]), modelId: modelId,
                                          idleTimeout: .seconds(3600))
            modelCategorizer = ModelCategorizer(embedder: embedder, examples: examples, neighbours: options.neighbours ?? ModelCategorizer.defaultNeighbours,
                                                leanWeight: options.leanWeight ?? ModelCategorizer.defaultLeanWeight)
        }
        print("# eval-categories: model \(options.model ?? "none")")

        if let path = options.mbox {
            let all = try takeoutSamples(path)
            let splits: [Split] = options.split == .all ? [.dev, .test, .all] : [options.split]
            print("# \(path): \(all.count) messages with a Gmail category; split by sender domain (FNV-1a of the registered domain, even = dev):"
                  + " dev \(all.filter { split(domain: $0.domain) == .dev }.count) messages / \(Set(all.filter { split(domain: $0.domain) == .dev }.map(\.domain)).count) domains,"
                  + " test \(all.filter { split(domain: $0.domain) == .test }.count) / \(Set(all.filter { split(domain: $0.domain) == .test }.map(\.domain)).count)")
            for part in splits {
                let chosen = part == .all ? all : all.filter { split(domain: $0.domain) == part }
                try await report("takeout \(part.rawValue), inbox and spam folder", chosen, model: modelCategorizer,
                                 misses: options.misses && part == .dev)
                try await report("takeout \(part.rawValue), inbox only", chosen.filter { !$0.inSpamFolder }, model: modelCategorizer, misses: false)
            }
        }
        for path in options.forumsMboxes {
            let samples = try listSamples(path, count: options.perList)
            try await report("list archive \(URL(fileURLWithPath: path).lastPathComponent) (forums by List-Id)", samples,
                             model: modelCategorizer, misses: options.misses)
        }
        for path in options.hamDirectories {
            let (scored, unlabelled) = try hamSamples(path)
            try await report("ham \(path) (List-Id → forums; a reply without list or bulk headers or a [tag] → primary)", scored,
                             model: modelCategorizer, misses: options.misses)
            if !unlabelled.isEmpty {
                let decided = try await runUseCase(unlabelled, model: modelCategorizer)
                let counts = Dictionary(grouping: decided.values, by: { $0 }).mapValues(\.count)
                print("  the other \(unlabelled.count) ham messages (no source label, not scored): "
                      + categories.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", "))
            }
        }
    }

    // MARK: - The split

    /// The held-out split, fixed before anything was measured: FNV-1a (64-bit) of the
    /// sender's registered domain, even → dev, odd → test. A sender is never on both sides.
    static func split(domain: String) -> Split {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in domain.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash % 2 == 0 ? .dev : .test
    }

    /// The last two labels of a domain, three when the second-level label is a public one
    /// under a country code ("example.co.uk").
    static func registeredDomain(_ domain: String) -> String {
        let labels = domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".> ")).split(separator: ".").map(String.init)
        if labels.count >= 3, labels[labels.count - 1].count == 2, ["co", "com", "org", "net", "gov", "ac", "edu"].contains(labels[labels.count - 2]) {
            return labels.suffix(3).joined(separator: ".")
        }
        return labels.suffix(2).joined(separator: ".")
    }

    // MARK: - Reading the data

    /// The messages of an mbox (mboxo or mboxrd: `>From ` lines lose one `>`), as raw bytes.
    static func mboxMessages(_ path: String) throws -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read the mbox \(path): check the path")
        }
        let bytes = [UInt8](data)
        var starts: [Int] = []
        var position = 0
        let marker = Array("From ".utf8)
        while position < bytes.count {
            if bytes[position...].starts(with: marker) { starts.append(position) }
            guard let newline = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            position = newline + 1
        }
        guard !starts.isEmpty else { throw Failure(description: "\(path) is not an mbox (no line starts with 'From ')") }
        return starts.indices.map { index in
            let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
            var message = Array(bytes[starts[index]..<end])
            if let newline = message.firstIndex(of: UInt8(ascii: "\n")) { message.removeSubrange(0...newline) }
            return unescapeFromLines(message)
        }
    }

    private static func unescapeFromLines(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count)
        var lineStart = true
        var index = 0
        while index < message.count {
            if lineStart, message[index] == UInt8(ascii: ">") {
                var end = index
                while end < message.count, message[end] == UInt8(ascii: ">") { end += 1 }
                if message[end...].starts(with: "From ".utf8) { index += 1 }
            }
            let byte = message[index]
            out.append(byte)
            lineStart = byte == UInt8(ascii: "\n")
            index += 1
        }
        return out
    }

    /// The input the store would give the categorizer for this message, as
    /// `GRDBCategoryRepository` builds it (the sync stores `textPlain` as the body).
    static func input(_ raw: [UInt8], id: String, parser: GMimeMessageParser) -> (CategorizationInput, Date) {
        let parsed = parser.parse(raw)
        let headers = MessageHeaderFields.parse(raw.prefix(32_768))
        var own: Set<String> = []
        if let delivered = headers["delivered-to"]?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) {
            own.insert(delivered)
        }
        let input = CategorizationInput(
            emailId: id, accountId: "evaluation", threadId: id, from: parsed.from.first ?? Participant(email: ""),
            to: parsed.to, cc: parsed.cc, subject: parsed.subject,
            openingText: CategorizationInput.openingText(body: parsed.textPlain.map { String($0.prefix(CategorizationInput.openingLength + 100)) },
                                                         snippet: parsed.snippet),
            closingText: CategorizationInput.closingText(body: parsed.textPlain.map { String($0.suffix(CategorizationInput.closingLength * 2)) }),
            headers: headers, isReply: parsed.inReplyTo != nil || !parsed.references.isEmpty, ownAddresses: own)
        return (input, parsed.date ?? .distantPast)
    }

    static func takeoutSamples(_ path: String) throws -> [Sample] {
        let parser = GMimeMessageParser()
        var samples: [Sample] = []
        for (index, raw) in try mboxMessages(path).enumerated() {
            let headers = MessageHeaderFields.parse(raw.prefix(32_768))
            let labels = (headers["x-gmail-labels"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if labels.contains("Drafts") || labels.contains("Sent") { continue }
            let tabs: [(String, AICategory)] = [("Category Promotions", .promotions), ("Category Updates", .updates),
                                                ("Category Personal", .primary), ("Category Social", .social), ("Category Forums", .forums)]
            guard let label = tabs.first(where: { labels.contains($0.0) })?.1 else { continue }
            let (input, date) = input(raw, id: "takeout-\(index)", parser: parser)
            samples.append(Sample(input: input, label: label, date: date, domain: registeredDomain(input.senderDomain),
                                  inSpamFolder: labels.contains("Spam")))
        }
        if samples.isEmpty { throw Failure(description: "\(path) has no message with a Gmail category (X-Gmail-Labels: Category …): is it a Google Takeout mbox?") }
        return samples
    }

    static func listSamples(_ path: String, count: Int) throws -> [Sample] {
        let messages = try mboxMessages(path)
        let step = max(1, messages.count / count)
        let parser = GMimeMessageParser()
        var samples: [Sample] = []
        for index in stride(from: 0, to: messages.count, by: step) where samples.count < count {
            let (input, date) = input(messages[index], id: "list-\(index)", parser: parser)
            guard input.headers["list-id"] != nil else { continue }
            samples.append(Sample(input: input, label: .forums, date: date, domain: registeredDomain(input.senderDomain)))
        }
        return samples
    }

    static func hamSamples(_ path: String) throws -> (scored: [Sample], unlabelled: [Sample]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw Failure(description: "cannot read the folder \(path): \(error.localizedDescription)")
        }
        let parser = GMimeMessageParser()
        var scored: [Sample] = []
        var unlabelled: [Sample] = []
        for name in names {
            guard let data = FileManager.default.contents(atPath: path + "/" + name) else { continue }
            let (input, date) = input([UInt8](data), id: "ham-\(name)", parser: parser)
            var sample = Sample(input: input, label: .primary, date: date, domain: registeredDomain(input.senderDomain))
            let headers = input.headers
            let listHeaders = ["list-id", "list-post", "list-unsubscribe", "mailing-list", "x-mailing-list"].contains { headers[$0] != nil }
            let bulk = ["bulk", "list", "junk"].contains(headers["precedence"]?.lowercased().trimmingCharacters(in: .whitespaces) ?? "")
            if headers["list-id"] != nil {
                sample.label = .forums
                scored.append(sample)
            } else if input.isReply && !listHeaders && !bulk && !input.subject.contains("[") {
                scored.append(sample)
            } else {
                unlabelled.append(sample)
            }
        }
        return (scored, unlabelled)
    }

    // MARK: - Running the product's path

    /// Categorizes all samples at once through `CategorizeEmailsUseCase`.
    static func runUseCase(_ samples: [Sample], model: ModelCategorizer?) async throws -> [String: AICategory] {
        let repository = EvaluationRepository(samples.map(\.input))
        _ = try await CategorizeEmailsUseCase(repository: repository, model: model).categorizePending()
        return await repository.categories()
    }

    /// Mail arrives oldest first; the first time a sender's (or list's) mail is put in the
    /// wrong category the user corrects that one message (`RecategorizeThreadUseCase`), and
    /// never again. Scores what the machine decided on arrival.
    static func runWithCorrections(_ samples: [Sample], model: ModelCategorizer?) async throws -> (decided: [String: AICategory], corrections: Int) {
        let repository = EvaluationRepository(samples.map(\.input))
        let useCase = CategorizeEmailsUseCase(repository: repository, model: model)
        let recategorize = RecategorizeThreadUseCase(repository: repository)
        var decided: [String: AICategory] = [:]
        var corrected: Set<String> = []
        for sample in samples.sorted(by: { ($0.date, $0.input.emailId) < ($1.date, $1.input.emailId) }) {
            let made = try await useCase.categorize(emailIds: [sample.input.emailId])
            let category = made[sample.input.emailId]?.category ?? .primary
            decided[sample.input.emailId] = category
            if category != sample.label, corrected.insert(sample.input.teachingKey).inserted {
                try await recategorize.recategorize(threadId: sample.input.threadId, to: sample.label)
            }
        }
        return (decided, corrected.count)
    }

    // MARK: - Ablation

    /// The header fields that say how a message was sent rather than what it is: how to leave
    /// a mailing (List-Unsubscribe, -Post), the sending platform's feedback and tracking fields
    /// (Feedback-ID, every X- field), Precedence, the return path, Sender and Errors-To.
    /// List-Id and List-Post stay: they name a discussion list. The ablation row runs the
    /// product on the mail without them.
    static let infrastructureFields: Set<String> = [
        "list-unsubscribe", "list-unsubscribe-post", "feedback-id", "precedence", "return-path", "sender", "errors-to",
    ]

    static func isInfrastructureField(_ name: String) -> Bool {
        infrastructureFields.contains(name) || name.hasPrefix("x-")
    }

    // MARK: - Scores

    struct Scores {
        let name: String
        /// [label][predicted] → count
        var confusion: [AICategory: [AICategory: Int]] = [:]
        var total = 0
        var correct = 0

        init(name: String, samples: [Sample], decided: [String: AICategory]) {
            self.name = name
            for sample in samples {
                let predicted = decided[sample.input.emailId] ?? .uncategorized
                confusion[sample.label, default: [:]][predicted, default: 0] += 1
                total += 1
                if predicted == sample.label { correct += 1 }
            }
        }

        var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }

        func precision(_ category: AICategory) -> Double? {
            let predicted = confusion.values.reduce(0) { $0 + ($1[category] ?? 0) }
            return predicted == 0 ? nil : Double(confusion[category]?[category] ?? 0) / Double(predicted)
        }

        func recall(_ category: AICategory) -> Double? {
            let labelled = confusion[category]?.values.reduce(0, +) ?? 0
            return labelled == 0 ? nil : Double(confusion[category]?[category] ?? 0) / Double(labelled)
        }
    }

    static func percent(_ value: Double?) -> String {
        guard let value else { return "–" }
        return String(format: "%.1f%%", value * 100)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func report(_ title: String, _ samples: [Sample], model: ModelCategorizer?, misses: Bool) async throws {
        guard !samples.isEmpty else {
            print("\n== \(title): no messages")
            return
        }
        let counts = Dictionary(grouping: samples, by: \.label).mapValues(\.count)
        let present = categories.filter { (counts[$0] ?? 0) > 0 }
        let majority = present.max { (counts[$0] ?? 0, $1.rawValue) < (counts[$1] ?? 0, $0.rawValue) } ?? .primary
        let baseline = Double(counts[majority] ?? 0) / Double(samples.count)
        print("\n== \(title): \(samples.count) messages (" + present.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
              + "), \(Set(samples.map(\.domain)).count) sender domains; majority baseline (always \(majority.rawValue)) \(percent(baseline))")

        var runs: [Scores] = []
        var decisions: [String: [String: AICategory]] = [:]
        let started = ContinuousClock.now
        let headersOnly = try await runUseCase(samples, model: nil)
        runs.append(Scores(name: "headers only (no model)", samples: samples, decided: headersOnly))
        decisions[runs.last!.name] = headersOnly
        var main = runs[0]
        if let model {
            let alone = try await model.decide(samples.map(\.input), leans: [])
            var aloneDecided: [String: AICategory] = [:]
            for (sample, decision) in zip(samples, alone) { aloneDecided[sample.input.emailId] = decision.category }
            runs.append(Scores(name: "neighbours alone (no header rule)", samples: samples, decided: aloneDecided))
            let full = try await runUseCase(samples, model: model)
            runs.append(Scores(name: "headers + neighbours (the product)", samples: samples, decided: full))
            decisions[runs.last!.name] = full
            main = runs.last!
        }
        let stripped = samples.map { sample in
            var copy = sample
            copy.input.headers = copy.input.headers.filter { !isInfrastructureField($0.key) }
            return copy
        }
        let withoutInfrastructure = try await runUseCase(stripped, model: model)
        runs.append(Scores(name: "the product without infrastructure fields", samples: samples, decided: withoutInfrastructure))
        let (corrected, corrections) = try await runWithCorrections(samples, model: model)
        runs.append(Scores(name: "+ one correction per sender (\(corrections) made)", samples: samples, decided: corrected))

        let columns = present.map { "\($0.rawValue) P/R" }
        print("  " + pad("run", 46) + pad("accuracy", 10) + columns.map { pad($0, 20) }.joined())
        print("  " + pad("majority baseline (always \(majority.rawValue))", 46) + pad(percent(baseline), 10)
              + present.map { pad($0 == majority ? "\(percent(baseline)) / 100%" : "– / 0%", 20) }.joined())
        for run in runs {
            print("  " + pad(run.name, 46) + pad(percent(run.accuracy), 10)
                  + present.map { pad("\(percent(run.precision($0))) / \(percent(run.recall($0)))", 20) }.joined())
        }
        print("  confusion of '\(main.name)' (rows: label; columns: predicted):")
        print("    " + pad("", 12) + categories.map { pad($0.rawValue, 11) }.joined())
        for label in present {
            print("    " + pad(label.rawValue, 12) + categories.map { pad("\(main.confusion[label]?[$0] ?? 0)", 11) }.joined())
        }
        print("  (\(samples.count) messages, all runs, in \(ContinuousClock.now - started))")
        if misses, let decided = decisions[main.name] {
            for sample in samples where decided[sample.input.emailId] != sample.label {
                let verdict = HeaderCategoryRules.evaluate(sample.input)
                let rules = verdict.decision.map { "decided \($0.category.rawValue): \($0.reason)" }
                    ?? verdict.lean.map { "lean \($0.category.rawValue) among \($0.candidates.map(\.rawValue).sorted()): \($0.reason)" } ?? "undecided"
                print("  miss: \(sample.label.rawValue) → \(decided[sample.input.emailId]?.rawValue ?? "?") \(sample.input.from.email) | \(sample.input.subject.prefix(70))\n      rules: \(rules.prefix(160))")
            }
        }
        fflush(nil)
    }
}

/// `CategoryRepository` in memory, for the evaluation: the emails given, each its own
/// conversation; decisions, corrections and what they taught kept in dictionaries.
actor EvaluationRepository: CategoryRepository {
    private var inputsById: [String: CategorizationInput]
    private let order: [String]
    private var decided: [String: CategoryDecision] = [:]
    private var taught: [String: AICategory] = [:]

    init(_ inputs: [CategorizationInput]) {
        inputsById = Dictionary(inputs.map { ($0.emailId, $0) }, uniquingKeysWith: { first, _ in first })
        order = inputs.map(\.emailId)
    }

    func categories() -> [String: AICategory] { decided.mapValues(\.category) }

    func pendingInputs(limit: Int, includingFallback: Bool) async throws -> [CategorizationInput] {
        Array(order.lazy.compactMap { self.inputsById[$0] }.filter { input in
            guard let source = self.decided[input.emailId]?.source else { return true }
            return includingFallback && source == .fallback
        }.prefix(limit))
    }

    func inputs(emailIds: [String]) async throws -> [CategorizationInput] {
        emailIds.compactMap { id in
            guard var input = inputsById[id] else { return nil }
            input.currentSource = decided[id]?.source
            return input
        }
    }

    @discardableResult
    func apply(_ decisions: [String: CategoryDecision]) async throws -> Int {
        var changed = 0
        for (id, decision) in decisions where decided[id]?.source != .user || decision.source == .user {
            if decided[id] != decision { changed += 1 }
            decided[id] = decision
            inputsById[id]?.currentSource = decision.source
        }
        return changed
    }

    func decision(emailId: String) async throws -> CategoryDecision? { decided[emailId] }

    func userCategories(threadIds: Set<String>) async throws -> [String: AICategory] {
        var result: [String: AICategory] = [:]
        for id in threadIds {
            if let decision = decided[id], decision.source == .user { result[id] = decision.category }
        }
        return result
    }

    func senderCategories(accountId: String, addresses: Set<String>) async throws -> [String: AICategory] {
        taught.filter { addresses.contains($0.key) }
    }

    func threadSenders(threadId: String) async throws -> ThreadSenders? {
        guard let input = inputsById[threadId] else { return nil }
        let key = input.teachingKey
        let isList = key.hasPrefix("list:")
        return ThreadSenders(threadId: threadId, accountId: input.accountId, emailIds: [threadId],
                             senders: isList ? [] : [input.senderAddress], lists: isList ? [String(key.dropFirst(5))] : [])
    }

    @discardableResult
    func setThreadDecision(threadId: String, _ decision: CategoryDecision) async throws -> Int {
        try await apply([threadId: decision])
    }

    @discardableResult
    func teach(accountId: String, address: String, _ decision: CategoryDecision, at date: Date) async throws -> Int {
        taught[address] = decision.category
        var moved: [String: CategoryDecision] = [:]
        for (id, input) in inputsById where input.teachingKey == address && decided[id] != nil && decided[id]?.source != .user {
            moved[id] = decision
        }
        return try await apply(moved)
    }

    func ownAddresses(accountId: String) async throws -> Set<String> { [] }
}
