/// Timing of `IDLEMonitorUseCase`.
public struct IDLEMonitorOptions: Sendable {
    /// How the monitor keeps the folders other than the inbox fresh while it runs.
    public enum OtherFolders: Sendable, Hashable {
        /// NOTIFY (RFC 5465) on the IDLE connection when the server offers it and accepts it;
        /// otherwise a STATUS check of every other folder each `statusCheckInterval`.
        case automatic
        /// The STATUS check, even where the server offers NOTIFY.
        case statusChecks
        /// The inbox only: other folders wait for the periodic whole-account sync.
        case inboxOnly
    }

    /// IDLE is ended and started again after this long, before servers drop an idle
    /// connection (RFC 2177 allows 29 minutes; many NATs and servers less): 9 minutes.
    public var renewInterval: Duration
    /// The first wait before reconnecting after a failure; doubled after each failure in a row.
    public var initialBackoff: Duration
    /// The longest wait between reconnection attempts.
    public var maximumBackoff: Duration
    /// NOTIFY or STATUS checks for the other folders (`.automatic`).
    public var otherFolders: OtherFolders
    /// How often the STATUS check asks about every other folder when NOTIFY is not used:
    /// 5 seconds. Each check costs one STATUS per folder on the account's pooled connection.
    public var statusCheckInterval: Duration

    public init(
        renewInterval: Duration = .seconds(9 * 60), initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(5 * 60), otherFolders: OtherFolders = .automatic,
        statusCheckInterval: Duration = .seconds(5)
    ) {
        self.renewInterval = renewInterval
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.otherFolders = otherFolders
        self.statusCheckInterval = max(statusCheckInterval, .milliseconds(100))
    }
}
