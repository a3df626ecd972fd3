import Foundation
import Testing
import VaultMailTesting

/// The category notification filter (NOTIF-09) on real categories: with a category's
/// notifications off, the running daemon categorizes new mail before the engine decides, so
/// a promotion is held back and a person's mail still notifies (issue 15, docs/ai.md).
@Suite("Categories and notifications end to end (issue 15)", .serialized)
struct CategoryNotificationEndToEndTests {
    @Test("Promotions off: the daemon categorizes new mail first, the offer is suppressed by the category rule, a person's mail notifies",
          .timeLimit(.minutes(3)))
    func promotionsOff() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Welcome", from: "Linus <linus@example.org>"))
            try await world.addAccount()
            try await world.startDaemon()
            #expect(try await world.vaultmail(["notify", "category", "promotions", "off"]).status == 0)

            try world.deliver(EndToEndWorld.message(
                "50% off shoes today only!", from: "Shoe Shop <deals@shoes.example>",
                headers: ["List-Unsubscribe: <https://shoes.example/unsubscribe>", "Precedence: bulk"],
                body: "Every pair half price until midnight."))
            try world.deliver(EndToEndWorld.message("Lunch tomorrow?", from: "Bob <bob@example.org>", body: "Noon at the usual place?"))
            try await world.waitForNotification(mentioning: "Lunch tomorrow?")

            let offer = try await world.decision(about: "50% off shoes today only!")
            #expect(offer.rule == "category" && offer.outcome == "suppressed", "\(offer)")
            #expect(try await world.decision(about: "Lunch tomorrow?").outcome == "notified")
            let notified = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(!notified.contains { $0.contains("50% off") }, "\(notified)")

            let why = try await world.vaultmail(["why-category", String(offer.emailId.prefix(12))], errors: false)
            #expect(why.text.contains(": promotions") && why.text.contains("decided by: its headers"), "\(why.text)")
        }
    }
}
