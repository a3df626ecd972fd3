import Foundation

/// The application service for follow-up reminders (issue 33), for the tool, the web app and
/// the daemon: "remind me if nobody answers in N days" on the user's latest message of a
/// conversation. When that time comes and no one else has written in the conversation since,
/// the daemon reminds once (a notification that opens the conversation); an answer before
/// then ends the reminder without a word. Reminders are kept in the settings, on this machine.
public struct FollowUp: Sendable {
    private let settings: SettingsStore
    private let emails: any EmailRepository
    private let accounts: any AccountRepository
    private let clock: any WallClock

    public init(settings: SettingsStore, emails: any EmailRepository, accounts: any AccountRepository, clock: any WallClock) {
        self.settings = settings
        self.emails = emails
        self.accounts = accounts
        self.clock = clock
    }

    /// The choices the web app offers, with their words.
    public static let presets: [(text: String, label: String)] = [
        ("1d", "in 1 day"), ("3d", "in 3 days"), ("1w", "in 1 week"),
    ]

    /// Reads `3d`, `1w`, `12h`, `30m` (also `3 days`, `1 week`, `2 hours`, `45 minutes`).
    public static func delay(from text: String) throws(FollowUpError) -> TimeInterval {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard let count = Int(digits), count > 0, count <= 365 * 24 * 60 else { throw .unreadableDelay(text) }
        let seconds: TimeInterval
        switch unit {
        case "m", "min", "mins", "minute", "minutes": seconds = 60
        case "h", "hour", "hours": seconds = 3600
        case "d", "day", "days": seconds = 86_400
        case "w", "week", "weeks": seconds = 7 * 86_400
        default: throw .unreadableDelay(text)
        }
        return Double(count) * seconds
    }

    /// Sets (or moves) the reminder of the conversation: `after` the user's latest message in it.
    @discardableResult
    public func remind(threadId: String, after text: String) async throws -> FollowUpReminder {
        let delay = try Self.delay(from: text)
        guard let thread = try await emails.getThread(id: threadId) else { throw FollowUpError.noSuchConversation(threadId) }
        let mine = try await myAddresses()
        let messages = try await emails.getEmails(threadId: threadId)
        guard let sent = messages.filter({ isMine($0, mine) }).max(by: { sentDate($0) < sentDate($1) }) else {
            throw FollowUpError.nothingSent
        }
        let reminder = FollowUpReminder(threadId: threadId, emailId: sent.id, subject: thread.subject,
                                        sentAt: sentDate(sent), due: sentDate(sent).addingTimeInterval(delay))
        try await save { $0[threadId] = reminder }
        return reminder
    }

    public func cancel(threadId: String) async throws {
        guard await settings.followUps[threadId] != nil else { throw FollowUpError.notSet }
        try await save { $0[threadId] = nil }
    }

    /// Every reminder, soonest first.
    public func reminders() async -> [FollowUpReminder] {
        await settings.followUps.values.sorted { ($0.due, $0.threadId) < ($1.due, $1.threadId) }
    }

    public func reminder(threadId: String) async -> FollowUpReminder? {
        await settings.followUps[threadId]
    }

    /// The reminders due now whose conversations got no answer, each with the message waited
    /// on, taken off the list (each reminds once); due ones that were answered, or whose
    /// conversation is gone, are taken off without a word.
    public func due() async throws -> [(reminder: FollowUpReminder, email: Email)] {
        let now = clock.now
        let due = await reminders().filter { $0.due <= now }
        guard !due.isEmpty else { return [] }
        let mine = try await myAddresses()
        var unanswered: [(FollowUpReminder, Email)] = []
        for reminder in due {
            let messages = (try? await emails.getEmails(threadId: reminder.threadId)) ?? []
            guard let sent = messages.first(where: { $0.id == reminder.emailId }) ?? messages.first(where: { isMine($0, mine) }) else { continue }
            let answered = messages.contains { !isMine($0, mine) && $0.dateReceived > reminder.sentAt }
            if !answered { unanswered.append((reminder, sent)) }
        }
        try await save { list in for reminder in due { list[reminder.threadId] = nil } }
        return unanswered
    }

    private func myAddresses() async throws -> Set<String> {
        Set(try await accounts.getAccounts().map { $0.email.lowercased() })
    }

    private func isMine(_ email: Email, _ mine: Set<String>) -> Bool {
        email.folderTypes.contains(.sent) || mine.contains(email.fromAddress.lowercased())
    }

    private func sentDate(_ email: Email) -> Date { email.dateSent ?? email.dateReceived }

    private func save(_ change: @escaping @MainActor (inout [String: FollowUpReminder]) -> Void) async throws {
        try await MainActor.run {
            change(&settings.followUps)
            if let error = settings.lastPersistenceError { throw FollowUpError.notSaved("\(error)") }
        }
    }
}
