import VaultMailCore

/// NOTIF-15: a V1 stub that always passes; desktop focus modes come later.
@MainActor
public struct FocusModeFilter: NotificationFilter {
    public let rule = NotificationRule.focusMode

    public init() {}

    public func shouldNotify(for email: Email) async -> Bool { true }
}
