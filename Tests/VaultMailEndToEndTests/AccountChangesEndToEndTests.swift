import Foundation
import Testing
import VaultMailTesting

/// Accounts added or removed with the command line while the daemon runs.
@Suite("vaultmail daemon takes in account changes end to end (issue 7)", .serialized)
struct AccountChangesEndToEndTests {
    @Test("An account added beside the running daemon is watched (its first sync silent); a removed one is let go without alerts")
    func addAndRemove() async throws {
        try await EndToEndWorld.with { world in
            try world.dovecot.addUser("bob", password: EndToEndWorld.password)
            try world.deliver(EndToEndWorld.message("Bob's old mail"), to: "bob")
            try await world.addAccount()
            try await world.startDaemon()

            try await world.addAccount(name: "home", user: "bob")
            try await world.waitForLog("watching the account home")
            try await world.waitForLog("synced home")
            try world.deliver(EndToEndWorld.message("New for Bob"), to: "bob")
            try await world.waitForNotification(mentioning: "New for Bob")
            #expect(!world.notifications.calls("Notify").contains { ($0["body"] as? String)?.contains("Bob's old mail") == true },
                    "the new account's first sync does not notify")

            #expect(try await world.vaultmail(["account", "remove", "home"]).status == 0)
            try await world.waitForLog("no longer watched")
            try await world.eventually("bob's connections closed") {
                !(try world.dovecot.doveadm(["who"]).contains("bob"))
            }
            try world.deliver(EndToEndWorld.message("After removal"), to: "bob")
            try world.deliver(EndToEndWorld.message("Still for Ada"))
            try await world.waitForNotification(mentioning: "Still for Ada")
            let bodies = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(!bodies.contains { $0.contains("After removal") })
            #expect(!world.notifications.calls("Notify").contains { ($0["summary"] as? String)?.contains("needs attention") == true })
            #expect(try await world.stopDaemon().status == 0)
        }
    }
}
