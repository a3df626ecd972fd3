import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

extension DovecotTests {
    @Suite("Mailboxes")
    struct MailboxTests {
        @Test("AC-F-05: LIST reports special-use folders, and they map to their folder types")
        func listSpecialUse() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            try await imap.createMailbox("Projects/2026")
            try await imap.createMailbox("Entwürfe & Ideen")
            let folders = try await imap.listFolders()
            let types = FolderTypeMapping.folderTypes(for: folders)
            #expect(types["INBOX"] == .inbox)
            #expect(types["Sent"] == .sent)
            #expect(types["Drafts"] == .drafts)
            #expect(types["Trash"] == .trash)
            #expect(types["Junk"] == .spam)
            #expect(types["Archive"] == .archive)
            #expect(types["Projects/2026"] == .custom)
            #expect(types["Entwürfe & Ideen"] == .custom)  // decoded from modified UTF-7
            let sent = try #require(folders.first { $0.path == "Sent" })
            #expect(sent.hasAttribute("\\Sent"))
            #expect(sent.delimiter == "/")
            #expect(sent.isSelectable)
            #expect(try #require(folders.first { $0.path == "Projects/2026" }).name == "2026")
            // The decoded name works as is for SELECT.
            let status = try await imap.select("Entwürfe & Ideen")
            #expect(status.exists == 0)
        }

        @Test("AC-F-06: SELECT reports UIDVALIDITY, UIDNEXT, EXISTS and HIGHESTMODSEQ; EXAMINE is read-only")
        func selectValues() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            let empty = try await imap.select("INBOX")
            #expect(empty.exists == 0)
            var appended: [IMAPAppendResult] = []
            for number in 1...3 {
                appended.append(try #require(try await imap.append(DovecotFixture.message(number), to: "INBOX")))
            }
            let status = try await imap.select("INBOX")
            #expect(status.mailbox == "INBOX")
            #expect(status.exists == 3)
            #expect(status.uidValidity != 0)
            #expect(status.uidValidity == appended[0].uidValidity)
            #expect(appended.map(\.uid) == [1, 2, 3])
            #expect(status.uidNext == 4)
            let modSeq = try #require(status.highestModSeq)
            #expect(modSeq > (empty.highestModSeq ?? 0))
            #expect(status.isReadWrite)
            #expect(status.permanentFlags.isSuperset(of: [.seen, .flagged, .deleted]))
            #expect(await imap.selectedMailbox == "INBOX")

            let examined = try await imap.examine("INBOX")
            #expect(!examined.isReadWrite)
            #expect(examined.exists == 3)
            #expect(examined.uidValidity == status.uidValidity)
        }

        @Test("E-03: a mailbox deleted and created again under the same name gets a new UIDVALIDITY")
        func uidValidityChanges() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            try await imap.createMailbox("Lists")
            let first = try await imap.select("Lists").uidValidity
            _ = try await imap.select("INBOX")
            try await imap.deleteMailbox("Lists")
            // Dovecot derives UIDVALIDITY from the clock in seconds: wait for the next second.
            let deadline = ContinuousClock.now + .seconds(10)
            var second = first
            while second == first && ContinuousClock.now < deadline {
                try await imap.createMailbox("Lists")
                second = try await imap.select("Lists").uidValidity
                if second == first {
                    _ = try await imap.select("INBOX")
                    try await imap.deleteMailbox("Lists")
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            #expect(second != first)
        }

        @Test("AC-F-05: CREATE, RENAME and DELETE; selecting a missing mailbox names it in the error")
        func createRenameDelete() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            try await imap.createMailbox("Receipts")
            try await imap.renameMailbox("Receipts", to: "Receipts 2026")
            var paths = try await imap.listFolders().map(\.path)
            #expect(paths.contains("Receipts 2026"))
            #expect(!paths.contains("Receipts"))
            try await imap.deleteMailbox("Receipts 2026")
            paths = try await imap.listFolders().map(\.path)
            #expect(!paths.contains("Receipts 2026"))

            let error = try await #require(throws: IMAPError.self) { _ = try await imap.select("Receipts 2026") }
            #expect(error.kind == .commandFailed)
            #expect(error.mailbox == "Receipts 2026")
            #expect(error.description.contains("cannot select \"Receipts 2026\" on 127.0.0.1:"))
            #expect(error.serverResponse?.hasPrefix("Mailbox doesn't exist: Receipts 2026") == true)
            #expect(await imap.selectedMailbox == nil)
            #expect(await imap.isConnected)  // a NO leaves the connection usable
        }
    }
}
