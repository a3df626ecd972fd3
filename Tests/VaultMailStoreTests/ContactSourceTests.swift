import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@Suite("The people in the user's mail (AC-U-09)")
struct ContactSourceTests {
    @Test("Recipients of sent mail counted with their latest name; senders of received mail, with how much was bulk (issue 29); the user's own addresses never")
    func contacts() async throws {
        let store = try await StoreFixture()
        let me = try #require(try await store.accounts.getAccounts().first).email
        try await store.add(0..<3, in: [.sent]) { email in
            email.fromAddress = me
            email.toAddresses = [Participant(name: email.subject == "Message 2" ? "Alice L." : "Alice", email: "Alice@Example.com")]
            email.ccAddresses = [Participant(email: "bob@example.com"), Participant(name: "Me", email: me)]
        }
        try await store.add(3..<5) { email in
            email.fromAddress = "alice@example.com"
            email.fromName = "Alice Liddell"
        }
        try await store.add(5..<6) { email in
            email.fromAddress = "carol@example.org"
            email.fromName = nil
        }
        try await store.add(6..<9) { email in
            email.fromAddress = "news@shop.example"
            email.aiCategory = email.subject == "Message 8" ? AICategory.primary.rawValue : AICategory.promotions.rawValue
        }
        let people = Dictionary(uniqueKeysWithValues: try await GRDBContactSource(database: store.database).contacts().map { ($0.email.lowercased(), $0) })
        #expect(Set(people.keys) == ["alice@example.com", "bob@example.com", "carol@example.org", "news@shop.example"])
        #expect(people["news@shop.example"]?.receivedCount == 3 && people["news@shop.example"]?.bulkCount == 2, "mail sorted out of Primary counted")
        #expect(people["alice@example.com"]?.bulkCount == 0)
        let alice = try #require(people["alice@example.com"])
        #expect(alice.sentCount == 3 && alice.receivedCount == 2)
        #expect(alice.name == "Alice L.", "the name of the latest message sent")
        #expect(alice.lastSent == MailFixtures.referenceDate.addingTimeInterval(120))
        #expect(people["bob@example.com"]?.sentCount == 3)
        #expect(people["carol@example.org"]?.receivedCount == 1 && people["carol@example.org"]?.name == nil)
    }
}
