import Foundation

/// Two to four sentences on a conversation (AC-A-06), kept with it and made again only when
/// new mail arrives (or on request).
///
/// With a writing model, the model summarizes the conversation (each message's sender, date
/// and own text, the newest kept when it is long); what it writes is tidied and checked by
/// `FactGuard` against the conversation, and when fewer than two sentences survive the
/// summary is the extractive one instead, labelled as such. Without a model, or when it is
/// not installed, the summary is extractive (`ExtractiveSummarizer`).
public struct SummarizeThreadUseCase: Sendable {
    /// Conversations of at least this many messages are summarized when opened (when the
    /// `SettingsStore.autoSummarize` setting is on).
    public static let automaticMinimumMessages = 3

    private let emails: any EmailRepository
    private let summaries: any ThreadSummaryRepository
    private let generator: (any TextGenerator)?
    private let embedder: (any TextEmbedder)?
    private let clock: any WallClock

    public init(emails: any EmailRepository, summaries: any ThreadSummaryRepository, generator: (any TextGenerator)?,
                embedder: (any TextEmbedder)?, clock: any WallClock) {
        self.emails = emails
        self.summaries = summaries
        self.generator = generator
        self.embedder = embedder
        self.clock = clock
    }

    /// The stored summary when it still covers the conversation: the same latest email and the
    /// same number of messages. Nil when there is none or new mail made it stale.
    public func cached(threadId: String) async throws -> ThreadSummary? {
        guard let summary = try await summaries.summary(threadId: threadId) else { return nil }
        let thread = try await emails.getEmails(threadId: threadId)
        return try await isCurrent(summary, for: thread) ? summary : nil
    }

    /// The stored summary whether or not it still covers the conversation (one that new mail
    /// made stale is shown with Refresh); nil when there is none.
    public func stored(threadId: String) async throws -> ThreadSummary? {
        try await summaries.summary(threadId: threadId)
    }

    /// Current for `thread`, and not key sentences made for want of a writing model that is
    /// installed now.
    private func isCurrent(_ summary: ThreadSummary, for thread: [Email]) async throws -> Bool {
        guard Self.isCurrent(summary, for: thread) else { return false }
        guard summary.kind == .extractive, let generator else { return true }
        return !(await generator.isAvailable())
    }

    /// The conversation's summary: the stored one when current (and `refresh` is false), else
    /// a new one, stored. Throws `WritingError.threadNotFound` for an unknown conversation,
    /// `.emptyConversation` for one without messages.
    public func summarize(threadId: String, refresh: Bool = false) async throws -> ThreadSummary {
        let thread = try await emails.getEmails(threadId: threadId)
        guard let latest = thread.last else {
            throw try await emails.getThread(id: threadId) == nil ? WritingError.threadNotFound(threadId) : WritingError.emptyConversation(threadId)
        }
        if !refresh, let stored = try await summaries.summary(threadId: threadId), try await isCurrent(stored, for: thread) {
            return stored
        }
        let sent = thread.filter { !$0.isDraft }
        let messages = (sent.isEmpty ? thread : sent).map { email in
            (email: email, text: MessageText.newText(of: email))
        }
        var fromModel: ThreadSummary?
        var modelTried = false
        if messages.contains(where: { !$0.text.isEmpty }), let generator, await generator.isAvailable() {
            do {
                fromModel = try await modelSummary(threadId: threadId, subject: latest.subject, messages: messages, generator: generator,
                                                 count: thread.count, latestId: latest.id)
                modelTried = true
            } catch AIError.modelNotInstalled {
                // Removed since it was asked: key sentences, as without one.
            }
        }
        let summary: ThreadSummary
        if let fromModel {
            summary = fromModel
        } else {
            summary = try await extractiveSummary(threadId: threadId, messages: messages, count: thread.count, latestId: latest.id,
                                                  kind: modelTried ? .extractiveFallback : .extractive)
        }
        try await summaries.save(summary)
        return summary
    }

    /// True when `summary` covers `thread` (its emails, oldest first) as it is now.
    public static func isCurrent(_ summary: ThreadSummary, for thread: [Email]) -> Bool {
        guard let latest = thread.last else { return false }
        return summary.latestEmailId == latest.id && summary.messageCount == thread.count
    }

    // MARK: Kinds

    private func modelSummary(threadId: String, subject: String, messages: [(email: Email, text: String)], generator: any TextGenerator,
                              count: Int, latestId: String) async throws -> ThreadSummary? {
        let conversation = SummaryPrompt.conversation(
            messages.map { SummaryPrompt.Message(sender: $0.email.fromName ?? $0.email.fromAddress, date: $0.email.dateReceived, text: $0.text) },
            timeZone: clock.timeZone)
        let raw = try await generator.complete(SummaryPrompt.request(threadId: threadId, subject: subject, conversation: conversation))
        let sentences = GeneratedText.summarySentences(raw)
        let names = messages.flatMap { message in
            [message.email.fromName ?? "", message.email.fromAddress]
                + (message.email.toAddresses + message.email.ccAddresses).flatMap { [$0.name ?? "", $0.email] }
        }
        let guardrail = FactGuard(sources: [conversation, subject] + names, language: LanguageDetector.detect(raw))
        var kept: [String] = []
        let instructions = [SummaryPrompt.system, SummaryPrompt.instruction]
        for sentence in guardrail.grounded(sentences)
        where !GeneratedText.echoes(sentence, of: instructions, run: 4)
            && !kept.contains(where: { ExtractiveSummarizer.key($0) == ExtractiveSummarizer.key(sentence) }) {
            kept.append(sentence)
        }
        guard kept.count >= 2 else { return nil }
        return ThreadSummary(threadId: threadId, text: kept.prefix(4).joined(separator: " "), kind: .model, modelId: generator.modelId,
                             messageCount: count, latestEmailId: latestId, createdAt: clock.now)
    }

    private func extractiveSummary(threadId: String, messages: [(email: Email, text: String)], count: Int,
                                   latestId: String, kind: ThreadSummaryKind) async throws -> ThreadSummary {
        let input = messages.map {
            ExtractiveSummarizer.Message(sender: MessageText.firstName(name: $0.email.fromName, address: $0.email.fromAddress), text: $0.text)
        }
        let result = try await ExtractiveSummarizer(embedder: embedder).summarize(input)
        var text = result.lines.joined(separator: "\n")
        if text.isEmpty {
            var senders: [String] = []
            for message in input where !senders.contains(message.sender) { senders.append(message.sender) }
            let people = senders.count <= 1 ? (senders.first ?? "someone") : senders.dropLast().joined(separator: ", ") + " and " + senders.last!
            text = count == 1
                ? "One message from \(people), with no text to summarize."
                : "\(count) messages from \(people), with no text to summarize."
        }
        return ThreadSummary(threadId: threadId, text: text, kind: kind, modelId: result.modelId,
                             messageCount: count, latestEmailId: latestId, createdAt: clock.now)
    }
}
