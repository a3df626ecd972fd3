import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Issue 17: `notify why` for an email with no decision says truthfully why, from the daemon
/// lock and the session the daemon recorded — never "not running" while a daemon runs.
@Suite("notify why for mail never evaluated")
@MainActor
struct NotifyWhyTests {
    func session() async throws -> (CommandSession, URL, Email) {
        var made: [Email] = []
        let (session, home) = try await CLIFixture.session { accountId in
            made = [MailFixtures.email(accountId: accountId, number: 1)]
            return made
        }
        let id = try #require(made.first).id
        let email = try #require(try await session.dependencies.emails.getEmail(id: id))
        return (session, home, email)
    }

    func record(_ session: CommandSession, marks: [String: Int64], stoppedMark: Int64? = nil) throws {
        var record = DaemonSession(pid: 1, startedAt: MailFixtures.referenceDate, accountMarks: marks)
        if let stoppedMark {
            record.stoppedAt = MailFixtures.referenceDate.addingTimeInterval(60)
            record.stoppedMark = stoppedMark
        }
        try record.save(to: GRDBSettingsStorage(database: session.dependencies.database))
    }

    @Test("A daemon running: not seen yet, still in its first sync of the account, or stored before it watched the account")
    func daemonRunning() async throws {
        let (session, home, email) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let lock = try DaemonLock(path: session.home.daemonLockPath)
        defer { withExtendedLifetime(lock) {} }
        let stored = try #require(try await session.dependencies.ledger.storeMark(ofEmailId: email.id))

        try record(session, marks: [email.accountId: stored - 1])
        let waiting = try await session.why(email.id)
        #expect(waiting.contains("the daemon is running and has not evaluated it yet"), "\(waiting)")

        try record(session, marks: [:])
        #expect(try await session.why(email.id).contains("still making its first sync of this account"))

        try record(session, marks: [email.accountId: stored])
        let before = try await session.why(email.id)
        #expect(before.contains("already in the store when the daemon began watching this account"), "\(before)")
        #expect(!before.contains("not running") && !before.contains("no daemon"), "\(before)")
    }

    @Test("No daemon running: stored after it stopped, while it ran but unevaluated, or before it started")
    func noDaemon() async throws {
        let (session, home, email) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let stored = try #require(try await session.dependencies.ledger.storeMark(ofEmailId: email.id))
        #expect(try await session.why(email.id).contains("no daemon has run on this home"))

        try record(session, marks: [email.accountId: stored - 1], stoppedMark: stored - 1)
        #expect(try await session.why(email.id).contains("no daemon was running when it arrived (the daemon stopped"))

        try record(session, marks: [email.accountId: stored - 1], stoppedMark: stored)
        #expect(try await session.why(email.id).contains("stopped before evaluating it"))

        try record(session, marks: [email.accountId: stored - 1])
        #expect(try await session.why(email.id).contains("that daemon ended without evaluating it"))

        try record(session, marks: [email.accountId: stored], stoppedMark: stored)
        #expect(try await session.why(email.id).contains("stored before the last daemon started"))
    }
}
