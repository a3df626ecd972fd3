import VaultMailCore

/// What `IDLEMonitorUseCase` reports for an account's inbox and, through NOTIFY or STATUS
/// checks, its other folders.
public enum IDLEMonitorEvent: Sendable {
    /// How the other folders are being watched on this connection.
    public enum OtherFolderWatch: Sendable, Hashable {
        /// The server reports their changes on the IDLE connection (NOTIFY, RFC 5465).
        case notify
        /// One STATUS per folder every `interval` on the pooled connection.
        case statusChecks(interval: Duration)
    }

    /// Mail new to the store, already synced (NOTIF-21: hand it to the notification coordinator
    /// with `fromBackground: false`).
    case newMail([Email])
    /// The server changed read or starred state of this many emails; the store has it.
    case flagsChanged(count: Int)
    /// This many messages left the inbox on the server (expunged or moved); the store has it.
    case expunged(count: Int)
    /// The monitor is (again) waiting in IDLE for the server to report news. Sent at every
    /// renewal too.
    case listening
    /// After each (re)connection, before `.listening`: how the other folders are watched
    /// (not sent with `IDLEMonitorOptions.OtherFolders.inboxOnly`).
    case watchingOtherFolders(OtherFolderWatch)
    /// Another folder than the inbox changed on the server (NOTIFY said so, or a STATUS check
    /// found it) and was synced: the store has it. Its new emails go to the notification
    /// coordinator like those of the periodic sync (`fromBackground: true`); the folder
    /// filter keeps Junk, Sent and the like from notifying unless the rules say otherwise.
    case folderSynced(Folder, FolderSyncReport)
    /// The connection failed (`error` says why; `SyncError.isLoginRefusal` tells a refused
    /// login from an outage); the monitor reconnects after `retryIn` and then syncs the inbox,
    /// so nothing that arrives meanwhile is lost.
    case disconnected(error: any Error, retryIn: Duration)
}
