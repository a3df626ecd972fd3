import Foundation

/// Two to four sentences on a conversation (AC-A-06), kept with it and made again only when
/// new mail arrives (or on request).
///
/// The summary is the conversation's key sentences with their senders' names, rephrased by the
/// writing model when one is installed and its text passes the checks (`ConversationSummarizer`);
/// the kind says which the user reads.
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
        // In reading order, as the conversation shows it: the latest is the one shown last.
        let thread = Conversations.ordered(try await emails.getEmails(threadId: threadId))
        guard let latest = thread.last else {
            throw try await emails.getThread(id: threadId) == nil ? WritingError.threadNotFound(threadId) : WritingError.emptyConversation(threadId)
        }
        if !refresh, let stored = try await summaries.summary(threadId: threadId), try await isCurrent(stored, for: thread) {
            return stored
        }
        let sent = thread.filter { !$0.isDraft }
        let messages = (sent.isEmpty ? thread : sent).map { email in
            ConversationSummarizer.Message(senderName: email.fromName, senderAddress: email.fromAddress,
                                           recipients: (email.toAddresses + email.ccAddresses).flatMap { [$0.name ?? "", $0.email] },
                                           text: MessageText.newText(of: email))
        }
        let result = try await ConversationSummarizer(generator: generator, embedder: embedder)
            .summarize(threadId: threadId, subject: latest.subject, messages: messages)
        let summary = ThreadSummary(threadId: threadId, text: result.text, kind: result.kind, modelId: result.modelId,
                                    messageCount: thread.count, latestEmailId: latest.id, createdAt: clock.now)
        try await summaries.save(summary)
        return summary
    }

    /// True when `summary` covers `thread` (its emails, oldest first) as it is now.
    public static func isCurrent(_ summary: ThreadSummary, for thread: [Email]) -> Bool {
        guard let latest = Conversations.ordered(thread).last else { return false }
        return summary.latestEmailId == latest.id && summary.messageCount == thread.count
    }
}
