import Foundation
import Testing
@testable import VaultMailCore
import VaultMailTesting

/// Core's rule for changes kept while the server cannot be reached (issue 29), without a server:
/// the order, what stops a replay and what never blocks the queue. The same rule against a real
/// Dovecot: `OfflineTriageTests`; in the browser: `WebAppOfflineTests`.
@Suite("PendingChanges: kept in order, replayed once, never blocked (issue 29)")
struct PendingChangesTests {
    let account = MailFixtures.account(name: "work", email: "me@example.com")

    func world() async throws -> (MockEmailRepository, ScriptedTriageServer, PendingChanges) {
        let emails = MockEmailRepository()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let inbox = try #require(folders.first { $0.folderType == .inbox })
        try await emails.saveFolders(folders)
        let messages = (1...3).map { MailFixtures.email(accountId: account.id, number: $0, threadId: "T\($0)", subject: "Subject \($0)") }
        _ = try await emails.saveEmails(messages.map { MailFixtures.incoming($0, in: [inbox]) })
        let server = ScriptedTriageServer(local: emails, pendingChanges: InMemoryPendingChangeRepository())
        return (emails, server, try #require(PendingChanges(server: server)))
    }

    @Test("Issue 29: kept changes are shown here at once and replayed oldest first; an unreachable server leaves them waiting")
    func orderAndUnreachable() async throws {
        let (emails, server, pending) = try await world()
        let star = try await pending.keep(.star, threadId: "T1")
        let read = try await pending.keep(.read, threadId: "T2")
        #expect(star.summary == "Starred “Subject 1”" && read.summary == "Marked “Subject 2” read")
        #expect(try await emails.getThread(id: "T1")?.isStarred == true)
        #expect(try await emails.getThread(id: "T2")?.unreadCount == 0)
        #expect(PendingChanges.waitingText(2) == "2 changes waiting for the server")

        let offline = await pending.replay()
        #expect(offline.done.isEmpty && offline.problems.isEmpty && offline.waiting == 2)
        await server.set(reachable: true)
        let online = await pending.replay()
        #expect(online.done.map(\.threadId) == ["T1", "T2"])
        #expect(await server.replayed.map(\.action) == [.star, .read])
        let again = await pending.replay()
        #expect(online.waiting == 0 && again.done.isEmpty, "replayed once")
    }

    @Test("Issue 29: a change the server refuses waits (blocking the account's later ones, for order) and after three refusals is dropped with words; the queue goes on")
    func refusalsNeverBlockForGood() async throws {
        let (_, server, pending) = try await world()
        _ = try await pending.keep(.archive, threadId: "T1")
        _ = try await pending.keep(.star, threadId: "T2")
        await server.set(reachable: true, refusing: ["T1"])
        for attempt in 1..<PendingChanges.maximumRefusals {
            let report = await pending.replay()
            #expect(report.done.isEmpty && report.waiting == 2, "attempt \(attempt): the later change waits behind it")
        }
        let last = await pending.replay()
        #expect(last.problems == ["Archived “Subject 1” was not done on the server: it refused 3 times (NO [CANNOT] refused). The next sync shows the conversation as the server has it."])
        #expect(last.done.map(\.threadId) == ["T2"] && last.waiting == 0)
    }
}
