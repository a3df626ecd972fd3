import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 17: every message kept, the sync never hangs — with real mail written straight
    /// into Dovecot's Maildir the way `vaultmail-bench` writes its corpus.
    @Suite("Mail placed in a Maildir")
    struct MaildirFilesSyncTests {
        /// SpamAssassin ham with CRLF line ends (Apache-2.0, read in place from the shared test
        /// material): the files the search benchmark once had to leave out.
        static let files = [
            "004", "cjk/gb2312.1", "crlf-endings", "no_body", "spf5-received-spf-crlf", "spf6-received-spf-crlf2",
        ]

        /// As `SyncBenchmarks.Corpus.writeMaildir`: `cur/` names with `S=` and a `W=` of size
        /// plus one per LF (too large for CRLF files), each dated by its Date header.
        static func placeInMaildir(_ messages: [[UInt8]], dates: [Date], home: URL) throws {
            let manager = FileManager.default
            let maildir = home.appendingPathComponent("Maildir")
            for sub in ["cur", "new", "tmp"] {
                try manager.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            for (index, message) in messages.enumerated() {
                let lineFeeds = message.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                let name = "\(1_700_000_000 + index).M\(index)P\(getpid()).bench,S=\(message.count),W=\(message.count + lineFeeds):2,S"
                let file = maildir.appendingPathComponent("cur/\(name)")
                try Data(message).write(to: file)
                try manager.setAttributes([.modificationDate: dates[index]], ofItemAtPath: file.path)
            }
            let owner = try manager.attributesOfItem(atPath: home.path)
            let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value ?? getuid()
            let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value ?? getgid()
            chown(maildir.path, uid, gid)
            for relative in manager.enumerator(atPath: maildir.path)?.allObjects as? [String] ?? [] {
                chown(maildir.appendingPathComponent(relative).path, uid, gid)
            }
        }

        @Test("Issue 17: six CRLF ham files placed in the Maildir as the benchmark places them are all stored with their subjects",
              .timeLimit(.minutes(2)))
        func crlfHamPlacedInMaildir() async throws {
            let messages = try Self.files.map { try TestMaterial.bytes("mime/spamassassin-t/t/data/nice", $0) }
            let parser = GMimeMessageParser()
            let expected = messages.map { parser.parse($0) }
            let fixture = try await SyncFixture.start()
            var account = try #require(try await fixture.accounts.getAccount(id: "acct-ada"))
            account.syncWindowDays = AppConstants.allMailSyncWindowDays
            try await fixture.accounts.updateAccount(account)
            try Self.placeInMaildir(
                messages, dates: expected.map { $0.date ?? Date(timeIntervalSince1970: 1_000_000_000) },
                home: fixture.server.directory.appendingPathComponent("home/ada"))

            let outcome = LockedBox<Result<[Email], any Error>?>(nil)
            let sync = fixture.sync
            Task {
                do { outcome.set(.success(try await sync.syncAccount(accountId: "acct-ada"))) } catch { outcome.set(.failure(error)) }
            }
            // A call stuck in C cannot be cancelled: wait on the outcome, not on the task.
            try await waitUntil("the sync to finish", timeout: .seconds(90), every: .milliseconds(20)) { outcome.value != nil }
            let new = try #require(outcome.value).get()

            #expect(fixture.parser.count == Self.files.count, "every file fetched whole and parsed once")
            let storedIds = Set(new.map(\.messageId))
            for (file, parsed) in zip(Self.files, expected) {
                #expect(storedIds.contains(parsed.stableMessageId), "\(file) is stored")
            }
            // 004 and no_body repeat one Message-ID with other content: two emails. spf5 and
            // spf6 differ only in line ends: one message, so one email (see "Message identity"
            // in docs/mime-and-threading.md).
            #expect(new.count == Self.files.count - 1)
            #expect(try await fixture.subjects(in: .inbox) == Set(expected.map(\.subject)).sorted(),
                    "every message shown with its subject")
            for (file, parsed) in zip(Self.files, expected) {
                let email = new.first { $0.subject == parsed.subject }
                #expect(email != nil, "\(file) is shown with its subject")
                #expect(email?.fromAddress == parsed.from.first?.email, "\(file) has its sender")
            }
            let chinese = try #require(new.first { $0.subject == expected[1].subject })
            #expect(chinese.subject.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "the GB2312 subject is decoded")
            #expect(!fixture.server.log().contains("FETCH failed"), "Dovecot never gave up on a FETCH")
            // Nothing left behind: the next sync fetches nothing.
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
        }
    }
}
