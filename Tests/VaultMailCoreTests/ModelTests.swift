import Crypto
import Foundation
import Testing
@testable import VaultMailCore

@Suite("Domain model (AC-U-13)")
struct ModelTests {
    @Test("SHA-256 (swift-crypto) written by hexString matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        func hex(_ text: String) -> String { SHA256.hash(data: Array(text.utf8)).hexString }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1000))
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect([0x00, 0x0f, 0xa0, 0xff].hexString == "000fa0ff")
    }

    @Test("Email.id is the SHA-256 of account id + Message-ID: the same message in two folders is one email")
    func stableEmailID() {
        let a = Email(accountId: "acct", threadId: "t", messageId: "<m@x>", fromAddress: "a@x", subject: "s", dateReceived: Date())
        let b = Email(accountId: "acct", threadId: "other", messageId: "<m@x>", fromAddress: "a@x", subject: "s", dateReceived: Date())
        let c = Email(accountId: "acct2", threadId: "t", messageId: "<m@x>", fromAddress: "a@x", subject: "s", dateReceived: Date())
        #expect(a.id == b.id)
        #expect(a.id != c.id)
    }

    /// Ids already stored in databases, and what is derived like them, must not change with
    /// the hash's implementation: these were computed with Python's hashlib.
    @Test("Stored ids stay byte-identical: email id, stable id, synthesized Message-ID, MIME boundary")
    func storedIDsUnchanged() {
        let email = Email(accountId: "acct", threadId: "t", messageId: "<m@x>", fromAddress: "a@x", subject: "s", dateReceived: Date())
        #expect(email.id == "9049d69574c46544072a37ca9e24dd8c29a044cd31d1889351633d5335025e2b")
        #expect(StableID.make("acct", "\u{1F}gmthrid\u{1F}", "1a")
                == "278afe493dce02c57f45e39282987252347469a584cd0452459ccdc139fafa80")
        #expect(ParsedMessage.synthesizedMessageId(rawMessage: Array("From: a@x\r\nSubject: hi\r\n\r\nbody\r\n".utf8))
                == "<db5fa430ab6ae0fe62805663ba2befd8@synthesized.vaultmail>")
        var boundaries = RFC5322MessageBuilder.BoundarySource(messageId: "<m@x>")
        #expect(boundaries.next() == "=_vm_e5a411deab17d3c8fe63f6db")
    }

    @Test("AC-U-13: Participant.decode parses valid JSON")
    func participantDecode() {
        let list = Participant.decode(from: #"[{"name":"John Doe","email":"john@example.com"},{"email":"x@y.z"}]"#)
        #expect(list == [Participant(name: "John Doe", email: "john@example.com"), Participant(name: nil, email: "x@y.z")])
    }

    @Test("AC-U-13 / E-09: Participant.decode returns [] for nil, empty or malformed JSON", arguments: [nil, "", "{", "[{\"name\":1}]", "not json", "{\"email\":\"a@b\"}"])
    func participantDecodeMalformed(json: String?) {
        #expect(Participant.decode(from: json).isEmpty)
    }

    @Test("AC-U-13: Participant.encode round-trips through decode, non-ASCII intact")
    func participantRoundTrip() {
        let people = [Participant(name: "Zoë Ünal 🎉", email: "zoe@example.com"), Participant(name: nil, email: "bob/x@example.com")]
        #expect(Participant.decode(from: Participant.encode(people)) == people)
    }

    @Test("E-09: a thread whose participants JSON is malformed shows \"Unknown\"")
    func unknownSender() {
        let thread = EmailThread(id: "t", accountId: "a", subject: "s", latestDate: Date(), messageCount: 2, participants: "{broken")
        #expect(thread.participantList.isEmpty)
        #expect(thread.senderSummary == "Unknown")
    }

    @Test("AC-U-03: multi-participant rows read \"John, Sarah (3)\"")
    func senderSummary() {
        let json = Participant.encode([Participant(name: "John Smith", email: "j@x"), Participant(name: "Sarah Lee", email: "s@x")])
        let thread = EmailThread(id: "t", accountId: "a", subject: "s", latestDate: Date(), messageCount: 3, participants: json)
        #expect(thread.senderSummary == "John, Sarah (3)")
        #expect(thread.senderSummary(me: ["S@X"]) == "John, me (3)", "the user's own address reads \"me\"")
    }

    @Test("A single participant keeps the whole name: \"The Weekly Bit\", not \"The\"")
    func singleSender() {
        let json = Participant.encode([Participant(name: "The Weekly Bit", email: "news@bit.example")])
        let thread = EmailThread(id: "t", accountId: "a", subject: "s", latestDate: Date(), messageCount: 1, participants: json)
        #expect(thread.senderSummary == "The Weekly Bit")
    }

    @Test("AC-U-13: page size is 25 and the NOTIF-03 constants are as specified")
    func constants() {
        #expect(AppConstants.threadListPageSize == 25)
        #expect(AppConstants.notificationCategoryEmail == "EMAIL_NOTIFICATION")
        #expect(AppConstants.notificationActionMarkRead == "MARK_READ_ACTION")
        #expect(AppConstants.notificationActionArchive == "ARCHIVE_ACTION")
        #expect(AppConstants.notificationActionDelete == "DELETE_ACTION")
        #expect(AppConstants.notificationActionReply == "REPLY_ACTION")
        #expect(AppConstants.maxNotificationsPerSync == 10)
        #expect(AppConstants.backgroundNotificationRecencySeconds == 3600)
        #expect(AppConstants.foregroundNotificationRecencySeconds == 300)
    }

    @Test("AC-U-13: ThreadPage.empty has no threads, no cursor and no more")
    func emptyPage() {
        #expect(ThreadPage.empty == ThreadPage(threads: [], nextCursor: nil, hasMore: false))
    }

    @Test("A thread cursor survives being written out and read back; junk is rejected")
    func cursorEncoding() throws {
        let cursor = ThreadCursor(date: Date(timeIntervalSince1970: 1_700_000_000.123), threadId: "abc:def")
        let decoded = try #require(ThreadCursor(encoded: cursor.encoded))
        #expect(decoded.threadId == "abc:def")
        #expect(decoded.encoded == cursor.encoded)
        #expect(ThreadCursor(encoded: "nonsense") == nil)
        #expect(ThreadCursor(encoded: "12:") == nil)
    }

    @Test("Spam: tagged by the server, or only in spam folders")
    func spam() {
        var email = Email(accountId: "a", threadId: "t", messageId: "<m>", fromAddress: "a@x", subject: "s", dateReceived: Date())
        #expect(!email.isSpam)
        email.folderTypes = [.spam]
        #expect(email.isSpam)
        email.folderTypes = [.spam, .inbox]
        #expect(!email.isSpam)
        email.spamFlagged = true
        #expect(email.isSpam)
    }

    @Test("AC-U-13: ThreadListError has the four cases and says what to do")
    func threadListErrors() {
        let errors: [ThreadListError] = [
            .fetchFailed(underlying: RepositoryError.storage("disk full")),
            .actionFailed(underlying: RepositoryError.storage("disk full")),
            .threadNotFound(id: "T-1"), .folderNotFound(id: "F-1"),
        ]
        #expect(errors[0].description.contains("disk full") && errors[0].description.contains("try again"))
        #expect(errors[1].description.contains("disk full") && errors[1].description.contains("nothing was changed"))
        #expect(errors[2].description.contains("T-1") && errors[2].description.contains("list threads"))
        #expect(errors[3].description.contains("F-1") && errors[3].description.contains("list folders"))
    }
}
