import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailIMAP
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    @Suite("IDLEMonitorUseCase (AC-F-05, NOTIF-21)")
    struct IDLEMonitorTests {
        /// Reads a monitor's events in the background; tests wait for the ones they expect.
        final class EventLog: Sendable {
            final class Storage: Sendable {
                let events = Mutex<[IDLEMonitorEvent]>([])
            }

            private let storage = Storage()
            private let task: Task<Void, Never>

            init(_ stream: AsyncThrowingStream<IDLEMonitorEvent, any Error>) {
                let storage = self.storage
                task = Task {
                    do {
                        for try await event in stream { storage.events.withLock { $0.append(event) } }
                    } catch {}
                }
            }

            func stop() { task.cancel() }

            var all: [IDLEMonitorEvent] { storage.events.withLock { $0 } }

            var count: Int { all.count }

            /// Waits (up to `timeout`) until an event after `index` satisfies `match`.
            @discardableResult
            func wait<T>(after index: Int = 0, timeout: Duration = .seconds(30), _ match: (IDLEMonitorEvent) -> T?) async throws -> T {
                let deadline = ContinuousClock.now + timeout
                while true {
                    let current = all
                    for event in current.dropFirst(index) {
                        if let found = match(event) { return found }
                    }
                    try #require(ContinuousClock.now < deadline, "expected event did not come within \(timeout); got \(current.map(Self.summary))")
                    try await Task.sleep(for: .milliseconds(5))
                }
            }

            static func summary(_ event: IDLEMonitorEvent) -> String {
                switch event {
                case .newMail(let emails): "newMail(\(emails.map(\.subject)))"
                case .flagsChanged(let count): "flagsChanged(\(count))"
                case .expunged(let count): "expunged(\(count))"
                case .listening: "listening"
                case .watchingOtherFolders(let watch): "watchingOtherFolders(\(watch))"
                case .folderSynced(let folder, let report): "folderSynced(\(folder.path), \(report.newEmails.map(\.subject)))"
                case .disconnected(let error, _): "disconnected(\(error))"
                }
            }

            func newMail(after index: Int = 0, timeout: Duration = .seconds(30)) async throws -> [Email] {
                try await wait(after: index, timeout: timeout) { if case .newMail(let emails) = $0 { emails } else { nil } }
            }

            func listening(after index: Int = 0) async throws {
                try await wait(after: index) { if case .listening = $0 { true } else { nil } }
            }
        }

        static func monitor(_ fixture: SyncFixture, options: IDLEMonitorOptions = IDLEMonitorOptions(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1))) -> EventLog {
            EventLog(IDLEMonitorUseCase(sync: fixture.sync, options: options).events(accountId: "acct-ada"))
        }

        @Test("AC-F-05 / NOTIF-21: a message APPENDed by another connection reaches the store through IDLE (within the spec's 30 s)")
        func appendWithinTwoSeconds() async throws {
            let fixture = try await SyncFixture.start()
            try fixture.deliver(TestMessage.make("before"))
            let log = Self.monitor(fixture)
            defer { log.stop() }
            // The catch-up sync reports what was there before IDLE started.
            #expect(try await log.newMail().map(\.subject) == ["Message before"])
            try await log.listening()
            let mark = log.count

            let other = try await fixture.otherClient()
            _ = try await other.append(TestMessage.make("live"), to: "INBOX")
            let appended = ContinuousClock.now
            let emails = try await log.newMail(after: mark)
            let latency = ContinuousClock.now - appended
            #expect(emails.map(\.subject) == ["Message live"])
            #expect(emails.first?.folderTypes == [.inbox])
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("live")) != nil)
            // The spec's bound; how fast it is, is vaultmail-bench's idle-latency (a loaded
            // 2-core machine can stall a test for seconds).
            #expect(latency < .seconds(30), "APPEND → stored took \(latency)")
        }

        @Test("AC-F-05: flags set and an expunge by another client reach the store through IDLE")
        func flagsAndExpunge() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<2 { try fixture.deliver(TestMessage.make("e-\(n)")) }
            let log = Self.monitor(fixture)
            defer { log.stop() }
            _ = try await log.newMail()
            try await log.listening()
            let other = try await fixture.otherClient()
            _ = try await other.select("INBOX")

            var mark = log.count
            try await other.storeFlags([.seen], .add, uids: UIDSet([2]))
            let changed = try await log.wait(after: mark) { if case .flagsChanged(let count) = $0 { count } else { nil } }
            #expect(changed == 1)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("e-1"))?.isRead == true)

            mark = log.count
            try await other.storeFlags([.deleted], .add, uids: UIDSet([1]))
            try await other.expunge(UIDSet([1]))
            let removed = try await log.wait(after: mark) { if case .expunged(let count) = $0 { count } else { nil } }
            #expect(removed == 1)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("e-0")) == nil)
        }

        @Test("AC-F-05: IDLE is renewed on schedule (short in tests) and mail still flows across renewals")
        func renewal() async throws {
            let fixture = try await SyncFixture.start()
            let log = Self.monitor(fixture, options: IDLEMonitorOptions(renewInterval: .milliseconds(200)))
            defer { log.stop() }
            // Three IDLE starts without any event in between: two renewals.
            try await log.wait { _ in log.all.filter { if case .listening = $0 { true } else { false } }.count >= 3 ? true : nil }
            #expect(!log.all.contains { if case .disconnected = $0 { true } else { false } })
            let mark = log.count
            try fixture.deliver(TestMessage.make("after-renewal"))
            #expect(try await log.newMail(after: mark).map(\.subject) == ["Message after-renewal"])
        }

        @Test("E-01: Dovecot killed mid-IDLE and restarted loses nothing: mail delivered while it was down arrives")
        func killedAndRestarted() async throws {
            let fixture = try await SyncFixture.start()
            try fixture.deliver(TestMessage.make("k-before"))
            let log = Self.monitor(fixture)
            defer { log.stop() }
            _ = try await log.newMail()
            try await log.listening()

            let mark = log.count
            fixture.server.kill()
            let reason = try await log.wait(after: mark) { if case .disconnected(let error, _) = $0 { "\(error)" } else { nil } }
            #expect(reason.contains("127.0.0.1:\(fixture.server.imapPort)"))
            try fixture.dropIntoMaildir(TestMessage.make("while-down"), name: "while-down")
            try await fixture.server.restart()

            let emails: [Email]
            do {
                emails = try await log.newMail(after: mark, timeout: .seconds(60))
            } catch {
                Issue.record("Dovecot log (end): \(fixture.server.log().suffix(4000))")
                throw error
            }
            #expect(emails.map(\.subject) == ["Message while-down"])
            // And it listens again: later mail arrives too.
            try await log.listening(after: mark)
            let later = log.count
            try fixture.deliver(TestMessage.make("k-after"))
            #expect(try await log.newMail(after: later).map(\.subject) == ["Message k-after"])
            #expect(try fixture.emailCount() == 3)
        }

        @Test("The sequence ends when its consumer stops; an unknown account ends it with an error")
        func endings() async throws {
            let fixture = try await SyncFixture.start()
            let monitor = IDLEMonitorUseCase(sync: fixture.sync)
            var iterator = monitor.events(accountId: "acct-ghost").makeAsyncIterator()
            let error = try await #require(throws: SyncError.self) { _ = try await iterator.next() }
            #expect(error.kind == .accountNotFound)

            let log = Self.monitor(fixture)
            try await log.listening()
            let mark = fixture.server.logMark()
            log.stop()
            // Stopping ended IDLE and logged the monitor's connection out.
            try await fixture.server.waitForLog(since: mark) { $0.contains("Logged out") }
        }
    }
}
