import Foundation

/// Two to four sentences on a conversation that say who asked, answered or decided what
/// (AC-A-06, issue 35), from its messages alone: the store and the cache are the use case's.
///
/// The extractive summary comes first, always: the conversation's key sentences, each with its
/// sender's first name (`ExtractiveSummarizer`). With a writing model, the model is asked to
/// rephrase those lines only (`SummaryPrompt`) and what it writes is kept only when it is not
/// worse than them: 2–4 sentences, nothing a message does not hold (`FactGuard`), every person
/// the lines name still named, and each line's content still there, written within the time
/// budget. Otherwise the lines are the summary, labelled `extractiveFallback` with the reason.
public struct ConversationSummarizer: Sendable {
    /// One message: who wrote it, the people it went to, and its own text.
    public struct Message: Sendable, Hashable {
        public var senderName: String?
        public var senderAddress: String
        /// Names and addresses of its recipients: a summary may name them too.
        public var recipients: [String]
        public var text: String

        public init(senderName: String?, senderAddress: String, recipients: [String] = [], text: String) {
            self.senderName = senderName
            self.senderAddress = senderAddress
            self.recipients = recipients
            self.text = text
        }

        /// The name a summary line gives the sender ("Anna").
        public var firstName: String { MessageText.firstName(name: senderName, address: senderAddress) }
    }

    /// A summary and how it was made.
    public struct Result: Sendable, Hashable {
        public var text: String
        public var kind: ThreadSummaryKind
        /// The model whose text or vectors made it (nil for key sentences ranked by position).
        public var modelId: String?
        /// Why the writing model's text was not used (nil when it was, or none was asked).
        public var rejection: String?
    }

    /// How long a summary may take before the model's text is given up for the key sentences
    /// (issue 35: 10–20 messages within 10 s on two cores, the model's loading included).
    public static let defaultBudget: Duration = .seconds(6)

    let generator: (any TextGenerator)?
    let embedder: (any TextEmbedder)?
    let budget: Duration

    public init(generator: (any TextGenerator)?, embedder: (any TextEmbedder)?, budget: Duration = defaultBudget) {
        self.generator = generator
        self.embedder = embedder
        self.budget = budget
    }

    /// The summary of `messages` (oldest first). Throws only when cancelled or when the model
    /// fails to run; a model that is not installed gives the extractive summary.
    public func summarize(threadId: String, subject: String, messages: [Message]) async throws -> Result {
        let deadline = ContinuousClock.now.advanced(by: budget)
        let extractive = try await ExtractiveSummarizer(embedder: embedder)
            .summarize(messages.map { ExtractiveSummarizer.Message(sender: $0.firstName, text: $0.text) })
        var text = extractive.lines.joined(separator: "\n")
        if text.isEmpty { text = Self.noText(messages) }
        guard !extractive.lines.isEmpty, let generator, await generator.isAvailable() else {
            return Result(text: text, kind: .extractive, modelId: extractive.modelId, rejection: nil)
        }
        let raw: String
        do {
            let written = try await generator.complete(SummaryPrompt.request(threadId: threadId, subject: subject, lines: extractive.lines),
                                                       until: deadline)
            if written.cut {
                return Result(text: text, kind: .extractiveFallback, modelId: extractive.modelId,
                              rejection: "the writing model took longer than \(budget.components.seconds) s")
            }
            raw = written.text
        } catch AIError.modelNotInstalled {
            return Result(text: text, kind: .extractive, modelId: extractive.modelId, rejection: nil)
        }
        let sources = messages.flatMap { [$0.text, $0.senderName ?? "", $0.senderAddress] + $0.recipients } + [subject]
        switch Self.check(raw, lines: extractive.lines, sources: sources) {
        case .success(let summary):
            return Result(text: summary, kind: .model, modelId: generator.modelId, rejection: nil)
        case .failure(let reason):
            return Result(text: text, kind: .extractiveFallback, modelId: extractive.modelId, rejection: reason.description)
        }
    }

    /// Why a model's summary is not used.
    public struct Rejection: Error, Hashable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The model's summary in `raw` when it is not worse than `lines` (the key sentences it
    /// rephrased): 2–4 sentences that bring in nothing `sources` lack (sentences that do are
    /// dropped first), name every person the lines name, and keep two or three content words of
    /// each line (half of them, at least two, at most three).
    public static func check(_ raw: String, lines: [String], sources: [String]) -> Swift.Result<String, Rejection> {
        let guardrail = FactGuard(sources: sources, language: LanguageDetector.detect(raw))
        let instructions = [SummaryPrompt.system, SummaryPrompt.instruction]
        var kept: [String] = []
        for sentence in GeneratedText.summarySentences(raw)
        where guardrail.isGrounded(sentence) && !GeneratedText.echoes(sentence, of: instructions, run: 4)
            && !InjectedInstruction.isInstruction(sentence) && !Self.speaksAsTurn(sentence)
            && !kept.contains(where: { ExtractiveSummarizer.key($0) == ExtractiveSummarizer.key(sentence) }) {
            kept.append(sentence)
        }
        guard (2...4).contains(kept.count) else {
            return .failure(Rejection(description: "\(kept.count) usable sentence\(kept.count == 1 ? "" : "s") (2–4 needed)"))
        }
        let summary = kept.joined(separator: " ")
        let words = Set(FactGuard.words(summary).map { $0.lowercased() })
        let people = lines.compactMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
        if let missing = people.first(where: { !words.contains($0.lowercased()) }) {
            return .failure(Rejection(description: "it does not name \(missing)"))
        }
        for line in lines {
            let content = contentWords(line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? line)
            // Two of its content words, three of a longer line (half of them, at most three).
            let needed = min(content.count, max(2, min(3, (content.count + 1) / 2)))
            if content.intersection(words).count < needed {
                return .failure(Rejection(description: "it leaves out \"\(MessageText.shortened(line, to: 60))\""))
            }
        }
        return .success(summary)
    }

    /// A sentence labelled as a turn of a chat ("User: …", "System: …"): the model playing
    /// the chat it was given, not summarizing.
    static func speaksAsTurn(_ sentence: String) -> Bool {
        let lower = sentence.lowercased().drop { $0 == " " || $0 == "\"" || $0 == "*" }
        return ["user:", "system:", "assistant:", "human:", "ai:"].contains { lower.hasPrefix($0) }
            || lower.contains(" user:") || lower.contains(" system:") || lower.contains(" assistant:")
    }

    /// Words of four letters or more: what a sentence is about, roughly, in any language.
    static func contentWords(_ text: String) -> Set<String> {
        Set(FactGuard.words(text).map { $0.lowercased() }.filter { $0.count >= 4 && !$0.allSatisfy(\.isNumber) })
    }

    /// What is said of a conversation without a sentence to show.
    static func noText(_ messages: [Message]) -> String {
        var senders: [String] = []
        for message in messages where !senders.contains(message.firstName) { senders.append(message.firstName) }
        let people = senders.count <= 1 ? (senders.first ?? "someone") : senders.dropLast().joined(separator: ", ") + " and " + senders.last!
        return messages.count == 1
            ? "One message from \(people), with no text to summarize."
            : "\(messages.count) messages from \(people), with no text to summarize."
    }
}
