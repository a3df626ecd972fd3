import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// `vaultmail-bench eval-summaries --bc3 DIR [--lists MBOX[,MBOX…]] [--without-model]` (issue 35): conversation
/// summaries measured on mail nobody here wrote or labelled.
///
/// **BC3** (British Columbia Conversation Corpus: 40 W3C mailing-list threads, three human
/// summaries each; `corpus.xml` and `annotation.xml` in DIR). Threads are split by a hash of
/// their `listno` (FNV-1a, even → dev, odd → test) before anything is measured; rules are tuned
/// on dev only and the test part is the figure.
///
/// A **fact** is one sentence of an annotator's summary that links to source sentences (the
/// annotators' own links, e.g. "William responds that it is mandatory to discuss the draft" →
/// 2.4, 2.5). Its speakers are the senders of the linked sentences' messages. A summary
/// **recalls** it when one of its sentences (a) names one of those speakers by first name and
/// (b) carries the content of one linked sentence: it shares at least min(3, ⌈half⌉) of that
/// sentence's content words (lowercased words of 4+ letters, common function words out).
/// Fact recall = recalled facts / facts, over every annotator's summary of every thread.
/// Also: names present (the summary names at least min(2, senders) of the thread's senders),
/// sentences per summary, grounding failures (a summary with a number, date, address or
/// capitalised name that no message, sender or subject holds: `FactGuard`).
///
/// Systems: the trivial baseline (the first sentence of each of the first four messages, with
/// its sender's first name), the extractive summary (`ConversationSummarizer` without a
/// writing model), and the model-checked one (with SmolLM2-135M-Instruct; kept only when it
/// passes the checks, else the extractive lines). Both use all-MiniLM-L6-v2 when installed.
///
/// **Lists** (lore.kernel.org mboxes, no labels): threads of 2–6 and of 10–20 messages; names
/// present, sentences, grounding failures and time per summary.
enum SummaryEvaluation {
    @Sendable static func run(arguments: [String]) async throws {
        guard let bc3 = value(of: "--bc3", in: arguments) else {
            throw Failure(description: "usage: vaultmail-bench eval-summaries --bc3 DIR [--lists MBOX[,MBOX...]] — DIR holds BC3's corpus.xml"
                          + " and annotation.xml (see docs/ai-evaluation/writing.md for where to get them)")
        }
        let threads = try BC3.load(directory: URL(fileURLWithPath: bc3))
        let embedder = try? miniLM()
        let generator = arguments.contains("--without-model") ? nil : try? smolLM()
        let cpu = AIBenchmarks.cpuModel() ?? "unknown CPU"
        print("# eval-summaries: BC3 \(threads.count) threads, \(threads.map(\.messages.count).reduce(0, +)) messages,"
              + " \(threads.flatMap(\.annotations).count) annotator summaries; sentence model \(embedder == nil ? "not installed" : "all-MiniLM-L6-v2"),"
              + " writing model \(generator == nil ? "not installed" : "SmolLM2-135M-Instruct Q4_1"); \(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)")
        let dev = threads.filter { stableHash($0.id) % 2 == 0 }
        let test = threads.filter { stableHash($0.id) % 2 == 1 }
        print("# split by FNV-1a of listno: dev \(dev.count) threads, test \(test.count) threads")
        for (name, part) in [("test", test), ("dev", dev)] {
            var systems: [(String, System)] = [("baseline", .baseline), ("extractive", .summarizer(ConversationSummarizer(generator: nil, embedder: embedder)))]
            if let generator { systems.append(("model-checked", .summarizer(ConversationSummarizer(generator: generator, embedder: embedder)))) }
            for (label, system) in systems {
                let scores = try await score(part, system: system)
                print(scores.line(split: name, system: label))
                if !scores.rejections.isEmpty {
                    print("#   \(label) on \(name): model text kept for \(scores.modelKept)/\(part.count); fallbacks: "
                          + scores.rejections.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: "; "))
                }
            }
        }
        if let lists = value(of: "--lists", in: arguments) {
            let paths = lists.split(separator: ",").map(String.init)
            let corpus = try MailingListThreads.load(paths)
            print("# lists: \(paths.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")): \(corpus.threads.count) threads (patches left out)")
            for (label, range, limit) in [("2-6", 2...6, 30), ("10-20", 10...20, 15)] {
                let sample = corpus.sample(range, limit: limit).map(Conversation.init(list:))
                var systems: [(String, System)] = [("baseline", .baseline), ("extractive", .summarizer(ConversationSummarizer(generator: nil, embedder: embedder)))]
                if let generator { systems.append(("model-checked", .summarizer(ConversationSummarizer(generator: generator, embedder: embedder)))) }
                for (name, system) in systems {
                    let scores = try await score(sample, system: system)
                    print(scores.line(split: "lists \(label) msgs", system: name))
                }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func miniLM() throws -> AIModelSession<MiniLMEngine> {
        let directory = try AIModelFixture.installedMiniLMDirectory()
        let id = AIModelCatalog.embeddingModelId
        return AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([id: directory]), modelId: id, idleTimeout: .seconds(3600))
    }

    static func smolLM() throws -> GenerationSession<LlamaEngine> {
        let directory = try AIModelFixture.installedGenerationDirectory()
        let id = AIModelCatalog.generationModelId
        return GenerationSession(engine: LlamaEngine(), library: FixedModelLibrary([id: directory]), modelId: id)
    }

    // MARK: Conversations

    /// A thread as the summarizer reads it, with BC3's annotations when it has them.
    struct Conversation {
        struct Message {
            var senderName: String?
            var senderAddress: String
            /// Every sentence as the source has it (quotes included): what grounding checks against.
            var raw: String
            var sentences: [String: String]
        }

        /// One annotator's summary sentence: the messages and sentences it links to.
        struct Fact {
            var speakers: Set<String>
            var linked: [String]
        }

        var id: String
        var subject: String
        var messages: [Message]
        var annotations: [[Fact]]

        init(id: String, subject: String, messages: [Message], annotations: [[Fact]]) {
            self.id = id
            self.subject = subject
            self.messages = messages
            self.annotations = annotations
        }

        init(list thread: MailingListThreads.Thread) {
            id = thread.id
            subject = thread.messages.first?.subject ?? ""
            messages = thread.messages.map { message in
                let from = message.from.first
                let text = message.textPlain ?? message.textHTML.map { HTMLText.plainText($0, visibleOnly: true) } ?? ""
                return Message(senderName: from?.name, senderAddress: from?.email ?? "unknown", raw: text, sentences: [:])
            }
            annotations = []
        }

        var inputs: [ConversationSummarizer.Message] {
            messages.map { ConversationSummarizer.Message(senderName: $0.senderName, senderAddress: $0.senderAddress, text: MessageText.ownText($0.raw)) }
        }

        var senders: Set<String> { Set(inputs.map { $0.firstName.lowercased() }) }

        var sources: [String] { messages.flatMap { [$0.raw, $0.senderName ?? "", $0.senderAddress] } + [subject] }
    }

    enum System {
        case baseline
        case summarizer(ConversationSummarizer)
    }

    /// The trivial summary: the first sentence of each of the first four messages, with its sender.
    static func baseline(_ conversation: Conversation) -> String {
        conversation.inputs.prefix(4).compactMap { message in
            MessageText.sentences(message.text).first(where: { $0.split(separator: " ").count >= 4 }).map { "\(message.firstName): \($0)" }
        }.joined(separator: "\n")
    }

    // MARK: Scores

    struct Scores {
        var summaries = 0
        var facts = 0
        var recalled = 0
        var namesPresent = 0
        var sentences: [Int] = []
        var grounding = 0
        var groundingExamples: [String] = []
        var millis: [Double] = []
        var modelKept = 0
        var rejections: [String: Int] = [:]

        func line(split: String, system: String) -> String {
            func pct(_ count: Int, _ of: Int) -> String { of == 0 ? "—" : String(format: "%.1f%% (%d/%d)", 100 * Double(count) / Double(of), count, of) }
            let inRange = sentences.filter { (2...4).contains($0) }.count
            let mean = sentences.isEmpty ? 0 : Double(sentences.reduce(0, +)) / Double(sentences.count)
            var text = "\(split) \(system): "
            if facts > 0 { text += "fact recall \(pct(recalled, facts)); " }
            text += "names present \(pct(namesPresent, summaries)); sentences mean \(String(format: "%.2f", mean)), 2–4 \(pct(inRange, summaries));"
                + " grounding failures \(grounding)/\(summaries); time median \(String(format: "%.0f", Measure.median(millis))) ms,"
                + " max \(String(format: "%.0f", millis.max() ?? 0)) ms"
            if !groundingExamples.isEmpty { text += "\n#   ungrounded: " + groundingExamples.prefix(5).joined(separator: " | ") }
            return text
        }
    }

    static func score(_ conversations: [Conversation], system: System) async throws -> Scores {
        var scores = Scores()
        for conversation in conversations {
            let started = ContinuousClock.now
            let text: String
            switch system {
            case .baseline:
                text = baseline(conversation)
            case .summarizer(let summarizer):
                let result = try await summarizer.summarize(threadId: conversation.id, subject: conversation.subject, messages: conversation.inputs)
                text = result.text
                if result.kind == .model { scores.modelKept += 1 }
                if let rejection = result.rejection {
                    let reason = rejection.hasPrefix("it leaves out") ? "it leaves out a line's content"
                        : rejection.hasPrefix("it does not name") ? "it does not name a person of the lines" : rejection
                    scores.rejections[reason, default: 0] += 1
                }
            }
            scores.millis.append((ContinuousClock.now - started).millis)
            let sentences = text.split(separator: "\n").flatMap { MessageText.sentences(String($0)) }
            scores.summaries += 1
            scores.sentences.append(sentences.count)
            let words = Set(FactGuard.words(text).map { $0.lowercased() })
            let senders = conversation.senders
            if senders.intersection(words).count >= min(2, senders.count) { scores.namesPresent += 1 }
            let guardrail = FactGuard(sources: conversation.sources)
            let introduced = sentences.flatMap { guardrail.introducedFacts(in: $0) }
            if !introduced.isEmpty {
                scores.grounding += 1
                scores.groundingExamples.append(introduced.joined(separator: ", "))
            }
            for facts in conversation.annotations {
                for fact in facts {
                    scores.facts += 1
                    if recalls(sentences, fact) { scores.recalled += 1 }
                }
            }
        }
        return scores
    }

    /// True when one of `sentences` names a speaker of `fact` and carries one linked sentence's content.
    static func recalls(_ sentences: [String], _ fact: Conversation.Fact) -> Bool {
        sentences.contains { sentence in
            let words = Set(FactGuard.words(sentence).map { $0.lowercased() })
            guard !fact.speakers.isDisjoint(with: words) else { return false }
            let content = contentWords(sentence)
            return fact.linked.contains { linked in
                let source = contentWords(linked)
                let needed = min(3, (source.count + 1) / 2)
                return needed > 0 && source.intersection(content).count >= needed
            }
        }
    }

    static func contentWords(_ text: String) -> Set<String> {
        Set(FactGuard.words(text).map { $0.lowercased() }.filter { $0.count >= 4 && !functionWords.contains($0) })
    }

    static let functionWords: Set<String> = [
        "that", "this", "with", "have", "will", "would", "there", "their", "from", "they", "what", "which", "about", "been", "were",
        "also", "just", "some", "than", "then", "them", "when", "where", "your", "into", "more", "only", "other", "such", "these",
        "those", "should", "could", "does", "like", "think", "here", "very", "much", "many", "most", "make", "made", "being", "because",
        "while", "well", "each", "both", "over", "after", "before", "still", "even", "whether", "there's", "it's",
    ]
}

/// BC3's two XML files read with regular expressions: a thread is `<thread>` with `<listno>`, and
/// `<DOC>`s of `<From>`, `<Subject>` and `<Sent id="m.s">` sentences; `annotation.xml` gives each
/// thread's annotations, whose `<summary>` sentences link to sentence ids.
enum BC3 {
    static func load(directory: URL) throws -> [SummaryEvaluation.Conversation] {
        func read(_ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw SummaryEvaluation.Failure(description: "cannot read \(url.path): --bc3 must name the directory that holds BC3's corpus.xml and annotation.xml")
            }
            return text
        }
        let corpus = try read("corpus.xml")
        let annotation = try read("annotation.xml")
        var annotations: [String: [[(links: [String], text: String)]]] = [:]
        for thread in blocks("thread", in: annotation) {
            guard let id = first("listno", in: thread) else { continue }
            annotations[id] = blocks("annotation", in: thread).map { block in
                let summary = blocks("summary", in: block).first ?? ""
                return matches(#"<sent link="([^"]*)">(.*?)</sent>"#, in: summary).map { groups in
                    (links: groups[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
                     text: decode(groups[1]))
                }
            }
        }
        return blocks("thread", in: corpus).compactMap { thread -> SummaryEvaluation.Conversation? in
            guard let id = first("listno", in: thread) else { return nil }
            let messages = blocks("DOC", in: thread).map { doc -> SummaryEvaluation.Conversation.Message in
                let from = decode(first("From", in: doc) ?? "")
                let (name, address) = sender(from)
                var sentences: [String: String] = [:]
                var lines: [String] = []
                for groups in matches(#"<Sent id="([^"]+)">(.*?)</Sent>"#, in: doc) {
                    let text = decode(groups[1]).trimmingCharacters(in: .whitespacesAndNewlines)
                    sentences[groups[0]] = text
                    lines.append(text)
                }
                return .init(senderName: name, senderAddress: address, raw: lines.joined(separator: "\n"), sentences: sentences)
            }
            let facts = (annotations[id] ?? []).map { summary in
                summary.compactMap { sentence -> SummaryEvaluation.Conversation.Fact? in
                    var speakers = Set<String>()
                    var linked: [String] = []
                    for link in sentence.links {
                        guard let number = Int(link.split(separator: ".").first ?? ""), number >= 1, number <= messages.count else { continue }
                        let message = messages[number - 1]
                        speakers.insert(MessageText.firstName(name: message.senderName, address: message.senderAddress).lowercased())
                        if let text = message.sentences[link] { linked.append(text) }
                    }
                    return linked.isEmpty ? nil : .init(speakers: speakers, linked: linked)
                }
            }
            return .init(id: id, subject: decode(first("name", in: thread) ?? ""), messages: messages, annotations: facts)
        }
    }

    /// "Jacob Palme <jpalme@dsv.su.se>" → ("Jacob Palme", "jpalme@dsv.su.se").
    static func sender(_ from: String) -> (String?, String) {
        if let open = from.firstIndex(of: "<"), let close = from.lastIndex(of: ">"), open < close {
            let name = from[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
            return (name.isEmpty ? nil : name, String(from[from.index(after: open)..<close]))
        }
        return (nil, from.trimmingCharacters(in: .whitespaces))
    }

    static func decode(_ text: String) -> String {
        HTMLText.decodeEntities(HTMLText.decodeEntities(text))
    }

    static func blocks(_ tag: String, in text: String) -> [String] {
        matches("<\(tag)>(.*?)</\(tag)>", in: text).map { $0[0] }
    }

    static func first(_ tag: String, in text: String) -> String? {
        blocks(tag, in: text).first?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
