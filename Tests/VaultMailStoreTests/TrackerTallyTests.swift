import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// The tracker shield's counts in the store (issue 30, migration v15-tracker-tally): one row per
/// message, so opening it again never counts twice; per sender and overall; gone with the email.
@Suite("Tracker tally: trackers removed per message, per sender and overall (issue 30)")
struct TrackerTallyTests {
    @Test("Issue 30: a message counted again replaces its count; totals by sender, most first; an email removed takes its count along")
    func tally() async throws {
        let store = try await StoreFixture()
        let emails = try await store.add(1...3)
        let privacy = Privacy(shield: TrackerShield(rules: TrackerRules(), status: .listsMissing("test")), tally: GRDBTrackerTally(database: store.database))
        let pixel = TrackerFinding(host: "t.shop.example", kind: .invisibleImage)
        let link = TrackerFinding(host: "shop.example", kind: .trackingParameters)
        await privacy.record(emailId: emails[0].id, sender: "News@Shop.example", findings: [pixel, link, link])
        await privacy.record(emailId: emails[0].id, sender: "news@shop.example", findings: [pixel, link, link])
        await privacy.record(emailId: emails[1].id, sender: "news@shop.example", findings: [pixel])
        await privacy.record(emailId: emails[2].id, sender: "grace@example.org", findings: [link, link])
        await privacy.record(emailId: emails[2].id, sender: "grace@example.org", findings: [])
        await privacy.record(emailId: "no-such-email", sender: "x@example.org", findings: [pixel])
        #expect(await privacy.totals() == TrackerTotals(trackers: 6, messages: 3, senders: [
            .init(address: "news@shop.example", trackers: 4, messages: 2), .init(address: "grace@example.org", trackers: 2, messages: 1),
        ]))
        #expect(await privacy.totals(limit: 1).senders.map(\.address) == ["news@shop.example"])

        // Deleted twice: to Trash, then for good.
        try await store.emails.deleteThread(id: emails[2].threadId)
        try await store.emails.deleteThread(id: emails[2].threadId)
        #expect(await privacy.totals().trackers == 4)
    }
}
