import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

extension DovecotTests {
    /// Dovecot announcing fewer capabilities than it has, so the client's fallbacks run.
    @Suite("Capability-driven behaviour")
    struct CapabilityTests {
        static let basic = ["IMAP4rev1", "LITERAL+", "SASL-IR", "ENABLE", "NAMESPACE"]

        @Test("AC-F-08: without MOVE, a move is COPY + \\Deleted + UID EXPUNGE of just those messages")
        func moveWithoutMove() async throws {
            let fixture = try await DovecotFixture.start(capabilities: Self.basic + ["UIDPLUS"])
            let imap = try await fixture.loggedIn()
            #expect(await !imap.capabilities.move)
            for number in 1...3 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            try await imap.storeFlags([.deleted], .add, uids: UIDSet([3]))  // marked by the user elsewhere
            let result = try #require(try await imap.move(UIDSet([1]), to: "Archive"))
            #expect(result.uidMapping == [1: 1])
            #expect(try await imap.searchUIDs() == [2, 3])  // 3 stays: only UID 1 was expunged
            _ = try await imap.select("Archive")
            #expect(try await imap.fetchMessages(.all, items: .rawMessage).first?.rawMessage == DovecotFixture.message(1))
        }

        @Test("AC-F-08: without MOVE and UIDPLUS, the originals are flagged \\Deleted but nothing else is expunged")
        func moveWithoutUIDPlus() async throws {
            let fixture = try await DovecotFixture.start(capabilities: Self.basic)
            let imap = try await fixture.loggedIn()
            for number in 1...2 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            #expect(try await imap.move(UIDSet([1]), to: "Archive") == nil)
            let flags = try await imap.fetchFlags()
            #expect(flags.map(\.uid) == [1, 2])
            #expect(flags[0].isDeleted && !flags[1].isDeleted)
            let error = try await #require(throws: IMAPError.self) { try await imap.expunge(UIDSet([1])) }
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("UIDPLUS"))
            #expect(try await imap.examine("Archive").exists == 1)
        }

        @Test("AC-F-06: without CONDSTORE there is no HIGHESTMODSEQ, CHANGEDSINCE says to sweep, the sweep works")
        func withoutCondstore() async throws {
            let fixture = try await DovecotFixture.start(capabilities: Self.basic + ["UIDPLUS", "MOVE"])
            let imap = try await fixture.loggedIn()
            _ = try await imap.append(DovecotFixture.message(1), to: "INBOX", flags: [.seen])
            let status = try await imap.select("INBOX")
            #expect(status.highestModSeq == nil)
            let error = try await #require(throws: IMAPError.self) { _ = try await imap.fetchFlags(changedSince: 1) }
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("sweep all flags"))
            let sweep = try await imap.fetchFlags()
            #expect(sweep == [IMAPMessageFlags(uid: 1, flags: [.seen], modSeq: nil)])
            #expect(try await imap.fetchMessages(.all, items: .all).first?.modSeq == nil)
        }

        @Test("AC-F-05: without IDLE, idle() says so and NOOP reports new mail instead")
        func withoutIdle() async throws {
            let fixture = try await DovecotFixture.start(capabilities: Self.basic)
            let imap = try await fixture.loggedIn()
            _ = try await imap.select("INBOX")
            let error = try await #require(throws: IMAPError.self) { _ = try await imap.idle(timeout: .seconds(5)) }
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("poll with NOOP"))
            try fixture.server.deliver(DovecotFixture.message(1), to: DovecotFixture.user)
            #expect(try await imap.noop().contains(.exists(count: 1)))
        }

        @Test("AC-F-05: without SPECIAL-USE and LIST-EXTENDED, plain LIST still finds and maps the folders")
        func plainList() async throws {
            let fixture = try await DovecotFixture.start(capabilities: Self.basic)
            let imap = try await fixture.loggedIn()
            #expect(await !imap.capabilities.specialUse)
            let types = FolderTypeMapping.folderTypes(for: try await imap.listFolders())
            #expect(types == ["INBOX": .inbox, "Sent": .sent, "Drafts": .drafts, "Trash": .trash, "Junk": .spam, "Archive": .archive])
        }
    }
}
