import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Issue 32: Autocrypt peer states in the store (migration `v18-pgp`), updated in the write that
/// stores synced mail, and by gossip. Fixed dates throughout.
@Suite("Crypto: Autocrypt peers in the store (issue 32)")
struct AutocryptPeerStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let key: [UInt8] = [0x98, 0x33, 0x04, 0x01]

    static func incoming(_ number: Int, from: String, headers: [String], date: Date, store: StoreFixture) -> IncomingEmail {
        var email = MailFixtures.email(accountId: "acct-work", number: number, from: from)
        email.dateReceived = date
        email.dateSent = date
        var item = MailFixtures.incoming(email, in: [store.folder(.inbox)], uid: UInt32(number + 1))
        item.autocrypt = AutocryptReceipt(from: from, date: date, arrived: date, headers: headers)
        return item
    }

    @Test("A synced batch updates each sender's state in order (newest date wins, a message without a header moves only last seen); the account's own mail is not learnt from")
    func syncedMailUpdatesPeers() async throws {
        let store = try await StoreFixture()
        let sync = GRDBSyncRepository(database: store.database)
        let peers = GRDBAutocryptPeerRepository(database: store.database)
        let header = "addr=alice@example.org; prefer-encrypt=mutual; keydata=\(Data(Self.key).base64EncodedString())"
        let own = try #require(try await store.accounts.getAccount(id: "acct-work")).email
        let later = Self.t0.addingTimeInterval(3600)
        _ = try await sync.storeSyncBatch(SyncBatch(folderId: store.folder(.inbox).id, emails: [
            Self.incoming(1, from: "alice@example.org", headers: [header], date: Self.t0, store: store),
            Self.incoming(2, from: "Alice@example.org", headers: [], date: later, store: store),
            Self.incoming(3, from: own, headers: ["addr=\(own); keydata=\(Data(Self.key).base64EncodedString())"], date: Self.t0, store: store),
        ]))
        let all = try await peers.allPeers(accountId: "acct-work")
        #expect(all == [AutocryptPeerState(address: "alice@example.org", lastSeen: later, autocryptTimestamp: Self.t0,
                                           publicKey: Self.key, preferMutual: true)])
        #expect(try await peers.peers(accountId: "acct-work", addresses: ["ALICE@example.org"])["alice@example.org"]?.preferMutual == true)
        #expect(try await peers.allPeers(accountId: "acct-other").isEmpty)
    }

    @Test("Gossip is kept for the peer, the newest only; gossip about the account's own address is not")
    func gossipIsKept() async throws {
        let store = try await StoreFixture()
        let peers = GRDBAutocryptPeerRepository(database: store.database)
        let gossip = AutocryptHeader(address: "Bob@example.org", preferMutual: false, keyData: Self.key)
        try await peers.receiveGossip([gossip], effectiveDate: Self.t0, accountId: "acct-work")
        try await peers.receiveGossip([AutocryptHeader(address: "bob@example.org", preferMutual: false, keyData: [1, 2])],
                                      effectiveDate: Self.t0.addingTimeInterval(-60), accountId: "acct-work")
        let own = try #require(try await store.accounts.getAccount(id: "acct-work")).email
        try await peers.receiveGossip([AutocryptHeader(address: own, preferMutual: false, keyData: Self.key)], effectiveDate: Self.t0, accountId: "acct-work")
        let bob = try #require(try await peers.peers(accountId: "acct-work", addresses: ["bob@example.org"])["bob@example.org"])
        #expect(try await peers.allPeers(accountId: "acct-work").map(\.address) == ["bob@example.org"], "not the account's own address")
        #expect(bob.gossipKey == Self.key && bob.gossipTimestamp == Self.t0 && bob.publicKey == nil && bob.source == .gossip)
    }

    @Test("A header read inside an encrypted part updates the sender's state by the same rules (an older message changes nothing); the account's own mail is not learnt from")
    func protectedHeaderIsReceived() async throws {
        let store = try await StoreFixture()
        let peers = GRDBAutocryptPeerRepository(database: store.database)
        let header = "addr=carol@example.org; prefer-encrypt=mutual; keydata=\(Data(Self.key).base64EncodedString())"
        try await peers.receive(AutocryptReceipt(from: "carol@example.org", date: Self.t0, arrived: Self.t0, headers: [header]), accountId: "acct-work")
        let older = "addr=carol@example.org; keydata=\(Data([1, 2]).base64EncodedString())"
        try await peers.receive(AutocryptReceipt(from: "carol@example.org", date: Self.t0.addingTimeInterval(-60), arrived: Self.t0, headers: [older]),
                                accountId: "acct-work")
        let own = try #require(try await store.accounts.getAccount(id: "acct-work")).email
        try await peers.receive(AutocryptReceipt(from: own, date: Self.t0, arrived: Self.t0, headers: ["addr=\(own); keydata=\(Data(Self.key).base64EncodedString())"]),
                                accountId: "acct-work")
        #expect(try await peers.allPeers(accountId: "acct-work")
                == [AutocryptPeerState(address: "carol@example.org", lastSeen: Self.t0, autocryptTimestamp: Self.t0, publicKey: Self.key, preferMutual: true)])
    }
}
