import Foundation
import Testing
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("Desktop notifications when the desktop is not there", .serialized)
struct DesktopFailureTests {
    func elapsed(_ body: () async throws -> Void) async -> (Duration, (any Error)?) {
        let clock = ContinuousClock()
        var failure: (any Error)?
        let duration = await clock.measure {
            do { try await body() } catch { failure = error }
        }
        return (duration, failure)
    }

    @Test("No session bus: a clear error at once, never a stall")
    func noBus() async throws {
        var configuration = DBusNotificationCenter.Configuration()
        configuration.environment = [:]
        let center = DBusNotificationCenter(configuration: configuration)
        let request = NotificationContentBuilder.request(for: MailFixtures.email(accountId: "a", number: 1))
        let (duration, error) = await elapsed { try await center.add(request) }
        let failure = try #require(error as? DesktopNotificationError)
        guard case .noSessionBus(let message) = failure else { Issue.record("got \(failure)"); return }
        #expect(message.contains("DBUS_SESSION_BUS_ADDRESS"))
        #expect(duration < .seconds(20), "far from sd-bus's 25-second default, even on a loaded machine")
        #expect(await center.authorizationStatus() == .denied)
        configuration.busAddress = "unix:path=/nonexistent/vaultmail/bus"
        let (_, second) = await elapsed { try await DBusNotificationCenter(configuration: configuration).add(request) }
        #expect("\(second!)".contains("/nonexistent/vaultmail/bus"))
    }

    @Test("No notification server: a clear error at once; decisions and the badge go on; posting resumes when a server appears")
    func noServerThenServer() async throws {
        let desktop = try await DesktopFixture(startServer: false)
        let first = try await desktop.email(1, thread: "T1")
        let clock = ContinuousClock()
        let duration = await clock.measure { await desktop.sync([first]) }
        #expect(duration < .seconds(20), "far from sd-bus's 25-second default, even on a loaded machine")
        #expect(desktop.center.lastError == .noServer)
        #expect("\(DesktopNotificationError.noServer)".contains("org.freedesktop.Notifications"))
        // The settings and `notify status` say it in words, the bus name only in the detail (issue 29).
        let problem = await desktop.center.status().problem
        #expect(problem?.words == DesktopNotificationError.noServer.plainWords)
        #expect(problem?.words.contains("org.freedesktop") == false && problem?.detail?.contains("org.freedesktop.Notifications") == true)
        #expect(try await desktop.app.notificationLedger.decision(forEmailId: first.id)?.outcome == .failed)
        #expect(desktop.app.notificationService.badgeCount == 1)
        #expect(desktop.center.badgeCount == 1)
        #expect(await desktop.center.authorizationStatus() == .denied)

        desktop.server = try await RecordingNotificationServer.start(on: desktop.bus)
        try await waitUntil { await desktop.center.authorizationStatus() == .authorized }
        let second = try await desktop.email(2, thread: "T2")
        await desktop.sync([second])
        #expect(try await desktop.notifyCall()["summary"] as? String == "Ada Lovelace")
        #expect(try await desktop.app.notificationLedger.decision(forEmailId: second.id)?.outcome == .notified)
    }

    @Test("A hung server: Notify fails after the short timeout, then fails fast instead of stalling each post")
    func hungServer() async throws {
        let desktop = try await DesktopFixture(hang: true, timeout: .seconds(3))
        let first = try await desktop.email(1, thread: "T1")
        let clock = ContinuousClock()
        let firstPost = await clock.measure { await desktop.sync([first]) }
        #expect(firstPost >= .milliseconds(2900))
        #expect(firstPost < .seconds(20))
        #expect(desktop.center.lastError == .serverTimeout(seconds: 3))
        #expect("\(DesktopNotificationError.serverTimeout(seconds: 3))".contains("did not answer within 3 s"))
        // Two more posts fail at once: the hung server is not asked again (it records every
        // Notify it gets), so neither waits out a timeout, however loaded the machine.
        let batch = try await [desktop.email(2, thread: "T2"), desktop.email(3, thread: "T3")]
        let later = await clock.measure { await desktop.sync(batch) }
        #expect(desktop.server?.calls("Notify").count == 1, "asked the hung server again")
        #expect(later < .seconds(20))
        #expect(try await desktop.app.notificationLedger.decision(forEmailId: batch[1].id)?.rule == .centerUnavailable)
        #expect(desktop.app.notificationService.badgeCount == 3)
    }

    @Test("NOTIF-02: authorized when a server owns the name, denied while the user has notifications off")
    func authorizationFollowsSettings() async throws {
        let bus = try await DBusDaemon.start()
        let server = try await RecordingNotificationServer.start(on: bus)
        defer { server.stop() }
        var configuration = DBusNotificationCenter.Configuration()
        configuration.busAddress = bus.address
        let settings = SettingsStore(storage: InMemorySettingsStorage())
        let center = DBusNotificationCenter(configuration: configuration, settings: settings)
        #expect(await center.authorizationStatus() == .notDetermined)
        #expect(try await center.requestAuthorization(options: [.alert, .badge, .sound]))
        #expect(await center.authorizationStatus() == .authorized)
        settings.notificationsEnabled = false
        #expect(await center.authorizationStatus() == .denied)
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
    }

    @Test("Posting never starts a notification server by D-Bus activation")
    func noAutoActivation() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-activated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        let bus = try await DBusDaemon.start(activatableServices: ["org.freedesktop.Notifications": "/usr/bin/touch \(marker.path)"])
        var configuration = DBusNotificationCenter.Configuration()
        configuration.busAddress = bus.address
        let center = DBusNotificationCenter(configuration: configuration)
        let request = NotificationContentBuilder.request(for: MailFixtures.email(accountId: "a", number: 1))
        await #expect(throws: DesktopNotificationError.noServer) { try await center.add(request) }
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
        // Had anything asked for activation, the daemon would have run the service at once.
        let probe = try await DBusConnection.connect(address: bus.address)
        _ = try await probe.nameHasOwner("org.freedesktop.Notifications")
        try? await waitUntil(timeout: .seconds(1)) { FileManager.default.fileExists(atPath: marker.path) }
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        // The control: explicit activation does run it (the program never claims the name,
        // so the daemon's answer is not awaited; the marker is the evidence).
        _ = try? await probe.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                  member: "StartServiceByName", arguments: [.string("org.freedesktop.Notifications"), .uint32(0)],
                                  timeout: .milliseconds(100))
        try await waitUntil { FileManager.default.fileExists(atPath: marker.path) }
    }
}
