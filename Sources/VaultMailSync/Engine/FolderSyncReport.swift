import VaultMailCore

/// What one folder sync changed in the store.
public struct FolderSyncReport: Sendable {
    public var folderId: String
    /// Emails new to the store, with `folderTypes` filled (NOTIF-19: hand them to the
    /// notification coordinator).
    public var newEmails: [Email] = []
    /// Messages fetched from the server (new emails, plus copies of stored ones).
    public var fetched = 0
    /// Emails whose read or starred state the server changed.
    public var flagChanges = 0
    /// Links removed because the server expunged or moved the message.
    public var removed = 0
    /// The server's UIDVALIDITY changed, so the folder was synced again from scratch (E-03).
    public var uidValidityChanged = false
    /// Emails whose link this sync removed (kept when they were left without any link and
    /// the sync kept orphans).
    var detachedEmailIds: [String] = []

    public init(folderId: String) {
        self.folderId = folderId
    }
}
