import Foundation
import Testing
@testable import VaultMailCore

/// Autocrypt Level 1 peer state (issue 32): the update rules on receipt (§2.3), key gossip,
/// the header's parsing (§2.1) and the recommendation (§2.4). Every date is fixed.
@Suite("Crypto: Autocrypt peer state and recommendation (issue 32)")
struct AutocryptPeerStateTests {
    static let day: TimeInterval = 24 * 60 * 60
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let keyA: [UInt8] = [0x98, 0x33, 0x04, 0x01]
    static let keyB: [UInt8] = [0x98, 0x33, 0x04, 0x02]

    static func header(_ address: String = "alice@example.org", mutual: Bool = true, key: [UInt8] = keyA) -> String {
        "addr=\(address);\(mutual ? " prefer-encrypt=mutual;" : "") keydata=\(Data(key).base64EncodedString())"
    }

    static func receipt(_ headers: [String], date: Date, arrived: Date? = nil, from: String = "Alice@Example.org") -> AutocryptReceipt {
        AutocryptReceipt(from: from, date: date, arrived: arrived ?? date, headers: headers)
    }

    @Test("A header is read: addr, prefer-encrypt, keydata with white space; unknown attributes starting with _ are ignored, others make it unusable, as do a missing addr or keydata")
    func parsesHeaders() throws {
        let folded = "addr=alice@example.org; prefer-encrypt=mutual; _extra=1; keydata=\(Data(Self.keyA).base64EncodedString().prefix(4))\r\n \(Data(Self.keyA).base64EncodedString().dropFirst(4))"
        let header = try #require(AutocryptHeader.parse(folded))
        #expect(header == AutocryptHeader(address: "alice@example.org", preferMutual: true, keyData: Self.keyA))
        #expect(AutocryptHeader.parse("addr=alice@example.org; prefer-encrypt=nopreference; keydata=mDME")?.preferMutual == false)
        #expect(AutocryptHeader.parse("addr=alice@example.org; critical=1; keydata=mDME") == nil)
        #expect(AutocryptHeader.parse("prefer-encrypt=mutual; keydata=mDME") == nil)
        #expect(AutocryptHeader.parse("addr=alice@example.org; prefer-encrypt=mutual") == nil)
        #expect(AutocryptHeader.parse("addr=alice@example.org; keydata=!!not base64!!") == nil)
    }

    @Test("A first message with a header makes the state: last seen, Autocrypt timestamp, key and prefer-encrypt from it; the address in lower case")
    func firstHeader() throws {
        let state = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header()], date: Self.t0), into: nil))
        #expect(state == AutocryptPeerState(address: "alice@example.org", lastSeen: Self.t0, autocryptTimestamp: Self.t0,
                                            publicKey: Self.keyA, preferMutual: true))
        #expect(state.source == .autocrypt)
    }

    @Test("A later message without a header resets nothing: only last seen moves")
    func withoutHeaderOnlyLastSeen() throws {
        let first = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header()], date: Self.t0), into: nil))
        let later = Self.t0.addingTimeInterval(Self.day)
        let next = try #require(AutocryptPeerState.receiving(Self.receipt([], date: later), into: first))
        var expected = first
        expected.lastSeen = later
        #expect(next == expected)
    }

    @Test("Only the newest effective date counts: an older message with another key changes nothing; an older one without a header does not move last seen back")
    func onlyNewestCounts() throws {
        let newer = Self.t0.addingTimeInterval(10 * Self.day)
        let state = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header()], date: newer), into: nil))
        #expect(AutocryptPeerState.receiving(Self.receipt([Self.header(mutual: false, key: Self.keyB)], date: Self.t0), into: state) == state)
        #expect(AutocryptPeerState.receiving(Self.receipt([], date: Self.t0), into: state) == state)
        let newest = newer.addingTimeInterval(Self.day)
        let replaced = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header(mutual: false, key: Self.keyB)], date: newest), into: state))
        #expect(replaced.publicKey == Self.keyB && !replaced.preferMutual && replaced.autocryptTimestamp == newest && replaced.lastSeen == newest)
    }

    @Test("The effective date is the Date, or the arrival when the Date is later (a Date in the future does not win)")
    func effectiveDateIsNeverAfterArrival() throws {
        let arrived = Self.t0
        let future = Self.t0.addingTimeInterval(365 * Self.day)
        let state = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header()], date: future, arrived: arrived), into: nil))
        #expect(state.lastSeen == arrived && state.autocryptTimestamp == arrived)
        let early = Self.t0.addingTimeInterval(-Self.day)
        #expect(Self.receipt([], date: early, arrived: arrived).effectiveDate == early)
        #expect(AutocryptReceipt(from: "a@b", date: nil, arrived: arrived, headers: []).effectiveDate == arrived)
    }

    @Test("A header whose addr is not From is ignored (the message still counts as seen); two headers for From count as none")
    func mismatchedOrDuplicateHeaders() throws {
        let other = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header("mallory@example.org")], date: Self.t0), into: nil))
        #expect(other == AutocryptPeerState(address: "alice@example.org", lastSeen: Self.t0))
        #expect(other.targetKey == nil)
        let twice = Self.receipt([Self.header(), Self.header(key: Self.keyB)], date: Self.t0)
        #expect(twice.senderHeader == nil)
        #expect(AutocryptPeerState.receiving(twice, into: nil)?.publicKey == nil)
        // One for From and one for someone else: the one for From is used.
        let mixed = Self.receipt([Self.header("mallory@example.org", key: Self.keyB), Self.header()], date: Self.t0)
        #expect(mixed.senderHeader?.keyData == Self.keyA)
    }

    @Test("Gossip keeps the newest gossiped key and its date; it changes neither the peer's own key nor last seen")
    func gossip() throws {
        let own = try #require(AutocryptPeerState.receiving(Self.receipt([Self.header()], date: Self.t0), into: nil))
        let gossip = AutocryptHeader(address: "alice@example.org", preferMutual: false, keyData: Self.keyB)
        let later = Self.t0.addingTimeInterval(Self.day)
        let next = AutocryptPeerState.gossiping(gossip, effectiveDate: later, into: own)
        #expect(next.gossipKey == Self.keyB && next.gossipTimestamp == later)
        #expect(next.publicKey == Self.keyA && next.lastSeen == Self.t0 && next.targetKey == Self.keyA)
        let older = AutocryptHeader(address: "alice@example.org", preferMutual: false, keyData: Self.keyA)
        #expect(AutocryptPeerState.gossiping(older, effectiveDate: Self.t0, into: next) == next)
        let onlyGossip = AutocryptPeerState.gossiping(gossip, effectiveDate: later, into: nil)
        #expect(onlyGossip.targetKey == Self.keyB && onlyGossip.source == .gossip && onlyGossip.publicKey == nil)
    }

    @Test("Recommendation: no state or no key → disable; mutual and fresh → encrypt; no preference → available; header older than 35 days before last seen → discourage; only gossip → discourage; a reply to encrypted mail → encrypt")
    func recommendation() throws {
        #expect(AutocryptRecommendation.of(nil) == .disable)
        #expect(AutocryptRecommendation.of(AutocryptPeerState(address: "a@b", lastSeen: Self.t0)) == .disable)
        let mutual = AutocryptPeerState(address: "a@b", lastSeen: Self.t0, autocryptTimestamp: Self.t0, publicKey: Self.keyA, preferMutual: true)
        #expect(AutocryptRecommendation.of(mutual) == .encrypt)
        #expect(AutocryptRecommendation.of(mutual, ownMutual: false) == .available)
        var none = mutual
        none.preferMutual = false
        #expect(AutocryptRecommendation.of(none) == .available)
        #expect(AutocryptRecommendation.of(none, repliesToEncrypted: true) == .encrypt)
        var stale = mutual
        stale.lastSeen = Self.t0.addingTimeInterval(36 * Self.day)
        #expect(AutocryptRecommendation.of(stale) == .discourage)
        stale.lastSeen = Self.t0.addingTimeInterval(35 * Self.day)
        #expect(AutocryptRecommendation.of(stale) == .encrypt, "exactly 35 days is not more than 35")
        let gossiped = AutocryptPeerState(address: "a@b", lastSeen: Self.t0, gossipTimestamp: Self.t0, gossipKey: Self.keyB)
        #expect(AutocryptRecommendation.of(gossiped) == .discourage)
        #expect(AutocryptRecommendation.of(gossiped, repliesToEncrypted: true) == .encrypt)
    }

    @Test("Recommendation for several recipients: disable if any is, encrypt only if all are, else discourage if any is, else available")
    func combined() {
        #expect(AutocryptRecommendation.combined([]) == .disable)
        #expect(AutocryptRecommendation.combined([.encrypt, .encrypt]) == .encrypt)
        #expect(AutocryptRecommendation.combined([.encrypt, .available]) == .available)
        #expect(AutocryptRecommendation.combined([.encrypt, .discourage, .available]) == .discourage)
        #expect(AutocryptRecommendation.combined([.encrypt, .disable]) == .disable)
    }

    @Test("The composer's line and the tool's note: available and discourage say encryption is possible and stay plain")
    func planWords() {
        let available = CryptoPlan(encrypt: false, sign: false, recommended: false, answersEncrypted: false, missingKeys: [], recommendation: .available)
        #expect(available.summary.contains("encryption is possible") && available.sentNote == available.summary)
        let doubtful = CryptoPlan(encrypt: false, sign: false, recommended: false, answersEncrypted: false, missingKeys: [],
                                  recommendation: .discourage, doubtfulKeys: ["bob@example.org"])
        #expect(doubtful.summary.contains("bob@example.org") && doubtful.summary.contains("may be out of date"))
        let encrypted = CryptoPlan(encrypt: true, sign: true, recommended: true, answersEncrypted: false, missingKeys: [], recommendation: .encrypt)
        #expect(encrypted.sentNote == "Encrypted and signed.")
        let none = CryptoPlan(encrypt: false, sign: false, recommended: false, answersEncrypted: false, missingKeys: ["x@y"])
        #expect(none.sentNote == nil)
    }
}
