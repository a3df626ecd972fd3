import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
@testable import VaultMailSync

@Suite("Threading of synced mail (AC-F-06)")
struct SyncThreadingTests {
    static let account = "acct-t"

    static func new(_ id: String, refs: [String] = [], date: TimeInterval, gmail: UInt64? = nil) -> SyncThreading.NewMessage {
        SyncThreading.NewMessage(
            message: ThreadableMessage(
                id: "e-\(id)", messageId: "<\(id)>", inReplyTo: refs.last.map { "<\($0)>" }, references: refs.map { "<\($0)>" },
                date: Date(timeIntervalSince1970: date)),
            gmailThreadID: gmail)
    }

    static func stored(_ id: String, refs: [String] = [], date: TimeInterval, thread: String) -> ThreadingFacts {
        ThreadingFacts(
            emailId: "e-\(id)", messageId: "<\(id)>", inReplyTo: refs.last.map { "<\($0)>" }, references: refs.map { "<\($0)>" },
            date: Date(timeIntervalSince1970: date), threadId: thread)
    }

    @Test("Gmail: X-GM-THRID is the thread, per account, whatever the headers say")
    func gmailThreadIds() {
        let plan = SyncThreading.plan(
            accountId: Self.account,
            new: [Self.new("a", date: 1, gmail: 0x1234), Self.new("b", refs: ["zzz"], date: 2, gmail: 0x1234), Self.new("c", refs: ["a"], date: 3, gmail: 0x99)],
            stored: [Self.stored("zzz", date: 0, thread: "old")])
        let expected = SyncThreading.gmailThreadId(accountId: Self.account, gmailThreadID: 0x1234)
        #expect(plan.threadIds["e-a"] == expected)
        #expect(plan.threadIds["e-b"] == expected)
        #expect(plan.threadIds["e-c"] == SyncThreading.gmailThreadId(accountId: Self.account, gmailThreadID: 0x99))
        #expect(plan.changes.isEmpty, "stored mail is not re-threaded by headers on Gmail")
        #expect(SyncThreading.gmailThreadId(accountId: "other", gmailThreadID: 0x1234) != expected)
    }

    @Test("A reply joins its stored parent's thread")
    func replyJoinsStoredThread() {
        let root = Self.stored("root", date: 0, thread: ConversationThreader.threadId(accountId: Self.account, forRoot: "<root>"))
        let plan = SyncThreading.plan(accountId: Self.account, new: [Self.new("re", refs: ["root"], date: 10)], stored: [root])
        #expect(plan.threadIds["e-re"] == root.threadId)
        #expect(plan.changes.isEmpty)
    }

    @Test("A late parent merges two stored conversations into one; the stored emails are re-threaded")
    func lateParentMerges() {
        // Stored: two replies that name different ancestors, so they are apart.
        let a = Self.stored("a", refs: ["root"], date: 10, thread: ConversationThreader.threadId(accountId: Self.account, forRoot: "<root>"))
        let b = Self.stored("b", refs: ["mid"], date: 20, thread: ConversationThreader.threadId(accountId: Self.account, forRoot: "<mid>"))
        let plan = SyncThreading.plan(accountId: Self.account, new: [Self.new("mid", refs: ["root"], date: 5)], stored: [a, b])
        let merged = ConversationThreader.threadId(accountId: Self.account, forRoot: "<root>")
        #expect(plan.threadIds["e-mid"] == merged)
        #expect(plan.changes == [ThreadChange(emailId: "e-b", threadId: merged)])
    }

    @Test("An older message that names another root moves the whole stored conversation")
    func olderRootRenamesThread() {
        let x = Self.stored("x", refs: ["y"], date: 50, thread: ConversationThreader.threadId(accountId: Self.account, forRoot: "<y>"))
        let plan = SyncThreading.plan(accountId: Self.account, new: [Self.new("y", refs: ["origin"], date: 1)], stored: [x])
        #expect(plan.threadIds["e-y"] == ConversationThreader.threadId(accountId: Self.account, forRoot: "<origin>"))
        #expect(plan.changes == [ThreadChange(emailId: "e-x", threadId: ConversationThreader.threadId(accountId: Self.account, forRoot: "<origin>"))])
    }
}

@Suite("Fetched message → email")
struct FetchedMessageTests {
    @Test("Flags, dates, size, spam tag, attachments and the raw source map onto the stored email")
    func mapping() {
        let raw = Data("Subject: x\r\n\r\nbody".utf8)
        let arrived = Date(timeIntervalSince1970: 1_000_000)
        let sent = Date(timeIntervalSince1970: 999_000)
        let message = IMAPMessage(uid: 7, sequenceNumber: 1, flags: [.seen, .draft], size: 1234, internalDate: arrived, rawMessage: raw)
        let parsed = ParsedMessage(
            messageId: "<m@x>", stableMessageId: "<m@x>", inReplyTo: "<p@x>", references: ["<r@x>", "<p@x>"], subject: "Hi",
            from: [Participant(name: "Grace", email: "g@x")], date: sent, textPlain: "body",
            attachments: [ParsedAttachment(filename: "a.pdf", mimeType: "application/pdf", size: 10, partId: "2")],
            isSpamTagged: true)
        let fetched = FetchedMessage(message: message, parsed: parsed, accountId: "acct", folderId: "f", now: Date())
        let email = fetched.incoming.email
        #expect(email.id == Email.stableID(accountId: "acct", messageId: "<m@x>"))
        #expect(email.isRead && email.isDraft && !email.isStarred)
        #expect(email.dateReceived == arrived)
        #expect(email.dateSent == sent)
        #expect(email.sizeBytes == 1234)
        #expect(email.spamFlagged)
        #expect(email.hasAttachments)
        #expect(email.references == "<r@x> <p@x>")
        #expect(email.fromAddress == "g@x")
        #expect(fetched.incoming.links == [EmailFolder(emailId: email.id, folderId: "f", uid: 7)])
        #expect(fetched.incoming.attachments.map(\.filename) == ["a.pdf"])
        #expect(fetched.incoming.rawSource == [UInt8](raw))
        #expect(fetched.threadable.date == sent)
    }

    @Test("A message with no date and no sender is still an email (received now, empty sender)")
    func bareMessage() {
        let now = Date(timeIntervalSince1970: 5)
        let message = IMAPMessage(uid: 1, sequenceNumber: 1)
        let parsed = ParsedMessage(stableMessageId: "<s@synthesized.vaultmail>", problems: ["no headers"])
        let email = FetchedMessage(message: message, parsed: parsed, accountId: "a", folderId: "f", now: now).incoming.email
        #expect(email.dateReceived == now)
        #expect(email.fromAddress.isEmpty)
        #expect(email.subject.isEmpty)
    }
}
