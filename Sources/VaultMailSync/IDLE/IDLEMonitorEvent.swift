import VaultMailCore

/// What `IDLEMonitorUseCase` reports for an account's inbox.
public enum IDLEMonitorEvent: Sendable {
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
    /// The connection failed (`error` says why; `SyncError.isLoginRefusal` tells a refused
    /// login from an outage); the monitor reconnects after `retryIn` and then syncs the inbox,
    /// so nothing that arrives meanwhile is lost.
    case disconnected(error: any Error, retryIn: Duration)
}
