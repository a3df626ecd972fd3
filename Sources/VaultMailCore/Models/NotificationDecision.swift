import Foundation

/// What the notification engine decided for one email.
public enum NotificationOutcome: String, Sendable, Codable, CaseIterable {
    /// A desktop notification was posted.
    case notified
    /// No banner, but the email counts toward the badge (over the batch cap, or the user is
    /// looking at that folder or thread).
    case badgeOnly
    /// No notification, for the reason in `rule`.
    case suppressed
    /// The engine wanted to notify but the notification centre refused (no server, timeout).
    case failed
}

/// The rule that made a decision, so "why was I (not) notified?" has an answer.
public enum NotificationRule: String, Sendable, Codable, CaseIterable {
    case allFilters = "all-filters-passed"
    case vip = "vip"
    case firstLaunch = "first-launch"
    case notificationsOff = "notifications-off"
    case recency = "recency"
    case duplicate = "duplicate"
    case account = "account"
    case spam = "spam"
    case folderType = "folder-type"
    case mutedThread = "muted-thread"
    case category = "category"
    case quietHours = "quiet-hours"
    case focusMode = "focus-mode"
    case batchLimit = "batch-limit"
    case activeFolder = "active-folder"
    case viewingThread = "viewing-thread"
    case centerUnavailable = "center-unavailable"
    /// Issue 34: read before VaultMail first saw it (`\Seen` on the server: read in another
    /// mail program, or one's own mail filed as read). Never announced, whoever sent it.
    case alreadyRead = "already-read"
    case snoozeEnded = "snooze-ended"

    /// A sentence for a person.
    public var explanation: String {
        switch self {
        case .allFilters: "it passed every filter"
        case .vip: "the sender is a VIP, which overrides every other filter"
        case .firstLaunch: "it arrived in the first sync of this session, which never notifies"
        case .notificationsOff: "notifications are turned off (`vaultmail notify on` turns them on)"
        case .recency: "it was too old when synced (over 5 minutes in the foreground, 1 hour in the background)"
        case .duplicate: "a notification for this email was already shown"
        case .account: "notifications are off for this account"
        case .spam: "it is spam"
        case .folderType: "it is not in an inbox"
        case .mutedThread: "the conversation is muted"
        case .category: "notifications are off for its category"
        case .quietHours: "it arrived during quiet hours"
        case .focusMode: "a focus mode was active"
        case .batchLimit: "more than 10 emails qualified in one sync; only the 10 newest got banners"
        case .activeFolder: "the folder it is in was on screen"
        case .viewingThread: "its conversation was on screen"
        case .centerUnavailable: "the notification server could not be reached"
        case .alreadyRead: "it was already read when it arrived (read in another mail program first), so there was nothing new to announce"
        case .snoozeEnded: "it was snoozed and came back to the inbox at its time, and passed every filter"
        }
    }
}

/// One recorded decision of the notification engine about one email.
public struct NotificationDecision: Sendable, Hashable, Codable {
    public var emailId: String
    public var accountId: String
    public var threadId: String
    public var decidedAt: Date
    public var outcome: NotificationOutcome
    public var rule: NotificationRule
    /// Extra words, e.g. the notification centre's error.
    public var detail: String?
    public var subject: String
    public var fromAddress: String

    public init(email: Email, decidedAt: Date, outcome: NotificationOutcome, rule: NotificationRule, detail: String? = nil) {
        self.init(emailId: email.id, accountId: email.accountId, threadId: email.threadId, decidedAt: decidedAt,
                  outcome: outcome, rule: rule, detail: detail, subject: email.subject, fromAddress: email.fromAddress)
    }

    public init(emailId: String, accountId: String, threadId: String, decidedAt: Date, outcome: NotificationOutcome,
                rule: NotificationRule, detail: String?, subject: String, fromAddress: String) {
        self.emailId = emailId
        self.accountId = accountId
        self.threadId = threadId
        self.decidedAt = decidedAt
        self.outcome = outcome
        self.rule = rule
        self.detail = detail
        self.subject = subject
        self.fromAddress = fromAddress
    }
}
