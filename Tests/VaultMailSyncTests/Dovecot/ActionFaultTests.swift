import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 34: what an action tells when something happens here between the server's OK and
    /// the change on this computer. The server did it, so it is done.
    @Suite("IMAPEmailRepository: an action the server did is done (issue 34)")
    struct ActionFaultTests {
        static func conversations(_ repository: IMAPEmailRepository) -> Conversations {
            Conversations(emails: repository, markReadOnOpen: { false }, withdrawNotifications: nil)
        }

        /// Empties the store's WAL file (a checkpoint from another connection), so the next write
        /// must grow it, as a store whose WAL was just checkpointed does.
        static func emptyWAL(_ path: String) async throws {
            let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone()); c.close()"
            let result = try await ProcessCapture.run("/usr/bin/python3", ["-c", script, path], timeout: .seconds(30))
            #expect(result.status == 0, "\(String(decoding: result.output, as: UTF8.self))")
        }

        @Test("Issue 34: the disk fills after the server archived or marked read: done on the server, the words say the disk is full, the next sync catches up",
              .enabled(if: SmallFilesystem.canMount, "\(SmallFilesystem.cannotMountReason)"),
              arguments: [ConversationAction.archive, .read])
        func diskFullAfterServer(_ action: ConversationAction) async throws {
            let disk = try SmallFilesystem(size: 16 << 20)
            defer { disk.unmount() }
            let path = disk.directory.appendingPathComponent("vaultmail.sqlite").path
            let fixture = try await SyncFixture.start(database: try AppDatabase.open(path: path))
            for id in ["f-0", "f-1"] { try fixture.deliver(TestMessage.make(id)) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let thread = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("f-0"))).threadId

            var repository = fixture.repository
            repository.afterServerSteps = {
                try? await Self.emptyWAL(path)
                try? disk.fill()
            }
            let result = await Self.conversations(repository).perform(action, on: [thread])
            disk.free()

            #expect(result.failed.isEmpty, "the server did it: \(result.failed.map { PlainWords.lines($0.error) })")
            #expect(result.succeeded == [thread])
            let note = try #require(result.notUpdatedHere.first, "the copy here could not follow: said so")
            let words = PlainWords.of(note.error)
            #expect(words.contains("Done on the server") && words.contains("disk is full") && words.contains("Free some space")
                && words.contains("next sync"), "\(words)")
            #expect(!PlainWords.lines(note.error).lowercased().contains("nothing was changed"))
            #expect(!"\(ThreadListError.actionFailed(underlying: note.error))".contains("nothing was changed"))

            // The server has it; with space again, the next sync brings this computer in line.
            let email = TestMessage.emailId("f-0")
            if action == .archive {
                #expect(try await ServerActionTests.serverMessageIds("Archive", fixture) == ["<f-0@example.com>"])
                #expect(try await fixture.store.getEmail(id: email)?.folderTypes == [.inbox], "not updated here yet")
            } else {
                #expect(try await ServerActionTests.serverFlags("INBOX", fixture)[1]?.contains(.seen) == true)
                #expect(try await fixture.store.getEmail(id: email)?.isRead == false, "not updated here yet")
            }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let synced = try #require(try await fixture.store.getEmail(id: email))
            if action == .archive {
                #expect(synced.folderTypes == [.archive])
            } else {
                #expect(synced.isRead)
            }
            #expect(try fixture.emailCount() == 2, "each message once")
        }

        @Test("Issue 34: the daemon's sync removes the conversation between the server's OK and the change here: the action is done, silently",
              arguments: [ConversationAction.delete, .archive])
        func syncRemovedItFirst(_ action: ConversationAction) async throws {
            let fixture = try await ServerActionTests.synced(["r-0", "r-1"])
            let thread = try await ServerActionTests.thread(of: "r-0", fixture)
            let inbox = try await fixture.folder(.inbox)
            let daemon = fixture.otherProcessSync()
            let goneBeforeLocalStep = LockedBox(false)
            var repository = fixture.repository
            repository.afterServerSteps = {
                // The daemon's IDLE saw the message leave the inbox and synced it.
                _ = try? await daemon.syncFolderReport(accountId: "acct-ada", folderId: inbox.id)
                goneBeforeLocalStep.set((try? await fixture.store.getThread(id: thread)) == nil)
            }
            let result = await ActionFaultTests.conversations(repository).perform(action, on: [thread])
            #expect(goneBeforeLocalStep.value, "the race happened: the sync removed the conversation first")
            #expect(result.failed.isEmpty, "the server did it: \(result.failed.map { PlainWords.lines($0.error) })")
            #expect(result.succeeded == [thread] && result.notUpdatedHere.isEmpty)

            let target = action == .delete ? "Trash" : "Archive"
            #expect(try await ServerActionTests.serverMessageIds(target, fixture) == ["<r-0@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<r-1@example.com>"])
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("r-0"))?.folderTypes == [action == .delete ? .trash : .archive])
            #expect(try fixture.emailCount() == 2)
        }
    }
}
