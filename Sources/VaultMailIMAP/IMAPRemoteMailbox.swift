import Foundation
public import VaultMailCore

/// `RemoteMailbox` over IMAP, on the account's connection lent by `connections` (the app's
/// `IMAPConnectionPool`, which sync and the server-side actions use too): filing a sent message
/// and removing its draft log in to nothing of their own, and wait for the account's earlier
/// IMAP work as every other operation does (issue 18).
/// Folders are found by role with `FolderTypeMapping` over LIST (special-use attributes, then
/// well-known names); when the server has no folder of the role, `Sent` or `Drafts` is created.
/// Copies are found by `UID SEARCH HEADER Message-ID` and removed by UID with
/// `IMAPConnection.deleteMessages` (`\Deleted`, then `UID EXPUNGE`; without UIDPLUS only flagged).
public struct IMAPRemoteMailbox: RemoteMailbox {
    private let connections: any IMAPConnectionLending

    /// - Parameter connections: lends the account's logged-in connection for each call.
    public init(connections: any IMAPConnectionLending) {
        self.connections = connections
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
        _ account: Account, _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        try await connections.lendConnection(for: account, body)
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

    /// Deletes the UIDs of the selected mailbox (`IMAPConnection.deleteMessages`).
    private static func remove(_ uids: [UInt32], on imap: IMAPConnection) async throws {
        guard !uids.isEmpty else { return }
        try await imap.deleteMessages(uids: UIDSet(uids))
    }
}
