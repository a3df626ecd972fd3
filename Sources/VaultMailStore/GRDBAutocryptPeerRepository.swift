import Foundation
import GRDB
import VaultMailCore

/// `AutocryptPeerRepository` over the SQLite store (table `autocryptPeer`, migration `v18-pgp`).
/// Synced mail reaches it inside `GRDBSyncRepository.storeSyncBatch`.
public struct GRDBAutocryptPeerRepository: AutocryptPeerRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    public func peers(accountId: String, addresses: [String]) async throws -> [String: AutocryptPeerState] {
        let wanted = Array(Set(addresses.map { $0.lowercased() }))
        return try await writer.read { db in try db.autocryptPeers(accountId: accountId, addresses: wanted) }
    }

    public func allPeers(accountId: String) async throws -> [AutocryptPeerState] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM autocryptPeer WHERE accountId = ? ORDER BY address", arguments: [accountId])
                .map(Database.autocryptPeer)
        }
    }

    public func receiveGossip(_ headers: [AutocryptHeader], effectiveDate: Date, accountId: String) async throws {
        guard !headers.isEmpty else { return }
        try await writer.write { db in
            let own = try String.fetchOne(db, sql: "SELECT email FROM account WHERE id = ?", arguments: [accountId])?.lowercased()
            var states = try db.autocryptPeers(accountId: accountId, addresses: headers.map { $0.address.lowercased() })
            for header in headers {
                let address = header.address.lowercased()
                guard address != own else { continue }  // the account's own key, gossiped back to it
                let next = AutocryptPeerState.gossiping(header, effectiveDate: effectiveDate, into: states[address])
                guard next != states[address] else { continue }
                states[address] = next
                try db.saveAutocryptPeer(next, accountId: accountId)
            }
        }
    }

    public func receive(_ receipt: AutocryptReceipt, accountId: String) async throws {
        try await writer.write { db in try db.receiveAutocrypt([receipt], accountId: accountId) }
    }
}
