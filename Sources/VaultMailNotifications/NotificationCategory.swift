/// A button on a notification (NOTIF-03).
public struct NotificationAction: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case standard
        /// The user types text and presses `buttonTitle` (the Reply action).
        case textInput(buttonTitle: String, placeholder: String)
    }

    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let destructive = Options(rawValue: 1 << 0)
        public static let foreground = Options(rawValue: 1 << 1)
        public static let authenticationRequired = Options(rawValue: 1 << 2)
    }

    public var identifier: String
    public var title: String
    public var options: Options
    public var kind: Kind

    public init(identifier: String, title: String, options: Options = [], kind: Kind = .standard) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.kind = kind
    }
}

/// A set of actions that notifications name by `identifier` (NOTIF-03).
public struct NotificationCategory: Sendable, Hashable {
    public var identifier: String
    public var actions: [NotificationAction]

    public init(identifier: String, actions: [NotificationAction]) {
        self.identifier = identifier
        self.actions = actions
    }
}

/// The user's answer to a notification.
public struct NotificationResponse: Sendable, Hashable {
    /// Tapping the notification itself.
    public static let defaultActionIdentifier = "com.vaultmail.default"
    /// Closing it without choosing anything.
    public static let dismissActionIdentifier = "com.vaultmail.dismiss"

    public var actionIdentifier: String
    public var notification: DeliveredNotification
    /// The text typed into a text-input action; nil when the centre could not take text
    /// (the user then wants to compose the reply in full).
    public var userText: String?

    public init(actionIdentifier: String, notification: DeliveredNotification, userText: String? = nil) {
        self.actionIdentifier = actionIdentifier
        self.notification = notification
        self.userText = userText
    }

    public var userInfo: NotificationUserInfo { notification.request.content.userInfo }
}
