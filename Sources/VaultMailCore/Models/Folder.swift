import Foundation

/// A mailbox of an account, with the IMAP sync state that belongs to it.
public struct Folder: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    public var accountId: String
    /// The name shown to the user ("Inbox", "Sent", "Projects").
    public var name: String
    /// The mailbox name on the server, e.g. `INBOX` or `[Gmail]/Sent Mail`.
    public var path: String
    public var folderType: FolderType
    public var uidValidity: UInt32?
    /// The highest UID stored locally: incremental sync fetches above it.
    public var lastSyncedUID: UInt32?
    public var highestModSeq: UInt64?
    public var totalCount: Int
    public var unreadCount: Int
    public var lastSyncDate: Date?
    /// See `FolderSyncState.historyWindowDays`.
    public var historyWindowDays: Int?

    public init(
        id: String? = nil,
        accountId: String,
        name: String,
        path: String,
        folderType: FolderType,
        uidValidity: UInt32? = nil,
        lastSyncedUID: UInt32? = nil,
        highestModSeq: UInt64? = nil,
        totalCount: Int = 0,
        unreadCount: Int = 0,
        lastSyncDate: Date? = nil,
        historyWindowDays: Int? = nil
    ) {
        self.id = id ?? Folder.stableID(accountId: accountId, path: path)
        self.accountId = accountId
        self.name = name
        self.path = path
        self.folderType = folderType
        self.uidValidity = uidValidity
        self.lastSyncedUID = lastSyncedUID
        self.highestModSeq = highestModSeq
        self.totalCount = totalCount
        self.unreadCount = unreadCount
        self.lastSyncDate = lastSyncDate
        self.historyWindowDays = historyWindowDays
    }

    /// The same mailbox of the same account always gets the same id.
    public static func stableID(accountId: String, path: String) -> String {
        StableID.make(accountId, "\u{1F}folder\u{1F}", path)
    }
}
