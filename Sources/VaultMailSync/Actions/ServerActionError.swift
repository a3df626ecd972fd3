import Foundation
import VaultMailCore
import VaultMailIMAP

/// A server-side action (archive, delete, move, read, star) that did not happen. The local
/// store was not changed. `underlying` is usually an `IMAPError` naming host, port, mailbox
/// and the server's words.
public struct ServerActionError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable {
        /// The server refused or the connection failed.
        case server
        /// A message's UID in a folder is not known yet (the folder was not synced since it
        /// got there, and the server gave no COPYUID).
        case uidUnknown
        /// The account the thread belongs to is gone.
        case accountNotFound
    }

    public var kind: Kind
    /// What was attempted: "archive thread 3f2a…".
    public var action: String
    public var accountName: String
    public var mailbox: String?
    public var underlying: (any Error)?
    /// True when an earlier step had changed the server and undoing it failed too: the server
    /// may be partly changed until the next sync brings the store in line.
    public var serverPartlyChanged: Bool

    public init(
        kind: Kind, action: String, accountName: String, mailbox: String? = nil, underlying: (any Error)? = nil,
        serverPartlyChanged: Bool = false
    ) {
        self.kind = kind
        self.action = action
        self.accountName = accountName
        self.mailbox = mailbox
        self.underlying = underlying
        self.serverPartlyChanged = serverPartlyChanged
    }

    public var description: String {
        var text = "could not \(action) in account '\(accountName)'"
        if let mailbox { text += " (mailbox \"\(mailbox)\")" }
        switch kind {
        case .server: text += ": \(underlying.map { "\($0)" } ?? "the server refused")"
        case .uidUnknown: text += ": the message's UID there is not known yet; sync the account and try again"
        case .accountNotFound: text += ": the account no longer exists"
        }
        text += serverPartlyChanged
            ? " Nothing was changed locally; the server may be partly changed until the next sync."
            : " Nothing was changed, locally or on the server."
        return text
    }

    public var errorDescription: String? { description }
}

extension ServerActionError: WrappingError {
    public var wrapped: (any Error)? { underlying }
}

extension ServerActionError: PlainWordsError {
    /// The server's words when it was the server; nothing changed unless `serverPartlyChanged`.
    public var plainWords: String {
        switch kind {
        case .server:
            let words = underlying.map(PlainWords.of) ?? "The server refused the change."
            return serverPartlyChanged ? "\(words) The server may be partly changed until the next sync." : words
        case .uidUnknown: return "This message hasn't been synced yet. Wait for the next sync and try again."
        case .accountNotFound: return "That account no longer exists."
        }
    }
}
