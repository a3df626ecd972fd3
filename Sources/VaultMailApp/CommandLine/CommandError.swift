import VaultMailCore

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

extension CommandError {
    /// An application service's refusal as the tool reports it: bad input exits with 2, the
    /// rest with 1, in the service's words. Other errors pass unchanged.
    static func presenting(_ error: any Error) -> any Error {
        switch error {
        case let error as AccountError: CommandError(error.description, usage: error.isBadInput)
        case let error as NotificationSettingsError: CommandError(error.description, usage: error.isBadInput)
        case ComposeError.invalidAddress: CommandError("\(error)", usage: true)
        default: error
        }
    }
}
