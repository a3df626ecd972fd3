import VaultMailCore

/// NOTIF-13: only mail linked to an inbox notifies (Inbox + Starred passes; Sent, Drafts,
/// Trash, Spam, Archive and custom folders alone do not).
@MainActor
public struct FolderTypeNotificationFilter: NotificationFilter {
    public let rule = NotificationRule.folderType

    public init() {}

    public func shouldNotify(for email: Email) async -> Bool {
        email.folderTypes.contains(.inbox)
    }
}
