import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 18: a sync that finds nothing changed costs one round trip per folder (EXAMINE,
    /// whose HIGHESTMODSEQ, UIDNEXT and EXISTS match what the store holds) and nothing else;
    /// any change (new mail, a flag, an expunge) still takes the whole path.
    @Suite("A no-change sync costs one EXAMINE per folder (issue 18)")
    struct NoChangeSyncTests {
        @Test("nothing changed: one EXAMINE per folder after LIST, no SEARCH or FETCH; then a flag change, an expunge and new mail are all seen")
        func noChangeIsOneExaminePerFolder() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<3 { try fixture.deliver(TestMessage.make("n-\(n)")) }
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").count == 3)
            let rawlog = try await fixture.server.recordClientCommands()
            let folders = try await fixture.store.getFolders(accountId: "acct-ada")
            let parsedBefore = fixture.parser.count

            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            let sent = DovecotServer.clientCommands(in: rawlog).values.flatMap { $0 }
                .map { $0.split(separator: " ").dropFirst().first.map { $0.uppercased() } ?? "" }
            let mailboxCommands = sent.filter { !["CAPABILITY", "LOGIN", "AUTHENTICATE", "LIST", "LOGOUT", "ENABLE", "ID", "NOOP"].contains($0) }
            #expect(mailboxCommands == Array(repeating: "EXAMINE", count: folders.count), "sent \(sent)")
            #expect(fixture.parser.count == parsedBefore)
            let inbox = try await fixture.folder(.inbox)
            #expect(inbox.lastSyncDate != nil && inbox.totalCount == 3)

            // A flag changed by another client raises HIGHESTMODSEQ: the sync sees it.
            let other = try await fixture.otherClient()
            _ = try await other.select("INBOX")
            let uids = try await other.searchUIDs()
            try await other.storeFlags([.seen], .add, uids: UIDSet([uids[0]]))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await fixture.folder(.inbox).unreadCount == 2)

            // An expunge by another client: removed from the store.
            try await other.storeFlags([.deleted], .add, uids: UIDSet([uids[1]]))
            try await other.expunge(UIDSet([uids[1]]))
            await other.logout()
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try fixture.emailCount() == 2)

            // New mail.
            try fixture.deliver(TestMessage.make("n-new"))
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").map(\.subject) == ["Message n-new"])
        }

        @Test("isUnchanged: only with CONDSTORE, the same HIGHESTMODSEQ and count, and no UID above the checkpoint")
        func unchangedRule() {
            let state = FolderSyncState(uidValidity: 7, lastSyncedUID: 10, highestModSeq: 40, lastSyncDate: .now, totalCount: 9, unreadCount: 2)
            func status(next: UInt32 = 11, exists: UInt32 = 9, modSeq: UInt64? = 40) -> IMAPMailboxStatus {
                IMAPMailboxStatus(mailbox: "INBOX", uidValidity: 7, uidNext: next, exists: exists, highestModSeq: modSeq,
                                  isReadWrite: false, permanentFlags: [])
            }
            #expect(FolderSynchronizer.isUnchanged(status(), comparedWith: state, condstore: true))
            #expect(!FolderSynchronizer.isUnchanged(status(), comparedWith: state, condstore: false))
            #expect(!FolderSynchronizer.isUnchanged(status(modSeq: 41), comparedWith: state, condstore: true))
            #expect(!FolderSynchronizer.isUnchanged(status(modSeq: nil), comparedWith: state, condstore: true))
            #expect(!FolderSynchronizer.isUnchanged(status(next: 12), comparedWith: state, condstore: true))
            #expect(!FolderSynchronizer.isUnchanged(status(next: 0), comparedWith: state, condstore: true))
            #expect(!FolderSynchronizer.isUnchanged(status(exists: 8), comparedWith: state, condstore: true))
        }
    }
}
