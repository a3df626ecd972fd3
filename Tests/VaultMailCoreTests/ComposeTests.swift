import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `Compose` service, without any door: what the tool and the web composer both send
/// when answering or forwarding, and the size limit they both apply (issue 28).
@Suite("Compose: answers, forwards and the size limit, the same for every door (issue 28)")
struct ComposeTests {
    let work = MailFixtures.account(name: "work", email: "me@example.com")
    let home = MailFixtures.account(name: "home", email: "me@home.example")
    let utc = TimeZone(identifier: "UTC")!

    /// A service over one stored email from Grace to both of the user's addresses and Alan, Cc Linus.
    func service(limit: Int? = nil, signatures: [String: String] = [:]) async throws -> (Compose, Email) {
        let emails = MockEmailRepository()
        var email = MailFixtures.email(accountId: work.id, number: 1, from: "grace@example.org", fromName: "Grace Hopper", subject: "Team sync")
        email.toAddresses = [Participant(name: "Me", email: "ME@example.com"), Participant(email: "alan@example.org")]
        email.ccAddresses = [Participant(email: "me@home.example"), Participant(name: "Linus", email: "linus@example.net")]
        email.references = "<root@example.org>"
        email.bodyPlain = "Shall we meet on Thursday?\n\n> earlier\n"
        email.dateSent = Date(timeIntervalSince1970: 1_790_000_000)
        _ = try await emails.saveEmails([MailFixtures.incoming(email, in: MailFixtures.standardFolders(accountId: work.id).prefix(1).map { $0 })])
        let compose = Compose(
            emails: emails, accounts: InMemoryAccountRepository([work, home]), clock: FixedClock(Date(), timeZone: utc),
            signature: { signatures[$0] }, sizeLimit: { _ in limit })
        return (compose, email)
    }

    @Test("Reply: the typed text, one empty line, the signature, the attribution and the quote; to the sender, Re:, threaded")
    func reply() async throws {
        let (compose, email) = try await service(signatures: [work.id: "Ada"])
        let reply = try await compose.answer(.reply, emailId: email.id, typed: "Thursday works.\n")
        #expect(reply.accountId == work.id)
        #expect(reply.to == ["Grace Hopper <grace@example.org>"] && reply.cc.isEmpty)
        #expect(reply.subject == "Re: Team sync")
        #expect(reply.inReplyTo == email.messageId && reply.references == "<root@example.org> \(email.messageId)")
        #expect(reply.threadId == email.threadId)
        #expect(reply.body == "Thursday works.\n\n-- \nAda\n\nOn Mon, 21 Sep 2026 at 14:13, Grace Hopper <grace@example.org> wrote:\n"
            + "> Shall we meet on Thursday?\n>\n>> earlier\n")
    }

    @Test("Reply all: the sender in To, the others in Cc, none of the user's addresses (any account), from the account asked for")
    func replyAll() async throws {
        let (compose, email) = try await service()
        let reply = try await compose.answer(.replyAll, emailId: email.id, from: home.id, typed: "Yes")
        #expect(reply.accountId == home.id)
        #expect(reply.to == ["Grace Hopper <grace@example.org>"])
        #expect(reply.cc == ["alan@example.org", "Linus <linus@example.net>"])
        #expect(reply.body.hasPrefix("Yes\n\nOn Mon, 21 Sep 2026 at 14:13, Grace Hopper <grace@example.org> wrote:\n> Shall we"))
    }

    @Test("Forward: Fwd:, no recipient, the typed text above the forwarded message, its attachments carried")
    func forward() async throws {
        let (compose, email) = try await service()
        let forward = try await compose.answer(.forward, emailId: email.id, typed: "FYI")
        #expect(forward.subject == "Fwd: Team sync" && forward.to.isEmpty && forward.inReplyTo == nil)
        #expect(forward.forwardedEmailId == email.id)
        #expect(forward.body.hasPrefix("FYI\n\n---------- Forwarded message ----------\nFrom: Grace Hopper <grace@example.org>\n"))
        #expect(forward.body.contains("Subject: Team sync\n"))
        let untyped = try await compose.answer(.forward, emailId: email.id)
        #expect(untyped.body.hasPrefix("\n\n---------- Forwarded message"), "the cursor's place above the forward")
    }

    @Test("An email that is gone, or an unknown account, is an error that says so")
    func missing() async throws {
        let (compose, email) = try await service()
        await #expect(throws: ComposeError.originalNotFound(id: "nope")) { try await compose.answer(.reply, emailId: "nope") }
        await #expect(throws: ComposeError.accountNotFound(id: "acct-gone")) {
            try await compose.answer(.reply, emailId: email.id, from: "acct-gone")
        }
    }

    @Test("Typed text goes above the template with one empty line between", arguments: [
        ("Hi", "\n\nOn … wrote:\n> x\n", "Hi\n\nOn … wrote:\n> x\n"),
        ("Hi\n\n  \n", "\n\n-- \nAda\n", "Hi\n\n-- \nAda\n"),
        ("", "\n\nOn … wrote:\n", "\n\nOn … wrote:\n"),
        ("  \n", "\n\nOn … wrote:\n", "\n\nOn … wrote:\n"),
        ("Only text\n", "", "Only text\n"),
    ])
    func placing(typed: String, template: String, expected: String) {
        #expect(Compose.placing(typed, above: template) == expected)
    }

    @Test("Size limit: a message larger than the server accepts is refused, saying both sizes and what to do")
    func sizeLimit() async throws {
        let file = DraftAttachment(filename: "big.bin", mimeType: "application/octet-stream", data: Data(count: 1_500_000))
        let estimate = Compose.estimatedSize(text: "Hello", html: nil, attachments: [file])
        #expect(estimate > 2_000_000 && estimate < 2_100_000, "base64 grows the file by a third: \(estimate)")

        let (limited, _) = try await service(limit: 2_000_000)
        await #expect(throws: ComposeError.tooLarge(size: estimate, limit: 2_000_000)) {
            try await limited.checkSize(accountId: work.id, text: "Hello", html: nil, attachments: [file])
        }
        let message = "\(ComposeError.tooLarge(size: estimate, limit: 2_000_000))"
        #expect(message == "with its attachments the message is about 2.1 MB, and the server accepts at most 2 MB. Remove an attachment or share it another way.")
        try await limited.checkSize(accountId: work.id, text: "Hello", html: nil, attachments: [])

        let (unlimited, _) = try await service(limit: nil)
        try await unlimited.checkSize(accountId: work.id, text: "Hello", html: nil, attachments: [file])
    }

    /// A conversation of three messages (the first and the last with files, the second
    /// re-attaching the first's), a later one (the last three arrived in the same second), and a
    /// draft reply with a file of its own.
    func conversation(limit: Int?) async throws -> (Compose, forwarded: Email) {
        let emails = MockEmailRepository()
        let inbox = Array(MailFixtures.standardFolders(accountId: work.id).prefix(1))
        let thread = "thread-files"
        func file(_ email: Email, _ name: String, _ size: Int, inline: Bool = false) -> VaultMailCore.Attachment {
            VaultMailCore.Attachment(emailId: email.id, filename: name, mimeType: inline ? "image/png" : "application/pdf", sizeBytes: size,
                       contentId: inline ? "<\(name)>" : nil, isInline: inline, partId: "2")
        }
        let first = MailFixtures.email(accountId: work.id, number: 1, threadId: thread, subject: "Plan")
        var second = MailFixtures.email(accountId: work.id, number: 2, threadId: thread, subject: "Re: Plan")
        var third = MailFixtures.email(accountId: work.id, number: 3, threadId: thread, subject: "Re: Plan")
        var later = MailFixtures.email(accountId: work.id, number: 4, threadId: thread, subject: "Re: Plan")
        // The last three arrived in the same second: their order is the one they were written in.
        let arrival = third.dateReceived
        for (offset, index) in [(-120.0, 0), (-60, 1), (0, 2)] {
            var email = [second, third, later][index]
            email.dateReceived = arrival
            email.dateSent = arrival.addingTimeInterval(offset)
            if index == 0 { second = email } else if index == 1 { third = email } else { later = email }
        }
        var draft = MailFixtures.email(accountId: work.id, number: 5, threadId: thread, from: "me@example.com", subject: "Re: Plan", sendState: .draft)
        draft.isDraft = true
        _ = try await emails.saveEmails([
            IncomingEmail(email: first, links: inbox.map { EmailFolder(emailId: first.id, folderId: $0.id) },
                          attachments: [file(first, "budget.pdf", 400_000), file(first, "logo.png", 2_000, inline: true)]),
            IncomingEmail(email: second, links: inbox.map { EmailFolder(emailId: second.id, folderId: $0.id) },
                          attachments: [file(second, "budget.pdf", 400_000)]),
            IncomingEmail(email: third, links: inbox.map { EmailFolder(emailId: third.id, folderId: $0.id) },
                          attachments: [file(third, "slides.pdf", 900_000)]),
            IncomingEmail(email: later, links: inbox.map { EmailFolder(emailId: later.id, folderId: $0.id) },
                          attachments: [file(later, "later.pdf", 1_000)]),
            IncomingEmail(email: draft, links: [], attachments: [file(draft, "mine.pdf", 1_000)]),
        ])
        let compose = Compose(emails: emails, accounts: InMemoryAccountRepository([work]), clock: FixedClock(Date(), timeZone: utc),
                              signature: { _ in nil }, sizeLimit: { _ in limit })
        return (compose, third)
    }

    @Test("Forwarding a conversation carries every message's files up to the one forwarded, each once, no inline images, no draft's")
    func forwardCarriesTheConversation() async throws {
        let (compose, forwarded) = try await conversation(limit: nil)
        let files = try await compose.forwardedAttachments(emailId: forwarded.id)
        #expect(files.carried.map(\.filename) == ["budget.pdf", "slides.pdf"])
        #expect(files.leftOut.isEmpty && files.notice == nil)
        await #expect(throws: ComposeError.originalNotFound(id: "gone")) { try await compose.forwardedAttachments(emailId: "gone") }
    }

    @Test("Forward and the size limit: the newest files are kept, the one that does not fit is named with the reason")
    func forwardLeavesOutWhatDoesNotFit() async throws {
        // 1.5 MB: the slides (about 1.2 MB in base64) fit, the budget (0.53 MB more) does not.
        let (compose, forwarded) = try await conversation(limit: 1_500_000)
        let files = try await compose.forwardedAttachments(emailId: forwarded.id)
        #expect(files.carried.map(\.filename) == ["slides.pdf"])
        #expect(files.leftOut.map(\.attachment.filename) == ["budget.pdf"])
        #expect(files.notice == "Not forwarded: ‘budget.pdf’ (400 KB): with it the message would be larger than the 1.5 MB the outgoing server accepts; attach it to a message of its own.")
    }
}
