import Foundation
import VaultMailCore
import VaultMailIMAP

/// Why a sync (or part of it) failed: the account and mailbox, and the underlying error,
/// which for the server is an `IMAPError` naming host, port, mailbox and the server's words.
/// Emails stored before the failure are in `newEmails`: hand them to the notification
/// coordinator like a successful sync's result.
public struct SyncError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable {
        /// No account with that id.
        case accountNotFound
        /// No folder with that id (or the account has no inbox yet).
        case folderNotFound
        /// The password or token could not be obtained.
        case credentials
        /// The server refused or the connection failed (`underlying` is an `IMAPError`).
        case server
        /// The local store failed.
        case store
        /// Some folders failed, the others synced (`folderFailures`).
        case someFoldersFailed
    }

    public var kind: Kind
    public var accountId: String
    public var accountName: String?
    public var mailbox: String?
    public var underlying: (any Error)?
    public var newEmails: [Email]
    public var folderFailures: [SyncError]

    public init(
        kind: Kind, accountId: String, accountName: String? = nil, mailbox: String? = nil,
        underlying: (any Error)? = nil, newEmails: [Email] = [], folderFailures: [SyncError] = []
    ) {
        self.kind = kind
        self.accountId = accountId
        self.accountName = accountName
        self.mailbox = mailbox
        self.underlying = underlying
        self.newEmails = newEmails
        self.folderFailures = folderFailures
    }

    init(_ kind: Kind, account: Account, mailbox: String? = nil, underlying: (any Error)? = nil) {
        self.init(kind: kind, accountId: account.id, accountName: account.name, mailbox: mailbox, underlying: underlying)
    }

    /// `error` as a `SyncError` of `account` (kept as is when it already is one).
    static func wrap(_ error: any Error, account: Account, mailbox: String?) -> SyncError {
        if let error = error as? SyncError { return error }
        // The store's own errors (SQLite's: a full disk) are the store's, never the server's (issue 34).
        let kind: Kind = error is RepositoryError || error is any StorageFailure ? .store : .server
        return SyncError(kind, account: account, mailbox: mailbox, underlying: error)
    }

    public var description: String {
        let who = accountName.map { "account '\($0)'" } ?? "account \(accountId)"
        let where_ = mailbox.map { " (mailbox \"\($0)\")" } ?? ""
        switch kind {
        case .accountNotFound:
            return "cannot sync \(who): no such account; `vaultmail account list` shows them"
        case .folderNotFound:
            return "cannot sync \(who)\(where_): the folder is not known; sync the account so its folders are listed"
        case .credentials where (underlying as? OAuthError)?.needsSignIn == true:
            return "cannot sync \(who): \(underlying.map { "\($0)" } ?? "")"
        case .credentials where (underlying as? OAuthError)?.isOutage == true:
            // The provider is down, not the credential wrong (issue 34).
            return "cannot sync \(who): the provider's sign-in server is not working (\(underlying.map { "\($0)" } ?? "")); VaultMail will retry"
        case .credentials:
            return "cannot sync \(who): its password or token could not be read (\(underlying.map { "\($0)" } ?? "no detail")); check the account's credential command or keyring entry"
        case .server, .store:
            return "cannot sync \(who)\(where_): \(underlying.map { "\($0)" } ?? "no detail")"
        case .someFoldersFailed:
            let list = folderFailures.map { failure in
                "\"\(failure.mailbox ?? "?")\": \(failure.underlying.map { "\($0)" } ?? failure.kind.rawValue)"
            }
            return "\(who): \(folderFailures.count) folder(s) could not be synced, the others were: " + list.joined(separator: "; ")
        }
    }

    public var errorDescription: String? { description }
}

extension SyncError {
    /// Whether `error` means the account cannot log in until the user acts: the server refused
    /// the login, or the password or token could not be had. Anything else (a server down,
    /// busy or restarting, an OAuth token endpoint down: `OAuthError.isOutage`) may pass by itself.
    public static func isLoginRefusal(_ error: any Error) -> Bool {
        switch error {
        case let error as SyncError:
            // A provider that is down refused nothing (issue 34).
            (error.kind == .credentials && (error.underlying as? OAuthError)?.isOutage != true)
                || error.underlying.map(isLoginRefusal) == true
        case let error as IMAPError:
            error.isLoginRefused
        default:
            false
        }
    }
}

extension SyncError: WrappingError {
    public var wrapped: (any Error)? { underlying ?? folderFailures.first }
}

extension SyncError: PlainWordsError {
    /// The words of what failed underneath (the server's, the store's).
    public var plainWords: String {
        switch kind {
        case .accountNotFound: "That account no longer exists."
        case .folderNotFound: "That folder is no longer on the server."
        case .credentials: underlying.map(PlainWords.of) ?? "The password could not be read. Check the account's settings."
        case .someFoldersFailed: folderFailures.first.map(PlainWords.of) ?? "Some folders could not be synced."
        case .server, .store: underlying.map(PlainWords.of) ?? "The sync failed. VaultMail will try again."
        }
    }
}
