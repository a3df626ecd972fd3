import Foundation
public import VaultMailCore

/// `RemoteMailbox` over IMAP: one `IMAPConnection` per call (connect, log in, work, LOGOUT).
/// Folders are found by role with `FolderTypeMapping` over LIST (special-use attributes, then
/// well-known names); when the server has no folder of the role, `Sent` or `Drafts` is created.
/// Copies are found by `UID SEARCH HEADER Message-ID` and removed by UID (`\Deleted`, then
/// `UID EXPUNGE`; without UIDPLUS they are only flagged, so other deleted mail is not expunged).
public struct IMAPRemoteMailbox: RemoteMailbox {
    private let secret: AccountSecretProvider
    private let refused: AccountSecretRefusal
    private let connectTimeout: Duration
    private let readTimeout: Duration

    public init(
        connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(60),
        secret: @escaping AccountSecretProvider, refused: @escaping AccountSecretRefusal = { _ in }
    ) {
        self.secret = secret
        self.refused = refused
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    public func append(
        _ message: [UInt8], messageId: String, to role: FolderType, flags: [String], replacingCopies: Bool,
        account: Account
    ) async throws -> RemoteMessageLocation? {
        try await withConnection(account) { imap in
            guard let path = try await Self.folderPath(role, on: imap, create: true) else { return nil }
            var older: [UInt32] = []
            if replacingCopies {
                _ = try await imap.select(path)
                older = try await imap.searchUIDs(header: "Message-ID", containing: messageId)
            }
            let result = try await imap.append(Data(message), to: path, flags: Set(flags.map { IMAPFlag($0) }))
            if !older.isEmpty {
                try await Self.remove(older.filter { $0 != result?.uid }, on: imap)
            }
            return result.map { RemoteMessageLocation(folderPath: path, uidValidity: $0.uidValidity, uid: $0.uid) }
        }
    }

    public func remove(messageId: String, from role: FolderType, account: Account) async throws {
        try await withConnection(account) { imap in
            guard let path = try await Self.folderPath(role, on: imap, create: false) else { return }
            _ = try await imap.select(path)
            try await Self.remove(try await imap.searchUIDs(header: "Message-ID", containing: messageId), on: imap)
        }
    }

    public func contains(messageId: String, in role: FolderType, account: Account) async throws -> Bool {
        try await withConnection(account) { imap in
            guard let path = try await Self.folderPath(role, on: imap, create: false) else { return false }
            _ = try await imap.examine(path)
            return !(try await imap.searchUIDs(header: "Message-ID", containing: messageId)).isEmpty
        }
    }

    // MARK: Helpers

    private func withConnection<T: Sendable>(
        _ account: Account, _ body: (IMAPConnection) async throws -> T
    ) async throws -> T {
        let imap: IMAPConnection
        do {
            imap = try await signedIn(account, mayRetry: true)
        } catch is AccessTokenRefused {
            // The server refused the OAuth2 access token: once more with a fresh one.
            await refused(account)
            imap = try await signedIn(account, mayRetry: false)
        }
        do {
            let result = try await body(imap)
            await imap.logout()
            return result
        } catch {
            await imap.disconnect()
            throw error
        }
    }

    /// A connection logged in to the account's server. With `mayRetry`, a refused OAuth2 access
    /// token throws `AccessTokenRefused` (the caller tries once more with a fresh one).
    private func signedIn(_ account: Account, mayRetry: Bool) async throws -> IMAPConnection {
        let secret = try await self.secret(account)
        let imap = try IMAPConnection(
            endpoint: IMAPEndpoint(account: account, connectTimeout: connectTimeout, readTimeout: readTimeout))
        do {
            try await imap.connect()
            switch account.authMethod {
            case .password: try await imap.login(user: account.username, password: secret)
            case .oauth2: try await imap.authenticateOAuth(user: account.username, accessToken: secret)
            }
            return imap
        } catch {
            await imap.disconnect()
            if mayRetry, account.authMethod == .oauth2, (error as? IMAPError)?.isLoginRefused == true { throw AccessTokenRefused() }
            throw error
        }
    }

    /// The path of the folder of `role`, created (as "Sent" / "Drafts" …) when missing and
    /// `create` is set; nil when missing otherwise.
    private static func folderPath(_ role: FolderType, on imap: IMAPConnection, create: Bool) async throws -> String? {
        let folders = try await imap.listFolders()
        let roles = FolderTypeMapping.folderTypes(for: folders)
        if let path = roles.filter({ $0.value == role }).keys.sorted().first { return path }
        guard create else { return nil }
        let name = role == .sent ? "Sent" : role == .drafts ? "Drafts" : role.rawValue.capitalized
        try await imap.createMailbox(name)
        return name
    }

    /// Flags the UIDs `\Deleted` and expunges exactly them (UIDPLUS), in the selected mailbox.
    private static func remove(_ uids: [UInt32], on imap: IMAPConnection) async throws {
        guard !uids.isEmpty else { return }
        let set = UIDSet(uids)
        try await imap.storeFlags([.deleted], .add, uids: set)
        if await imap.capabilities.uidPlus {
            try await imap.expunge(set)
        }
    }
}
