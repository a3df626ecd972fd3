/// A command that could not do what was asked, with what to do instead. `usage` errors
/// exit with 2, the others with 1.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public let isUsage: Bool

    public init(_ description: String, usage: Bool = false) {
        self.description = description
        isUsage = usage
    }
}
