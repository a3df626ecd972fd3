/// Where a message sits on the IMAP server.
public struct RemoteMessageLocation: Sendable, Hashable, Codable {
    /// The mailbox name on the server, e.g. `Sent` or `[Gmail]/Drafts`.
    public var folderPath: String
    public var uidValidity: UInt32
    public var uid: UInt32

    public init(folderPath: String, uidValidity: UInt32, uid: UInt32) {
        self.folderPath = folderPath
        self.uidValidity = uidValidity
        self.uid = uid
    }
}

/// The account's mailboxes on the server, as sending needs them: a copy of a sent message in
/// Sent, the current version of a draft in Drafts. Folders are found by role (special-use
/// attributes or well-known names); one is created when the server has none.
public protocol RemoteMailbox: Sendable {
    /// APPENDs `message` (whose Message-ID is `messageId`) to the folder of `role` with
    /// `flags` (IMAP flag names such as `\Seen`, `\Draft`). With `replacingCopies`, every
    /// other message there with the same Message-ID (an older version of a draft) is removed
    /// by UID afterwards. Returns where the message landed when the server says (UIDPLUS).
    func append(
        _ message: [UInt8], messageId: String, to role: FolderType, flags: [String], replacingCopies: Bool,
        account: Account
    ) async throws -> RemoteMessageLocation?

    /// Removes every message with this Message-ID from the folder of `role`.
    func remove(messageId: String, from role: FolderType, account: Account) async throws

    /// True when the folder of `role` holds a message with this Message-ID.
    func contains(messageId: String, in role: FolderType, account: Account) async throws -> Bool
}
