/// An error that carries the error underneath it (a sync's, a server action's), so a rule that
/// looks for a kind of failure (a full disk, `PlainWords.isDiskFull`) finds it under the wrapper.
public protocol WrappingError: Error {
    /// The error underneath, if any.
    var wrapped: (any Error)? { get }
}
