import Foundation
import Testing
import VaultMailTesting

/// The daemon's life as a user sees it: started, joined by a second one, stopped, restarted,
/// and its mail server crashing under it.
@Suite("vaultmail daemon: start, stop, restart, server crash (issue 7)", .serialized)
struct DaemonLifecycleTests {
    @Test("New mail notifies (well within the 30 s the spec allows); a second daemon refuses; SIGTERM stops it within 5 s; a restart announces nothing twice")
    func lifecycle() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Already there"))
            try await world.addAccount()
            try await world.startDaemon()
            #expect(world.notifications.calls("Notify").isEmpty, "the first sync never notifies")

            let second = try await world.vaultmail(["daemon"])
            #expect(second.status == 1)
            #expect(second.text.contains("already running"), "\(second.text)")

            let clock = ContinuousClock()
            let start = clock.now
            try world.deliver(EndToEndWorld.message("Fresh news"))
            let notify = try await world.waitForNotification(mentioning: "Fresh news")
            let latency = clock.now - start
            print("APPEND → Notify through the daemon: \(latency)")
            // The spec's bound (IDLE: notified within 30 seconds of arrival). How fast it is
            // (about 0.5 s, Dovecot's own IDLE delay) is measured by vaultmail-bench e2e
            // (append-to-notify-vaultmail), not here: a loaded 2-core machine can stall any
            // test for seconds.
            #expect(latency < .seconds(30), "APPEND → Notify took \(latency)")
            #expect(notify["summary"] as? String == "Grace Hopper")

            let stopped = try await world.stopDaemon()
            #expect(stopped.status == 0)
            #expect(stopped.seconds < 5)

            try await world.startDaemon()
            try world.deliver(EndToEndWorld.message("After the restart"))
            try await world.waitForNotification(mentioning: "After the restart")
            let subjects = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(subjects.filter { $0.contains("Fresh news") }.count == 1, "nothing is announced twice after a restart: \(subjects)")
            #expect(!subjects.contains { $0.contains("Already there") })
        }
    }

    @Test("Dovecot killed mid-IDLE and restarted: the daemon reconnects and loses nothing")
    func serverCrash() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            try world.deliver(EndToEndWorld.message("Before the crash"))
            try await world.waitForNotification(mentioning: "Before the crash")

            world.dovecot.kill()
            try await world.waitForLog("connection lost")
            try await world.dovecot.restart()
            // Delivered before the daemon is back in IDLE: found by its catch-up sync.
            try world.deliver(EndToEndWorld.message("While it was down"))
            try await world.waitForNotification(mentioning: "While it was down", timeout: .seconds(120))
            try world.deliver(EndToEndWorld.message("Back in IDLE"))
            try await world.waitForNotification(mentioning: "Back in IDLE", timeout: .seconds(120))

            let bodies = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(bodies.filter { $0.contains("Before the crash") }.count == 1, "\(bodies)")
            let inbox = try await world.inboxThreads().map(\.subject)
            #expect(Set(inbox) == ["Before the crash", "While it was down", "Back in IDLE"])
            #expect(try await world.stopDaemon().status == 0)
        }
    }
}
