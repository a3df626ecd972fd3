/// Where an outgoing message is in its life. The outbox is the set of emails whose state is
/// `queued`, `sending` or `failed` (AC-U-05): a virtual folder, not a `FolderType`.
public enum SendState: String, Sendable, Codable, CaseIterable, Hashable {
    case none
    case draft
    case queued
    case sending
    case failed
    case sent

    /// The states that put an email in the outbox.
    public static let outboxStates: [SendState] = [.queued, .sending, .failed]

    public var isInOutbox: Bool { Self.outboxStates.contains(self) }
}
