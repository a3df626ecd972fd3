import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 29: triage works offline. Core's `Conversations` over the server-backed repository
    /// with the store's queue, against a Dovecot that is stopped and started again.
    @Suite("Offline triage: done here at once, replayed on the server once it answers (issue 29)")
    struct OfflineTriageTests {
        /// The graph a daemon builds over one store file: the conversations service and a sync
        /// that replays waiting changes first. A new one over the same file is a restarted daemon.
        struct Graph {
            let database: AppDatabase
            let conversations: Conversations
            let sync: SyncEmailsUseCase
            let queue: GRDBPendingChangeRepository
            let store: GRDBEmailRepository

            init(path: String, fixture: SyncFixture) throws {
                database = try AppDatabase.open(path: path)
                store = GRDBEmailRepository(database: database)
                let syncStore = GRDBSyncRepository(database: database)
                let accounts = GRDBAccountRepository(database: database)
                queue = GRDBPendingChangeRepository(database: database)
                let connections = IMAPConnectionPool(
                    credentials: FixedCredentialProvider(["acct-ada": SyncFixture.password]),
                    connectTimeout: .seconds(10), readTimeout: .seconds(30))
                let repository = IMAPEmailRepository(local: store, syncStore: syncStore, accounts: accounts,
                                                     connections: connections, pendingChanges: queue)
                conversations = Conversations(emails: repository, markReadOnOpen: { false }, withdrawNotifications: nil)
                sync = SyncEmailsUseCase(accounts: accounts, store: store, syncStore: syncStore, parser: GMimeMessageParser(),
                                         connections: connections, pendingChanges: queue)
            }

            func thread(_ id: String) async throws -> String {
                try #require(try await store.getEmail(id: TestMessage.emailId(id))).threadId
            }

            /// The folder types the email is filed in here.
            func folders(of id: String) async throws -> Set<FolderType> {
                let folders = try await store.getFolders(accountId: "acct-ada")
                let links = try await GRDBSyncRepository(database: database).links(emailIds: [TestMessage.emailId(id)])
                return Set(links.compactMap { link in folders.first { $0.id == link.folderId }?.folderType })
            }
        }

        static func start(_ ids: [String], folders: [String] = [], capabilities: [String]? = nil) async throws -> (SyncFixture, Graph, String) {
            let fixture = try await SyncFixture.start(capabilities: capabilities)
            let other = try await fixture.otherClient()
            for folder in folders { try await other.createMailbox(folder) }
            await other.logout()
            for id in ids { try fixture.deliver(TestMessage.make(id, subject: "Subject \(id)")) }
            let path = fixture.server.directory.appendingPathComponent("vaultmail-\(UUID().uuidString).sqlite").path
            let graph = try Graph(path: path, fixture: fixture)
            try await GRDBAccountRepository(database: graph.database).addAccount(try #require(try await fixture.accounts.getAccount(id: "acct-ada")))
            try await graph.sync.syncAccount(accountId: "acct-ada")
            return (fixture, graph, path)
        }

        @Test("Issue 29: archive, delete, move, read and star with the server stopped are done here at once, survive a restart, and are replayed on the server once, in order")
        func offlineThenReplayed() async throws {
            let (fixture, first, path) = try await Self.start(["o-0", "o-1", "o-2", "o-3", "o-4", "o-5"], folders: ["Projects"])
            let projects = try #require(try await first.store.getFolders(accountId: "acct-ada").first { $0.path == "Projects" })
            try await fixture.server.stop()

            let actions: [(String, ConversationAction)] = [
                ("o-0", .archive), ("o-1", .delete), ("o-2", .move(toFolderId: projects.id)), ("o-3", .read), ("o-4", .star),
            ]
            for (id, action) in actions {
                let result = await first.conversations.perform(action, on: [try await first.thread(id)])
                #expect(result.failed.isEmpty, "\(action): \(result.failed.map { "\($0.error)" })")
                #expect(result.kept.map(\.action) == [action])
            }
            // Done here at once: the lists and counts show it.
            #expect(try await first.folders(of: "o-0") == [.archive])
            #expect(try await first.folders(of: "o-1") == [.trash])
            #expect(try await first.folders(of: "o-2") == [.custom])
            #expect(try await first.store.getEmail(id: TestMessage.emailId("o-3"))?.isRead == true)
            #expect(try await first.store.getThread(id: try await first.thread("o-4"))?.isStarred == true)
            let inbox = try #require(try await first.store.getFolders(accountId: "acct-ada").first { $0.folderType == .inbox })
            #expect(try await first.store.getThreads(folderId: inbox.id, category: nil, cursor: nil, limit: 50).threads.count == 3)
            #expect(try await first.store.getUnreadCounts(folderId: inbox.id)[nil] == 2)
            let kept = try await first.queue.pending(accountId: nil)
            #expect(PendingChanges.note(Array(kept.prefix(1))) == "Archived “Subject o-0” — will be done on the server when it’s reachable.")
            #expect(try await first.queue.pending(accountId: nil).map(\.subject) == ["Subject o-0", "Subject o-1", "Subject o-2", "Subject o-3", "Subject o-4"])

            // A restart: a new graph over the same store file; the server answers again.
            let second = try Graph(path: path, fixture: fixture)
            #expect(try await second.queue.pending(accountId: nil).count == 5)
            try await fixture.server.restart()
            try await second.sync.syncAccount(accountId: "acct-ada")
            try await waitUntil("the server shows the changes") {
                try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<o-3@example.com>", "<o-4@example.com>", "<o-5@example.com>"]
            }
            #expect(try await ServerActionTests.serverMessageIds("Archive", fixture) == ["<o-0@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("Trash", fixture) == ["<o-1@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("Projects", fixture) == ["<o-2@example.com>"])
            let flags = try await ServerActionTests.serverFlags("INBOX", fixture)
            #expect(flags[4]?.contains(.seen) == true && flags[5]?.contains(.flagged) == true)
            #expect(flags[6]?.contains(.seen) == false && flags[6]?.contains(.flagged) == false)
            #expect(try await second.queue.pending(accountId: nil).isEmpty)
            // The sync after the replay kept what was done here; nothing left to do, nothing done twice.
            #expect(try await second.folders(of: "o-0") == [.archive])
            #expect(try await second.store.getEmail(id: TestMessage.emailId("o-3"))?.isRead == true)
            #expect(await second.conversations.pendingChanges?.replay().done.isEmpty == true)
            let report = try await second.sync.syncFolderReport(accountId: "acct-ada", folderId: inbox.id)
            #expect(report.flagChanges == 0 && report.removed == 0 && report.newEmails.isEmpty)
        }

        @Test("Issue 29: Mark all as read with the server stopped marks the inbox read here at once and keeps each for the server, which has \\Seen on every message once it answers")
        func markAllReadOffline() async throws {
            let (fixture, graph, _) = try await Self.start(["m-0", "m-1", "m-2"])
            let inbox = try #require(try await graph.store.getFolders(accountId: "acct-ada").first { $0.folderType == .inbox })
            try await fixture.server.stop()
            let result = try await graph.conversations.markAllRead(in: .folder(id: inbox.id))
            #expect(result.failed.isEmpty, "\(result.failed.map { "\($0.error)" })")
            #expect(result.kept.count == 3 && result.kept.allSatisfy { $0.action == .read })
            #expect(try await graph.store.getUnreadCounts(folderId: inbox.id)[nil] == 0, "not read here at once")
            try await fixture.server.restart()
            try await graph.sync.syncAccount(accountId: "acct-ada")
            try await waitUntil("the server has \\Seen on the three") {
                let flags = try await ServerActionTests.serverFlags("INBOX", fixture)
                return flags.count == 3 && flags.values.allSatisfy { $0.contains(.seen) }
            }
            #expect(try await graph.queue.pending(accountId: nil).isEmpty)
        }

        @Test("Issue 29: on replay a message deleted on the server meanwhile is done, not an error, and the queue goes on; a move to a folder gone from the server is said in plain words and the conversation stays where the server has it")
        func conflicts() async throws {
            let (fixture, graph, _) = try await Self.start(["c-0", "c-1", "c-2"], folders: ["Old"])
            let old = try #require(try await graph.store.getFolders(accountId: "acct-ada").first { $0.path == "Old" })
            try await fixture.server.stop()
            _ = await graph.conversations.perform(.archive, on: [try await graph.thread("c-0")])
            let moved = await graph.conversations.perform(.move(toFolderId: old.id), on: [try await graph.thread("c-1")])
            #expect(moved.kept.first?.summary == "Moved “Subject c-1” to Old")
            _ = await graph.conversations.perform(.star, on: [try await graph.thread("c-2")])
            #expect(try await graph.folders(of: "c-1") == [.custom])

            // Meanwhile, another client deletes c-0 for good and removes the folder "Old".
            try await fixture.server.restart()
            let other = try await fixture.otherClient()
            _ = try await other.select("INBOX")
            let uids = try await other.searchUIDs(header: "Message-ID", containing: "c-0@example.com")
            try await other.storeFlags([.deleted], .add, uids: UIDSet(uids))
            try await other.expunge(UIDSet(uids))
            try await other.deleteMailbox("Old")
            await other.logout()

            let report = try #require(await graph.conversations.pendingChanges?.replay())
            #expect(report.done.map(\.subject) == ["Subject c-0", "Subject c-2"])
            #expect(report.problems == ["Couldn’t move “Subject c-1” to Old: that folder no longer exists on the server. It stays in Inbox."])
            #expect(report.waiting == 0)
            #expect(try await graph.folders(of: "c-1") == [.inbox])
            #expect(try await ServerActionTests.serverFlags("INBOX", fixture).values.contains { $0.contains(.flagged) })
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<c-1@example.com>", "<c-2@example.com>"])
        }

        @Test("Issue 29: a conversation archived and then deleted offline ends in Trash on the server: the second change learns the UID the first one's move gave it")
        func chainedChanges() async throws {
            let (fixture, graph, _) = try await Self.start(["k-0", "k-1"])
            try await fixture.server.stop()
            let thread = try await graph.thread("k-0")
            _ = await graph.conversations.perform(.archive, on: [thread])
            let deleted = await graph.conversations.perform(.delete, on: [thread])
            #expect(deleted.kept.map(\.action) == [.delete], "kept behind the archive")
            try await fixture.server.restart()
            try await graph.sync.syncAccount(accountId: "acct-ada")
            #expect(try await ServerActionTests.serverMessageIds("Trash", fixture) == ["<k-0@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("Archive", fixture).isEmpty)
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<k-1@example.com>"])
            #expect(try await graph.folders(of: "k-0") == [.trash])
        }

        @Test("Issue 29: a kept change is not replayed on a folder whose UIDVALIDITY changed meanwhile (its UIDs name other messages now)")
        func uidValidityChanged() async throws {
            let (fixture, graph, _) = try await Self.start([], folders: ["Lists"])
            try fixture.deliver(TestMessage.make("l-0", subject: "Subject l-0"), mailbox: "Lists")
            try await graph.sync.syncAccount(accountId: "acct-ada")
            try await fixture.server.stop()
            _ = await graph.conversations.perform(.star, on: [try await graph.thread("l-0")])
            // Meanwhile the folder is made anew: another message gets UID 1 under a new UIDVALIDITY.
            try await fixture.server.restart()
            let other = try await fixture.otherClient()
            try await other.deleteMailbox("Lists")
            try await other.createMailbox("Lists")
            await other.logout()
            try fixture.deliver(TestMessage.make("l-new", subject: "Someone else's"), mailbox: "Lists")
            let report = try #require(await graph.conversations.pendingChanges?.replay())
            #expect(report.done.count == 1 && report.waiting == 0)
            #expect(try await ServerActionTests.serverFlags("Lists", fixture).values.allSatisfy { !$0.contains(.flagged) },
                    "the message now at the kept UID was not starred")
        }

        @Test("Issue 29: while the server answers, actions go to it at once and nothing is kept")
        func onlineNothingKept() async throws {
            let (fixture, graph, _) = try await Self.start(["n-0"])
            let result = await graph.conversations.perform(.archive, on: [try await graph.thread("n-0")])
            #expect(result.kept.isEmpty && result.failed.isEmpty)
            #expect(try await ServerActionTests.serverMessageIds("Archive", fixture) == ["<n-0@example.com>"])
            #expect(try await graph.queue.pending(accountId: nil).isEmpty)
        }
    }
}
