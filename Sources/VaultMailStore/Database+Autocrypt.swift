import Foundation
import GRDB
import VaultMailCore

extension AppDatabase {
    /// Autocrypt peer states (issue 32, `AutocryptPeerState`): one row per account and peer
    /// address (lower case). Dates in milliseconds; keys as the binary OpenPGP `keydata` carried.
    /// They go with their account.
    static func createAutocryptPeers(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE autocryptPeer (
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                address TEXT NOT NULL,
                lastSeen INTEGER NOT NULL,
                autocryptTimestamp INTEGER,
                publicKey BLOB,
                preferMutual INTEGER NOT NULL DEFAULT 0,
                gossipTimestamp INTEGER,
                gossipKey BLOB,
                PRIMARY KEY (accountId, address)
            );
            """)
    }
}

extension Database {
    /// The stored states of `addresses` (lower case) for the account.
    func autocryptPeers(accountId: String, addresses: [String]) throws -> [String: AutocryptPeerState] {
        guard !addresses.isEmpty else { return [:] }
        var result: [String: AutocryptPeerState] = [:]
        for chunk in addresses.chunked(500) {
            let rows = try Row.fetchAll(self, sql: """
                SELECT * FROM autocryptPeer WHERE accountId = ? AND address IN (\(placeholders(chunk.count)))
                """, arguments: [accountId] + StatementArguments(chunk))
            for row in rows {
                let state = Self.autocryptPeer(row)
                result[state.address] = state
            }
        }
        return result
    }

    static func autocryptPeer(_ row: Row) -> AutocryptPeerState {
        AutocryptPeerState(
            address: row["address"], lastSeen: Date(millis: row["lastSeen"]),
            autocryptTimestamp: (row["autocryptTimestamp"] as Int64?).map(Date.init(millis:)),
            publicKey: (row["publicKey"] as Data?).map { [UInt8]($0) }, preferMutual: row["preferMutual"],
            gossipTimestamp: (row["gossipTimestamp"] as Int64?).map(Date.init(millis:)),
            gossipKey: (row["gossipKey"] as Data?).map { [UInt8]($0) })
    }

    func saveAutocryptPeer(_ state: AutocryptPeerState, accountId: String) throws {
        try execute(sql: """
            INSERT OR REPLACE INTO autocryptPeer
                (accountId, address, lastSeen, autocryptTimestamp, publicKey, preferMutual, gossipTimestamp, gossipKey)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [accountId, state.address, state.lastSeen.millis, state.autocryptTimestamp?.millis,
                             state.publicKey.map { Data($0) }, state.preferMutual, state.gossipTimestamp?.millis,
                             state.gossipKey.map { Data($0) }])
    }

    /// Updates the senders' peer states from stored mail (`IncomingEmail.autocrypt`,
    /// `AutocryptPeerState.receiving`), in order; the account's own mail is left out.
    func receiveAutocrypt(_ emails: [IncomingEmail]) throws {
        let byAccount = Dictionary(grouping: emails.filter { $0.autocrypt != nil }, by: \.email.accountId)
        for (accountId, emails) in byAccount {
            try receiveAutocrypt(emails.compactMap(\.autocrypt), accountId: accountId)
        }
    }

    /// Updates the senders' peer states of one account from `receipts`, in order
    /// (`AutocryptPeerState.receiving`); the account's own mail is left out.
    func receiveAutocrypt(_ receipts: [AutocryptReceipt], accountId: String) throws {
        let own = try String.fetchOne(self, sql: "SELECT email FROM account WHERE id = ?", arguments: [accountId])?.lowercased()
        guard own != nil else { return }
        let receipts = receipts.filter { $0.from.lowercased() != own }
        var states = try autocryptPeers(accountId: accountId, addresses: Array(Set(receipts.map { $0.from.lowercased() })))
        var changed = Set<String>()
        for receipt in receipts {
            let address = receipt.from.lowercased()
            guard let next = AutocryptPeerState.receiving(receipt, into: states[address]), next != states[address] else { continue }
            states[address] = next
            changed.insert(address)
        }
        for address in changed {
            if let state = states[address] { try saveAutocryptPeer(state, accountId: accountId) }
        }
    }
}
