import Foundation
import VaultMailCore

/// The fields every email notification carries (NOTIF-04), typed rather than a dictionary.
public struct NotificationUserInfo: Sendable, Hashable, Codable {
    public var emailId: String
    public var threadId: String
    public var accountId: String
    public var fromAddress: String

    public init(emailId: String, threadId: String, accountId: String, fromAddress: String) {
        self.emailId = emailId
        self.threadId = threadId
        self.accountId = accountId
        self.fromAddress = fromAddress
    }
}

public enum NotificationSound: Sendable, Hashable, Codable {
    case `default`
    case none
}

public enum NotificationInterruptionLevel: String, Sendable, Hashable, Codable {
    case passive
    case active
    case timeSensitive
    case critical
}

/// What a notification shows.
public struct NotificationContent: Sendable, Hashable, Codable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var sound: NotificationSound
    public var categoryIdentifier: String
    /// Notifications with the same thread identifier are one group (NOTIF-05).
    public var threadIdentifier: String
    public var userInfo: NotificationUserInfo
    public var interruptionLevel: NotificationInterruptionLevel
    /// When the mail arrived, so a thread's group shows its newest mail on top.
    public var date: Date?
    /// Short replies the user can send with one action (issue 16, AC-A-05), where the
    /// notification server shows actions; added once they are written.
    public var suggestedReplies: [String]

    public init(title: String, subtitle: String, body: String, sound: NotificationSound = .default,
                categoryIdentifier: String = AppConstants.notificationCategoryEmail, threadIdentifier: String,
                userInfo: NotificationUserInfo, interruptionLevel: NotificationInterruptionLevel = .active,
                date: Date? = nil, suggestedReplies: [String] = []) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.sound = sound
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.userInfo = userInfo
        self.interruptionLevel = interruptionLevel
        self.date = date
        self.suggestedReplies = suggestedReplies
    }
}

/// A notification to post: `identifier` is `email-<email id>` (NOTIF-04).
public struct NotificationRequest: Sendable, Hashable, Codable, Identifiable {
    public var identifier: String
    public var content: NotificationContent

    public init(identifier: String, content: NotificationContent) {
        self.identifier = identifier
        self.content = content
    }

    public var id: String { identifier }

    /// The request identifier of an email's notification.
    public static func identifier(forEmailId emailId: String) -> String { "email-\(emailId)" }

    /// The email id inside a request identifier, or nil for other identifiers.
    public static func emailId(fromIdentifier identifier: String) -> String? {
        identifier.hasPrefix("email-") ? String(identifier.dropFirst("email-".count)) : nil
    }
}

/// A notification the centre is showing.
public struct DeliveredNotification: Sendable, Hashable {
    public var request: NotificationRequest
    public var date: Date

    public init(request: NotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}

