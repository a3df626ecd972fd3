import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@Suite("Composer templates and address lists (AC-U-08)")
struct ComposeTemplateTests {
    let account = MailFixtures.account(name: "work", email: "me@example.com")
    let utc = TimeZone(identifier: "UTC")!

    func original(from: String = "grace@example.org", to: [Participant], cc: [Participant] = []) -> Email {
        var email = MailFixtures.email(accountId: account.id, number: 1, from: from, fromName: "Grace Hopper", subject: "Plan")
        email.toAddresses = to
        email.ccAddresses = cc
        email.references = "<root@example.org>"
        email.bodyPlain = "Line one.\n\n> earlier quote\nLine two.\n\n"
        email.dateSent = Date(timeIntervalSince1970: 1_790_000_000)
        return email
    }

    @Test("Reply: to the sender, Re: once, In-Reply-To and References, attribution and > quoting")
    func reply() {
        let email = original(to: [Participant(name: "Me", email: "me@example.com")])
        let draft = ComposeTemplate.make(.reply, answering: email, account: account, ownAddresses: [], timeZone: utc)
        #expect(draft.to == ["Grace Hopper <grace@example.org>"])
        #expect(draft.subject == "Re: Plan")
        #expect(draft.inReplyTo == email.messageId)
        #expect(draft.references == "<root@example.org> \(email.messageId)")
        #expect(draft.threadId == email.threadId)
        #expect(draft.body == "\n\nOn Mon, 21 Sep 2026 at 14:13, Grace Hopper <grace@example.org> wrote:\n> Line one.\n>\n>> earlier quote\n> Line two.\n")
        #expect(ComposeTemplate.make(.reply, answering: { var e = email; e.subject = "RE: Plan"; return e }(), account: account, ownAddresses: []).subject == "RE: Plan")
    }

    @Test("Reply all: the sender in To, the others in Cc, never the user's addresses, each once")
    func replyAll() {
        let email = original(
            to: [Participant(name: "Me", email: "ME@example.com"), Participant(email: "alan@example.org")],
            cc: [Participant(email: "alan@example.org"), Participant(name: "Other me", email: "me@other.example"), Participant(name: "Linus", email: "linus@example.net")])
        let draft = ComposeTemplate.make(.replyAll, answering: email, account: account, ownAddresses: ["me@other.example"])
        #expect(draft.to == ["Grace Hopper <grace@example.org>"])
        #expect(draft.cc == ["alan@example.org", "Linus <linus@example.net>"])
    }

    @Test("Answering one's own message goes to its recipients")
    func answeringMyself() {
        let email = original(from: "me@example.com", to: [Participant(name: "Alan", email: "alan@example.org")])
        #expect(ComposeTemplate.make(.reply, answering: email, account: account, ownAddresses: []).to == ["Alan <alan@example.org>"])
    }

    @Test("Forward: Fwd: once, no recipient, the original's headers and text, its attachments named, the signature above")
    func forward() {
        let email = original(to: [Participant(name: "Me", email: "me@example.com")])
        let draft = ComposeTemplate.make(.forward, answering: email, account: account, ownAddresses: [], signature: "Ada\nVaultMail", timeZone: utc)
        #expect(draft.to.isEmpty && draft.inReplyTo == nil)
        #expect(draft.subject == "Fwd: Plan")
        #expect(draft.forwardedEmailId == email.id)
        #expect(draft.body.hasPrefix("\n\n-- \nAda\nVaultMail\n\n---------- Forwarded message ----------\nFrom: Grace Hopper <grace@example.org>\n"))
        #expect(draft.body.contains("Subject: Plan\nTo: Me <me@example.com>\n\nLine one."))
        #expect(ComposeTemplate.forwardSubject("FW: Plan") == "FW: Plan")
    }

    @Test("A reply to an HTML-only message quotes its text")
    func htmlOnly() {
        var email = original(to: [])
        email.bodyPlain = nil
        email.bodyHTML = "<p>Hello <b>there</b></p><p>Second</p>"
        let body = ComposeTemplate.make(.reply, answering: email, account: account, ownAddresses: []).body
        #expect(body.contains("> Hello there"), "\(body)")
    }

    @Test("Names that need quotes are quoted")
    func formatting() {
        #expect(ComposeTemplate.formatted(Participant(name: "Lovelace, Ada", email: "ada@example.com")) == "\"Lovelace, Ada\" <ada@example.com>")
        #expect(ComposeTemplate.formatted(Participant(name: "ada@example.com", email: "ada@example.com")) == "ada@example.com")
    }

    @Test("Address fields split at commas and semicolons outside quotes and brackets", arguments: [
        ("a@x.org, b@y.org", ["a@x.org", "b@y.org"]),
        ("\"Lovelace, Ada\" <ada@x.org>; bob@y.org,", ["\"Lovelace, Ada\" <ada@x.org>", "bob@y.org"]),
        ("Odd <we,ird@x.org>", ["Odd <we,ird@x.org>"]),
        (" , ;", []),
    ])
    func split(text: String, expected: [String]) {
        #expect(EmailAddress.split(text) == expected)
    }
}
