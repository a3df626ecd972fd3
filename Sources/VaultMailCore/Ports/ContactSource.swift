/// The people in the user's mail (AC-U-09): every address the user wrote to or heard from,
/// never the user's own addresses, with counts and the latest dates.
public protocol ContactSource: Sendable {
    func contacts() async throws -> [Contact]
}
