import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

extension DovecotTests {
    @Suite("Messages")
    struct MessageTests {
        static let january15 = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15 12:00:00 UTC

        @Test("AC-F-06: APPEND, then UID SEARCH and UID FETCH return the message byte for byte")
        func appendSearchFetch() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            // Non-ASCII, 8-bit body, a long line, a dot line and a base64 attachment; CRLF throughout.
            let attachment = Data((0..<3000).map { UInt8($0 % 251) }).base64EncodedString(options: .lineLength76Characters)
            let text = [
                "From: =?UTF-8?B?R3LDoWNl?= <grace@example.com>",
                "To: Ada <ada@example.com>",
                "Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?=",
                "Message-ID: <bytes@example.com>",
                "MIME-Version: 1.0",
                "Content-Type: multipart/mixed; boundary=\"b1\"",
                "",
                "--b1",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: 8bit",
                "",
                "Grüße aus Zürich — ☕",
                ".",
                String(repeating: "long line ", count: 60),
                "--b1",
                "Content-Type: application/octet-stream; name=\"data.bin\"",
                "Content-Transfer-Encoding: base64",
                "",
                attachment.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "\r\r\n", with: "\r\n"),
                "--b1--",
                "",
            ].joined(separator: "\r\n")
            let raw = Data(text.utf8)
            let appended = try #require(
                try await imap.append(raw, to: "INBOX", flags: [.seen, "$Important"], internalDate: Self.january15))

            _ = try await imap.select("INBOX")
            let uids = try await imap.searchUIDs()
            #expect(uids == [appended.uid])
            let message = try #require(try await imap.fetchMessages(UIDSet(uids), items: .all).first)
            #expect(message.uid == appended.uid)
            #expect(message.rawMessage == raw)
            #expect(message.size == UInt32(raw.count))
            #expect(message.internalDate == Self.january15)
            #expect(message.flags == [.seen, "$Important"])
            #expect(message.modSeq != nil)
            #expect(message.gmailThreadID == nil)  // not Gmail: skipped, not an error
            // BODY.PEEK[] leaves \Seen alone.
            _ = try await imap.append(DovecotFixture.message(2), to: "INBOX")
            _ = try await imap.fetchMessages(UIDSet([2]), items: .rawMessage)
            #expect(try await imap.fetchFlags(UIDSet([2])).first?.flags.contains(.seen) == false)
        }

        @Test("AC-F-05: UID SEARCH by date window and by UID range, strays of n:* dropped")
        func searchSinceAndRanges() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            let day: TimeInterval = 86_400
            for (number, date) in [(1, Self.january15 - 45 * day), (2, Self.january15 - 5 * day), (3, Self.january15)] {
                _ = try await imap.append(DovecotFixture.message(number), to: "INBOX", internalDate: date)
            }
            _ = try await imap.select("INBOX")
            #expect(try await imap.searchUIDs(since: Self.january15 - 30 * day) == [2, 3])
            #expect(try await imap.searchUIDs(in: UIDSet(1...2)) == [1, 2])
            #expect(try await imap.searchUIDs(since: Self.january15 - 30 * day, in: UIDSet(1...2)) == [2])
            #expect(try await imap.searchUIDs(in: .from(3)) == [3])
            #expect(try await imap.searchUIDs(in: .from(100)).isEmpty)  // the server answers 3 for 100:*
            #expect(try await imap.fetchMessages(.from(100), items: .flags).isEmpty)
            #expect(try await imap.searchUIDs(in: UIDSet([UInt32]())).isEmpty)
        }

        @Test("AC-F-06: messages are fetched in batches, every UID once, in order")
        func batches() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            for number in 1...7 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            var sizes: [Int] = []
            var uids: [UInt32] = []
            for try await batch in imap.messageBatches(try await imap.searchUIDs(), items: .fullMessage, batchSize: 3) {
                sizes.append(batch.count)
                uids += batch.map(\.uid)
                #expect(batch.allSatisfy { $0.rawMessage == DovecotFixture.message(Int($0.uid)) })
            }
            #expect(sizes == [3, 3, 1])
            #expect(uids == Array(1...7))
        }

        @Test("AC-F-08: UID STORE adds and removes \\Seen, \\Flagged and \\Deleted, as another client sees")
        func storeFlags() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            for number in 1...3 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            try await imap.storeFlags([.seen, .flagged], .add, uids: UIDSet([1, 2]))
            try await imap.storeFlags([.deleted], .add, uids: UIDSet([3]))
            try await imap.storeFlags([.seen], .remove, uids: UIDSet([2]))

            let other = try await fixture.loggedIn()
            _ = try await other.examine("INBOX")
            let flags = Dictionary(uniqueKeysWithValues: try await other.fetchFlags().map { ($0.uid, $0.flags) })
            #expect(flags[1] == [.seen, .flagged])
            #expect(flags[2] == [.flagged])
            #expect(flags[3] == [.deleted])

            try await imap.storeFlags([.answered], .replace, uids: UIDSet([1]))
            #expect(try await imap.fetchFlags(UIDSet([1])).first?.flags == [.answered])
            let error = try await #require(throws: IMAPError.self) {
                try await imap.storeFlags(["bad flag"], .add, uids: UIDSet([1]))
            }
            #expect(error.kind == .invalidRequest)
        }

        @Test("AC-F-08: UID MOVE moves messages and reports their new UIDs (COPYUID)")
        func move() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            for number in 1...3 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            let result = try #require(try await imap.move(UIDSet([1, 3]), to: "Archive"))
            #expect(result.uidMapping == [1: 1, 3: 2])
            #expect(try await imap.searchUIDs() == [2])
            let archive = try await imap.select("Archive")
            #expect(archive.uidValidity == result.uidValidity)
            let moved = try await imap.fetchMessages(.all, items: .rawMessage)
            #expect(moved.map(\.rawMessage) == [DovecotFixture.message(1), DovecotFixture.message(3)])
        }

        @Test("AC-F-08: COPY, \\Deleted and UID EXPUNGE remove exactly the chosen messages")
        func copyDeleteExpunge() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            for number in 1...3 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await imap.select("INBOX")
            let copied = try #require(try await imap.copy(UIDSet([1]), to: "Trash"))
            #expect(copied.uidMapping == [1: 1])
            try await imap.storeFlags([.deleted], .add, uids: UIDSet([1, 2]))
            try await imap.expunge(UIDSet([1]))
            // 2 is flagged \Deleted too, but UID EXPUNGE only removed 1.
            #expect(try await imap.searchUIDs() == [2, 3])
            try await imap.expungeAll()
            #expect(try await imap.searchUIDs() == [3])
            _ = try await imap.select("Trash")
            #expect(try await imap.fetchMessages(.all, items: .rawMessage).first?.rawMessage == DovecotFixture.message(1))
        }

        @Test("AC-F-06: FETCH FLAGS CHANGEDSINCE returns only what changed after the mod-sequence")
        func changedSince() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            for number in 1...3 { _ = try await imap.append(DovecotFixture.message(number), to: "INBOX") }
            let checkpoint = try #require(try await imap.select("INBOX").highestModSeq)

            // Another client flags message 2 and reads message 3.
            let other = try await fixture.loggedIn()
            _ = try await other.select("INBOX")
            try await other.storeFlags([.flagged], .add, uids: UIDSet([2]))
            try await other.storeFlags([.seen], .add, uids: UIDSet([3]))
            await other.logout()

            let changed = try await imap.fetchFlags(.all, changedSince: checkpoint)
            #expect(changed.map(\.uid) == [2, 3])
            #expect(changed[0].flags == [.flagged])
            #expect(changed[1].flags == [.seen])
            #expect(changed.allSatisfy { ($0.modSeq ?? 0) > checkpoint })
            let newCheckpoint = try #require(changed.compactMap(\.modSeq).max())
            #expect(try await imap.fetchFlags(.all, changedSince: newCheckpoint).isEmpty)
            // The plain sweep sees every message.
            #expect(try await imap.fetchFlags().map(\.uid) == [1, 2, 3])
        }

        @Test("Issue 33: STORE UNCHANGEDSINCE is a claim: of two clients that read the same mod-sequence, only the first changes the message; the second is told MODIFIED and changes nothing")
        func unchangedSinceClaim() async throws {
            let fixture = try await DovecotFixture.start()
            let (first, second) = (try await fixture.loggedIn(), try await fixture.loggedIn())
            for number in 1...2 { _ = try await first.append(DovecotFixture.message(number), to: "INBOX") }
            _ = try await first.select("INBOX")
            _ = try await second.select("INBOX")
            // Both read the messages as they are now.
            let seenByFirst = try await first.fetchFlags(UIDSet([1]))
            let seenBySecond = try await second.fetchFlags(UIDSet([1]))
            let modSeq = try #require(seenByFirst.first?.modSeq)
            #expect(seenBySecond.first?.modSeq == modSeq)

            #expect(try await first.storeFlags(["$ClaimFirst"], .add, uids: UIDSet([1]), unchangedSince: modSeq).isEmpty)
            #expect(try await second.storeFlags(["$ClaimSecond"], .replace, uids: UIDSet([1]), unchangedSince: modSeq) == [1])
            // A message in the set that did not change since is still stored.
            let other = try #require(try await second.fetchFlags(UIDSet([2])).first?.modSeq)
            #expect(try await second.storeFlags(["$ClaimSecond"], .add, uids: UIDSet([1, 2]), unchangedSince: other) == [1])

            let flags = Dictionary(uniqueKeysWithValues: try await first.fetchFlags(UIDSet([1, 2])).map { ($0.uid, $0.flags) })
            #expect(flags[1] == ["$ClaimFirst"])
            #expect(flags[2] == ["$ClaimSecond"])
        }

        @Test("Issue 33: without CONDSTORE a conditional STORE is refused with words saying why, before anything is sent")
        func unchangedSinceWithoutCondStore() async throws {
            let fixture = try await DovecotFixture.start(capabilities: ["IMAP4rev1", "UIDPLUS", "MOVE"])
            let imap = try await fixture.loggedIn()
            _ = try await imap.append(DovecotFixture.message(1), to: "INBOX")
            _ = try await imap.select("INBOX")
            let error = try await #require(throws: IMAPError.self) {
                try await imap.storeFlags(["$Claim"], .add, uids: UIDSet([1]), unchangedSince: 1)
            }
            #expect(error.kind == .unsupported)
            #expect("\(error)".contains("CONDSTORE"))
            #expect(try await imap.fetchFlags(UIDSet([1])).first?.flags == [])
        }

        @Test("AC-F-05: commands on the selected mailbox need one; the error says so")
        func needsSelection() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.loggedIn()
            let error = try await #require(throws: IMAPError.self) { _ = try await imap.searchUIDs() }
            #expect(error.kind == .notConnected)
            #expect(error.description.contains("no mailbox is selected"))
        }
    }
}
