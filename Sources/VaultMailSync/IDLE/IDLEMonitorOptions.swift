/// Timing of `IDLEMonitorUseCase`.
public struct IDLEMonitorOptions: Sendable {
    /// IDLE is ended and started again after this long, before servers drop an idle
    /// connection (RFC 2177 allows 29 minutes; many NATs and servers less): 9 minutes.
    public var renewInterval: Duration
    /// The first wait before reconnecting after a failure; doubled after each failure in a row.
    public var initialBackoff: Duration
    /// The longest wait between reconnection attempts.
    public var maximumBackoff: Duration

    public init(
        renewInterval: Duration = .seconds(9 * 60), initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(5 * 60)
    ) {
        self.renewInterval = renewInterval
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }
}
