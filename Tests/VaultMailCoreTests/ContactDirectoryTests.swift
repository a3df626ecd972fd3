import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@Suite("Recipient suggestions (AC-U-09)")
struct ContactDirectoryTests {
    struct FixedContacts: ContactSource {
        var people: [Contact]
        func contacts() async throws -> [Contact] { people }
    }

    let now = MailFixtures.referenceDate
    func days(_ n: Double) -> Date { now.addingTimeInterval(-n * 86_400) }

    @Test("People written to often and lately come first; then those who wrote; robots never")
    func ranking() async {
        let directory = ContactDirectory(source: FixedContacts(people: [
            Contact(email: "alice.old@example.com", name: "Alice Old", sentCount: 3, lastSent: days(400)),
            Contact(email: "alice@example.com", name: "Alice Liddell", sentCount: 5, lastSent: days(2)),
            Contact(email: "alicia@example.org", name: "Alicia Keys", receivedCount: 40, lastReceived: days(1)),
            Contact(email: "no-reply@alerts.example.com", name: "Alerts", receivedCount: 300, lastReceived: days(0)),
        ]), clock: FixedClock(now))
        let found = await directory.suggestions(for: "ali")
        #expect(found.map(\.email) == ["alice@example.com", "alicia@example.org", "alice.old@example.com"])
        #expect(await directory.suggestions(for: "aler").isEmpty, "a no-reply sender is suggested")
    }

    @Test("Issue 29: robots and newsletters stay out of the suggestions unless the user wrote to them")
    func robotsAndNewsletters() async {
        let directory = ContactDirectory(source: FixedContacts(people: [
            Contact(email: "news@shop.example", name: "Shop News", receivedCount: 30, lastReceived: days(0), bulkCount: 30),
            Contact(email: "newsdesk@paper.example", name: "Newsdesk", sentCount: 1, lastSent: days(3), receivedCount: 40, bulkCount: 40),
            Contact(email: "nora@example.org", name: "Nora News", receivedCount: 5, lastReceived: days(1), bulkCount: 2),
            Contact(email: "noreply@news.example", name: "News robot", receivedCount: 9, lastReceived: days(0)),
            Contact(email: "no-reply@newsletter.example", name: "Newsletter", sentCount: 2, lastSent: days(9)),
        ]), clock: FixedClock(now))
        let found = await directory.suggestions(for: "news").map(\.email)
        // A list sender the user wrote to stays; a person with some list mail stays; the rest are out.
        #expect(found == ["no-reply@newsletter.example", "newsdesk@paper.example", "nora@example.org"])
        #expect(await directory.suggestions(for: "shop").isEmpty, "a newsletter never written to is suggested")
    }

    @Test("Any word of the name or address matches, without case or accents; every query word must")
    func matching() async {
        let directory = ContactDirectory(source: FixedContacts(people: [
            Contact(email: "jose.garcia@correo.es", name: "José García", sentCount: 1, lastSent: days(1)),
            Contact(email: "g.hopper@navy.mil", name: "Grace Hopper", sentCount: 1, lastSent: days(1)),
        ]), clock: FixedClock(now))
        #expect(await directory.suggestions(for: "jose").map(\.email) == ["jose.garcia@correo.es"])
        #expect(await directory.suggestions(for: "GARC").map(\.email) == ["jose.garcia@correo.es"])
        #expect(await directory.suggestions(for: "correo").map(\.email) == ["jose.garcia@correo.es"])
        #expect(await directory.suggestions(for: "grace hop").map(\.email) == ["g.hopper@navy.mil"])
        #expect(await directory.suggestions(for: "grace jose").isEmpty)
        #expect(await directory.suggestions(for: "  ").isEmpty)
    }

    @Test("After invalidate() the people are read again")
    func invalidation() async throws {
        actor Calls { var count = 0; func add() { count += 1 } }
        struct Counting: ContactSource {
            let calls: Calls
            func contacts() async throws -> [Contact] {
                await calls.add()
                return [Contact(email: "x\(await calls.count)@example.com", sentCount: 1, lastSent: Date())]
            }
        }
        let calls = Calls()
        let directory = ContactDirectory(source: Counting(calls: calls))
        #expect(await directory.suggestions(for: "x1").count == 1)
        #expect(await directory.suggestions(for: "x").count == 1)
        #expect(await calls.count == 1)
        await directory.invalidate()
        #expect(await directory.suggestions(for: "x").map(\.email) == ["x1@example.com"], "the old list answers while the new one loads")
        try await waitUntil("the new list read") { await directory.suggestions(for: "x2").map(\.email) == ["x2@example.com"] }
    }
}
