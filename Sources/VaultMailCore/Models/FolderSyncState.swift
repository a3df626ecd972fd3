import Foundation

/// The IMAP sync state of one folder, persisted as a checkpoint so an interrupted sync
/// resumes where it stopped (E-01) and the next sync is incremental (AC-F-06b).
public struct FolderSyncState: Sendable, Hashable {
    public var uidValidity: UInt32?
    /// The highest UID whose message is stored (or was deliberately skipped, e.g. outside
    /// the sync window); the next sync fetches above it.
    public var lastSyncedUID: UInt32?
    /// The mod-sequence the flags are known up to (CONDSTORE).
    public var highestModSeq: UInt64?
    /// When the folder last finished a sync; nil while its first (initial) sync is incomplete.
    public var lastSyncDate: Date?
    /// Messages in the folder on the server.
    public var totalCount: Int
    /// Unread messages in the folder on the server.
    public var unreadCount: Int
    /// The sync window (days; `AppConstants.allMailSyncWindowDays` or more is all mail) whose
    /// older mail the folder holds completely: nil until the first pass back in time finished.
    /// An account window wider than this makes the next sync fetch the older mail, newest first.
    public var historyWindowDays: Int?

    public init(
        uidValidity: UInt32? = nil, lastSyncedUID: UInt32? = nil, highestModSeq: UInt64? = nil,
        lastSyncDate: Date? = nil, totalCount: Int = 0, unreadCount: Int = 0, historyWindowDays: Int? = nil
    ) {
        self.uidValidity = uidValidity
        self.lastSyncedUID = lastSyncedUID
        self.highestModSeq = highestModSeq
        self.lastSyncDate = lastSyncDate
        self.totalCount = totalCount
        self.unreadCount = unreadCount
        self.historyWindowDays = historyWindowDays
    }
}

extension Folder {
    /// The folder's sync fields as one value.
    public var syncState: FolderSyncState {
        get {
            FolderSyncState(
                uidValidity: uidValidity, lastSyncedUID: lastSyncedUID, highestModSeq: highestModSeq,
                lastSyncDate: lastSyncDate, totalCount: totalCount, unreadCount: unreadCount,
                historyWindowDays: historyWindowDays)
        }
        set {
            uidValidity = newValue.uidValidity
            lastSyncedUID = newValue.lastSyncedUID
            highestModSeq = newValue.highestModSeq
            lastSyncDate = newValue.lastSyncDate
            totalCount = newValue.totalCount
            unreadCount = newValue.unreadCount
            historyWindowDays = newValue.historyWindowDays
        }
    }
}
