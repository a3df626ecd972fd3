import VaultMailCore

/// The list a focused window shows (AC-N-12, NOTIF-19): a folder type, of one account or of
/// every account (the unified view). Its new mail gets the in-app banner only; another
/// account's mail of the same type still notifies on the desktop (E-20).
public struct FolderOnScreen: Sendable, Hashable {
    public var type: FolderType
    /// The account whose folder it is; nil for every account's folders of the type.
    public var accountId: String?

    public init(type: FolderType, accountId: String? = nil) {
        self.type = type
        self.accountId = accountId
    }

    /// Whether `email` is in the list on screen.
    public func shows(_ email: Email) -> Bool {
        email.folderTypes.contains(type) && (accountId == nil || accountId == email.accountId)
    }
}
