import Foundation
import VaultMailCore

/// A `RemoteMailbox` in memory: folders by role holding messages by Message-ID with UIDs;
/// fails on demand (`reachable = false`) like a server that cannot be reached.
public actor RecordingRemoteMailbox: RemoteMailbox {
    public struct Stored: Sendable, Hashable {
        public var uid: UInt32
        public var messageId: String
        public var message: [UInt8]
        public var flags: [String]
    }

    public struct Unreachable: Error, CustomStringConvertible {
        public var description: String { "cannot connect to imap.example.com:993: the connection was refused" }
    }

    public private(set) var folders: [FolderType: [Stored]] = [:]
    /// Every call by name ("append sent", "remove drafts", "contains sent").
    public private(set) var calls: [String] = []
    public var reachable = true
    private var nextUID: UInt32 = 1

    public init() {}

    public func setReachable(_ reachable: Bool) {
        self.reachable = reachable
    }

    /// Puts a message in a folder as another client (or the server itself) would.
    public func store(_ message: [UInt8], messageId: String, in role: FolderType) {
        folders[role, default: []].append(Stored(uid: nextUID, messageId: messageId, message: message, flags: []))
        nextUID += 1
    }

    public func messages(in role: FolderType) -> [Stored] {
        folders[role] ?? []
    }

    public func append(
        _ message: [UInt8], messageId: String, to role: FolderType, flags: [String], replacingCopies: Bool,
        account: Account
    ) async throws -> RemoteMessageLocation? {
        calls.append("append \(role.rawValue)")
        guard reachable else { throw Unreachable() }
        let uid = nextUID
        nextUID += 1
        if replacingCopies { folders[role]?.removeAll { $0.messageId == messageId } }
        folders[role, default: []].append(Stored(uid: uid, messageId: messageId, message: message, flags: flags))
        return RemoteMessageLocation(folderPath: role == .sent ? "Sent" : "Drafts", uidValidity: 1, uid: uid)
    }

    public func remove(messageId: String, from role: FolderType, account: Account) async throws {
        calls.append("remove \(role.rawValue)")
        guard reachable else { throw Unreachable() }
        folders[role]?.removeAll { $0.messageId == messageId }
    }

    public func contains(messageId: String, in role: FolderType, account: Account) async throws -> Bool {
        calls.append("contains \(role.rawValue)")
        guard reachable else { throw Unreachable() }
        return folders[role]?.contains { $0.messageId == messageId } ?? false
    }
}
