import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

extension DovecotTests {
    @Suite("IDLE")
    struct IdleTests {
        /// Waits (on a condition, with a generous limit) until `connection` is in IDLE.
        static func waitUntilIdling(_ connection: IMAPConnection) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !connection.isIdling {
                try #require(ContinuousClock.now < deadline, "IDLE did not start within 20 s")
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        @Test("AC-F-05: IDLE reports a message APPENDed by another connection (within the spec's 30 s)")
        func seesAppend() async throws {
            let fixture = try await DovecotFixture.start()
            let watcher = try await fixture.loggedIn(.tls)
            let status = try await watcher.select("INBOX")
            let idle = Task { try await watcher.idle(timeout: .seconds(60)) }
            try await Self.waitUntilIdling(watcher)

            let sender = try await fixture.loggedIn()
            _ = try await sender.append(DovecotFixture.message(1), to: "INBOX")
            let appended = ContinuousClock.now
            let result = try await idle.value
            let latency = ContinuousClock.now - appended
            #expect(result.ending == .events)
            #expect(result.events.contains(.exists(count: status.exists + 1)))
            // The spec's bound; how fast (Dovecot's 0.5 s IDLE delay and little more) is
            // vaultmail-bench's idle-latency: a loaded 2-core machine can stall a test for seconds.
            #expect(latency < .seconds(30), "IDLE reported the new message after \(latency)")
            // The connection is still usable afterwards.
            #expect(try await watcher.searchUIDs() == [1])
        }

        @Test("AC-F-05: IDLE reports flag changes and expunges made by another client")
        func seesFlagsAndExpunge() async throws {
            let fixture = try await DovecotFixture.start()
            let watcher = try await fixture.loggedIn()
            for number in 1...2 { _ = try await watcher.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await watcher.select("INBOX")
            let other = try await fixture.loggedIn()
            _ = try await other.select("INBOX")

            var idle = Task { try await watcher.idle(timeout: .seconds(60)) }
            try await Self.waitUntilIdling(watcher)
            try await other.storeFlags([.seen, .flagged], .add, uids: UIDSet([2]))
            var result = try await idle.value
            let change = try #require(
                result.events.first { if case .flagsChanged = $0 { true } else { false } })
            guard case .flagsChanged(let sequenceNumber, _, let flags, let modSeq) = change else { return }
            #expect(sequenceNumber == 2)
            #expect(flags == [.seen, .flagged])
            #expect(modSeq != nil)  // CONDSTORE is on: the server includes MODSEQ

            idle = Task { try await watcher.idle(timeout: .seconds(60)) }
            try await Self.waitUntilIdling(watcher)
            try await other.storeFlags([.deleted], .add, uids: UIDSet([1]))
            try await other.expunge(UIDSet([1]))
            var events = try await idle.value.events
            // The flag change and the expunge may come in one IDLE or two.
            if !events.contains(.expunged(sequenceNumber: 1)) {
                result = try await watcher.idle(timeout: .seconds(10))
                events += result.events
            }
            #expect(events.contains(.expunged(sequenceNumber: 1)))
        }

        @Test("AC-F-05: stopIdle() from another task ends IDLE promptly; the connection stays usable")
        func stopFromAnotherTask() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            _ = try await imap.select("INBOX")
            let idle = Task { try await imap.idle(timeout: .seconds(120)) }
            try await Self.waitUntilIdling(imap)
            let stopped = ContinuousClock.now
            imap.stopIdle()
            let result = try await idle.value
            let delay = ContinuousClock.now - stopped
            #expect(result.ending == .stopped)
            // Promptly: far short of the IDLE's 120 s limit, with room for a loaded machine.
            #expect(delay < .seconds(30), "IDLE took \(delay) to stop")
            #expect(!imap.isIdling)
            #expect(try await imap.noop().isEmpty)
            #expect(try await imap.select("INBOX").exists == 0)
        }

        @Test("AC-F-05: cancelling the task waiting in IDLE ends it promptly")
        func cancelTask() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            _ = try await imap.select("INBOX")
            let idle = Task { try await imap.idle(timeout: .seconds(120)) }
            try await Self.waitUntilIdling(imap)
            let cancelled = ContinuousClock.now
            idle.cancel()
            let result = try await idle.value
            #expect(result.ending == .stopped)
            #expect(ContinuousClock.now - cancelled < .seconds(30), "far short of the IDLE's 120 s limit")
        }

        @Test("AC-F-05: a stop requested just before IDLE starts is not lost; IDLE also ends at its time limit")
        func stopBeforeStartAndTimeout() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            _ = try await imap.select("INBOX")
            imap.stopIdle()
            let started = ContinuousClock.now
            #expect(try await imap.idle(timeout: .seconds(60)).ending == .stopped)
            #expect(ContinuousClock.now - started < .seconds(30), "far short of the IDLE's 60 s limit")
            // The stop was used up: the next IDLE runs until its limit.
            let result = try await imap.idle(timeout: .milliseconds(300))
            #expect(result.ending == .timeout)
            #expect(result.events.isEmpty)
        }

        @Test("AC-F-05: IDLE called again after each report (as the daemon listens) sees every new message, and stops on stopIdle()")
        func idleAgainAfterEachReport() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            _ = try await imap.select("INBOX")
            let server = fixture.server
            let listener = Task { () -> [IMAPServerEvent] in
                var events: [IMAPServerEvent] = []
                while true {
                    let result = try await imap.idle(timeout: .seconds(60))
                    events += result.events
                    if result.ending == .stopped { return events }
                    // Deliver the second message only once the first was reported.
                    if result.events.contains(.exists(count: 1)) {
                        try server.deliver(DovecotFixture.message(2), to: DovecotFixture.user)
                    }
                    if result.events.contains(.exists(count: 2)) { imap.stopIdle() }
                }
            }
            try await Self.waitUntilIdling(imap)
            try fixture.server.deliver(DovecotFixture.message(1), to: DovecotFixture.user)
            let events = try await listener.value
            #expect(events.contains(.exists(count: 1)))
            #expect(events.last == .exists(count: 2))
        }

        @Test("E-01: Dovecot killed mid-IDLE ends IDLE with an error, not a hang; reconnecting after restart works")
        func killedServer() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn(.tls)
            _ = try await imap.append(DovecotFixture.message(1), to: "INBOX")
            _ = try await imap.select("INBOX")
            let idle = Task { try await imap.idle(timeout: .seconds(120)) }
            try await Self.waitUntilIdling(imap)

            let killed = ContinuousClock.now
            fixture.server.kill()
            let outcome = await idle.result
            #expect(ContinuousClock.now - killed < .seconds(30), "far short of the IDLE's 120 s limit")
            let error = try #require(throws: IMAPError.self) { try outcome.get() }
            #expect(error.kind == .connectionLost)
            #expect(error.description.contains("127.0.0.1:\(fixture.server.imapsPort)"))
            #expect(error.description.contains("connect again"))
            #expect(await !imap.isConnected)
            let afterwards = try await #require(throws: IMAPError.self) { _ = try await imap.noop() }
            #expect(afterwards.kind == .notConnected)

            try await fixture.server.restart()
            try await imap.connect()
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            let status = try await imap.select("INBOX")
            #expect(status.exists == 1)
            let message = try await imap.fetchMessages(.all, items: .rawMessage)
            #expect(message.first?.rawMessage == DovecotFixture.message(1))
        }
    }
}

extension DovecotTests {
    @Suite("Unresponsive server")
    struct UnresponsiveServerTests {
        @Test("E-01: a server that stops answering mid-session gives a timeout error, then reconnecting works")
        func frozenServer() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await IMAPConnection.connect(to: fixture.endpoint(.plain, readTimeout: .seconds(1)))
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            _ = try await imap.select("INBOX")
            fixture.server.suspend()
            let started = ContinuousClock.now
            let error = try await #require(throws: IMAPError.self) { _ = try await imap.noop() }
            let elapsed = ContinuousClock.now - started
            fixture.server.resume()
            #expect(error.kind == .timedOut)
            #expect(error.description.contains("no answer within 1 s"))
            #expect(elapsed < .seconds(60), "gave up after \(elapsed)")  // never, without the read timeout
            #expect(await !imap.isConnected)

            try await imap.connect()
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            #expect(try await imap.select("INBOX").exists == 0)
        }
    }
}
