import Foundation

/// Why a reply suggestion or a summary could not be made, with what to do.
public enum WritingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No conversation has this id.
    case threadNotFound(String)
    /// The conversation exists but holds no message.
    case emptyConversation(String)

    public var description: String {
        switch self {
        case .threadNotFound(let id):
            return "there is no conversation with id '\(id)'; `vaultmail threads` lists them (it may have been deleted or its account removed)"
        case .emptyConversation(let id):
            return "the conversation '\(id)' has no messages; run `vaultmail sync` to fetch its mail"
        }
    }
}
