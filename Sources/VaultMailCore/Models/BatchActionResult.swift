/// The outcome of an action applied to many threads: which succeeded and which failed, with
/// why, so a caller can report "5 actions failed" and keep those selected (E-12).
public struct BatchActionResult: Sendable {
    public var succeeded: [String]
    public var failed: [(id: String, error: any Error)]
    /// Of `succeeded`, those shown done on this computer and kept for the server, which could
    /// not be reached (`PendingChanges`).
    public var kept: [PendingChange] = []
    /// Of `succeeded`, those done on the server whose copy on this computer could not be
    /// updated (a full disk: `DoneOnServer`), with why; the next sync brings them up to date.
    public var notUpdatedHere: [(id: String, error: any Error)] = []

    public init(succeeded: [String] = [], failed: [(id: String, error: any Error)] = []) {
        self.succeeded = succeeded
        self.failed = failed
    }

    public var failedIds: [String] { failed.map(\.id) }
    public var allSucceeded: Bool { failed.isEmpty }
}
