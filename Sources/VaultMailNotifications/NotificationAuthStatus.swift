/// Whether the user lets VaultMail post notifications (NOTIF-02).
public enum NotificationAuthStatus: Sendable, Equatable {
    case notDetermined
    case authorized
    case denied
    case provisional
}

/// What an authorization request asks for.
public struct NotificationAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let alert = NotificationAuthorizationOptions(rawValue: 1 << 0)
    public static let badge = NotificationAuthorizationOptions(rawValue: 1 << 1)
    public static let sound = NotificationAuthorizationOptions(rawValue: 1 << 2)
}

/// How a notification for the app in the foreground is shown (NOTIF-06f).
public struct NotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let banner = NotificationPresentationOptions(rawValue: 1 << 0)
    public static let badge = NotificationPresentationOptions(rawValue: 1 << 1)
    public static let sound = NotificationPresentationOptions(rawValue: 1 << 2)
}
