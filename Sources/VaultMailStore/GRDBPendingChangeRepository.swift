import Foundation
import GRDB
import VaultMailCore

/// `PendingChangeRepository` over the SQLite store (table `pendingChange`, migration
/// `v13-pending-changes`).
public struct GRDBPendingChangeRepository: PendingChangeRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    @discardableResult
    public func add(_ change: PendingChange) async throws -> PendingChange {
        let copies = String(decoding: try JSONEncoder().encode(change.copies), as: UTF8.self)
        let (action, folderId) = Self.columns(change.action)
        let id = try await writer.write { db in
            try db.execute(sql: """
                INSERT INTO pendingChange(accountId, threadId, subject, action, folderId, folderName, copies, createdAt, attempts, lastError)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [change.accountId, change.threadId, change.subject, action, folderId, change.folderName, copies,
                                 change.createdAt.millis, change.attempts, change.lastError])
            return db.lastInsertedRowID
        }
        var added = change
        added.id = id
        return added
    }

    public func pending(accountId: String?) async throws -> [PendingChange] {
        try await writer.read { db in
            let rows = if let accountId {
                try Row.fetchAll(db, sql: "SELECT * FROM pendingChange WHERE accountId = ? ORDER BY id", arguments: [accountId])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM pendingChange ORDER BY id")
            }
            return try rows.map(Self.change)
        }
    }

    public func change(id: Int64) async throws -> PendingChange? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM pendingChange WHERE id = ?", arguments: [id]).map(Self.change)
        }
    }

    public func remove(id: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pendingChange WHERE id = ?", arguments: [id])
        }
    }

    public func recordRefusal(id: Int64, reason: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE pendingChange SET attempts = attempts + 1, lastError = ? WHERE id = ?", arguments: [reason, id])
        }
    }

    public func learnUIDs(_ links: [EmailFolder], accountId: String) async throws {
        let learned = Dictionary(links.compactMap { link in link.uid.map { ("\(link.emailId)\u{1F}\(link.folderId)", $0) } },
                                 uniquingKeysWith: { _, last in last })
        guard !learned.isEmpty else { return }
        try await writer.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, copies FROM pendingChange WHERE accountId = ?", arguments: [accountId]) {
                let text: String = row["copies"]
                var copies = try JSONDecoder().decode([EmailFolder].self, from: Data(text.utf8))
                var changed = false
                for index in copies.indices where copies[index].uid == nil {
                    if let uid = learned["\(copies[index].emailId)\u{1F}\(copies[index].folderId)"] {
                        copies[index].uid = uid
                        changed = true
                    }
                }
                guard changed else { continue }
                let encoded = String(decoding: try JSONEncoder().encode(copies), as: UTF8.self)
                try db.execute(sql: "UPDATE pendingChange SET copies = ? WHERE id = ?", arguments: [encoded, row["id"] as Int64])
            }
        }
    }

    /// The action as stored: its name, and the target folder of a move (a snooze: its keyword).
    static func columns(_ action: ConversationAction) -> (String, String?) {
        switch action {
        case .read: ("read", nil)
        case .unread: ("unread", nil)
        case .star: ("star", nil)
        case .unstar: ("unstar", nil)
        case .archive: ("archive", nil)
        case .delete: ("delete", nil)
        case .move(let folderId): ("move", folderId)
        case .snooze(let time): ("snooze", time.keyword)
        case .unsnooze: ("unsnooze", nil)
        }
    }

    static func change(_ row: Row) throws -> PendingChange {
        let name: String = row["action"]
        let action: ConversationAction = switch name {
        case "read": .read
        case "unread": .unread
        case "star": .star
        case "unstar": .unstar
        case "archive": .archive
        case "delete": .delete
        case "move": .move(toFolderId: row["folderId"] ?? "")
        case "snooze": .snooze(until: SnoozeTime(keyword: row["folderId"] ?? "") ?? .someday)
        case "unsnooze": .unsnooze
        default: throw DatabaseError(message: "unknown pending action '\(name)'")
        }
        let copies: String = row["copies"]
        return PendingChange(
            id: row["id"], accountId: row["accountId"], threadId: row["threadId"], subject: row["subject"], action: action,
            folderName: row["folderName"], copies: try JSONDecoder().decode([EmailFolder].self, from: Data(copies.utf8)),
            createdAt: Date(millis: row["createdAt"]), attempts: row["attempts"], lastError: row["lastError"])
    }
}
