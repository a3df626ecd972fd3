import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 18: one way to delete on the server (`IMAPConnection.deleteMessages`), one rule
    /// with and without UIDPLUS, seen through the delete that reaches it from the store.
    @Suite("Deleting for good: one rule (issue 18)")
    struct DeletionRuleTests {
        /// What Dovecot announces here, with or without UIDPLUS (MOVE, so a move is one command).
        static func capabilities(uidPlus: Bool) -> [String] {
            ["IMAP4rev1", "LITERAL+", "SASL-IR", "ID", "ENABLE", "IDLE", "NAMESPACE", "CONDSTORE", "SPECIAL-USE", "MOVE"]
                + (uidPlus ? ["UIDPLUS"] : [])
        }

        @Test("Deleting mail only in Trash removes just it; without UIDPLUS it is only flagged \\Deleted and another client's \\Deleted message stays",
              arguments: [true, false])
        func deleteFromTrash(uidPlus: Bool) async throws {
            let fixture = try await SyncFixture.start(capabilities: Self.capabilities(uidPlus: uidPlus))
            for id in ["t-0", "t-1", "t-2"] { try fixture.deliver(TestMessage.make(id), mailbox: "Trash") }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            // Another client marks t-1 deleted (undoable there until it expunges).
            let other = try await fixture.otherClient()
            _ = try await other.select("Trash")
            try await other.storeFlags([.deleted], .add, uids: UIDSet([2]))
            await other.logout()

            let thread = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("t-0"))).threadId
            try await fixture.repository.deleteThread(id: thread)

            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("t-0")) == nil)
            let flags = try await ServerActionTests.serverFlags("Trash", fixture)
            let ids = try await ServerActionTests.serverMessageIds("Trash", fixture)
            if uidPlus {
                #expect(ids == ["<t-1@example.com>", "<t-2@example.com>"])
                #expect(flags[1] == nil)
            } else {
                // No mailbox-wide EXPUNGE: the old rule would have taken t-1 with it.
                #expect(ids == ["<t-0@example.com>", "<t-1@example.com>", "<t-2@example.com>"])
                #expect(flags[1]?.contains(.deleted) == true)
            }
            #expect(flags[2]?.contains(.deleted) == true, "another client's mark stays as it was")
            #expect(flags[3]?.contains(.deleted) == false)
            // The next sync does not bring the deleted message back.
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("t-0")) == nil)
        }

        @Test("deleteMessages says what it did: .expunged with UIDPLUS, .flaggedOnly without", arguments: [true, false])
        func deleteMessagesResult(uidPlus: Bool) async throws {
            let fixture = try await SyncFixture.start(capabilities: Self.capabilities(uidPlus: uidPlus))
            for id in ["x-0", "x-1"] { try fixture.deliver(TestMessage.make(id)) }
            let imap = try await fixture.otherClient()
            _ = try await imap.select("INBOX")
            let result = try await imap.deleteMessages(uids: UIDSet([1]))
            #expect(result == (uidPlus ? .expunged : .flaggedOnly))
            let left = try await imap.fetchFlags()
            #expect(left.map(\.uid) == (uidPlus ? [2] : [1, 2]))
            #expect(left.filter(\.isDeleted).map(\.uid) == (uidPlus ? [] : [1]))
            await imap.logout()
        }
    }
}
