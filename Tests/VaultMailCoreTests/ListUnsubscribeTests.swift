import Foundation
import Testing
import VaultMailCore

/// Reading `List-Unsubscribe` (RFC 2369) and `List-Unsubscribe-Post` (RFC 8058), and the one
/// way VaultMail unsubscribes by them (issue 33).
@Suite("List-Unsubscribe: RFC 2369 / RFC 8058 headers and the unsubscribe method (issue 33)")
struct ListUnsubscribeTests {
    @Test("RFC 2369 §3.2's examples: one mailto, a leading comment, several URIs")
    func rfc2369Examples() throws {
        #expect(try ListUnsubscribe.parse(listUnsubscribe: "<mailto:list@host.com?subject=unsubscribe>", listUnsubscribePost: nil).uris
            == ["mailto:list@host.com?subject=unsubscribe"])
        let commented = try ListUnsubscribe.parse(
            listUnsubscribe: "(Use this command to get off the list)\n     <mailto:list-manager@host.com?body=unsubscribe%20list>",
            listUnsubscribePost: nil)
        #expect(commented.uris == ["mailto:list-manager@host.com?body=unsubscribe%20list"])
        #expect(commented.mailto == MailtoURI(to: ["list-manager@host.com"], body: "unsubscribe list"))
        let two = try ListUnsubscribe.parse(
            listUnsubscribe: "<http://www.host.com/list.cgi?cmd=unsub&lst=list>,\r\n\t<mailto:list-request@host.com?subject=unsubscribe>",
            listUnsubscribePost: nil)
        #expect(two.uris == ["http://www.host.com/list.cgi?cmd=unsub&lst=list", "mailto:list-request@host.com?subject=unsubscribe"])
        #expect(two.method == .mail(MailtoURI(to: ["list-request@host.com"], subject: "unsubscribe")))
    }

    @Test("Whitespace folded into a URI is dropped; comments after a URI and nested comments are skipped")
    func whitespaceAndComments() throws {
        let value = "<https://example.com/unsub?\n id=1> (the web (nested) way) , <mailto:off@example.com> (mail)"
        let parsed = try ListUnsubscribe.parse(listUnsubscribe: value, listUnsubscribePost: "List-Unsubscribe=One-Click")
        #expect(parsed.uris == ["https://example.com/unsub?id=1", "mailto:off@example.com"])
        #expect(parsed.method == .oneClick(URL(string: "https://example.com/unsub?id=1")!))
    }

    @Test("RFC 8058 §8.1: One-Click with an https URI is the one-click POST, even when a mailto: comes first")
    func rfc8058Example() throws {
        let parsed = try ListUnsubscribe.parse(
            listUnsubscribe: "<mailto:listrequest@example.com?subject=unsubscribe>,\n    <https://example.com/unsubscribe.html?opaque=123456789>",
            listUnsubscribePost: "List-Unsubscribe=One-Click")
        #expect(parsed.oneClick)
        #expect(parsed.method == .oneClick(URL(string: "https://example.com/unsubscribe.html?opaque=123456789")!))
        #expect(parsed.method.summary == "Sends a one-click request to example.com")
    }

    @Test("Without the One-Click POST header an https link is never used: the mailto: is, else nothing with the reason")
    func noOneClick() throws {
        // Mailman's shape (a web options page and a -request address).
        let mailman = try ListUnsubscribe.parse(
            listUnsubscribe: "<https://lists.example.net/cgi-bin/mailman/options/dev>, \n <mailto:dev-request@lists.example.net?subject=unsubscribe>",
            listUnsubscribePost: nil)
        #expect(mailman.method == .mail(MailtoURI(to: ["dev-request@lists.example.net"], subject: "unsubscribe")))
        #expect(mailman.method.summary == "Sends an email to dev-request@lists.example.net")
        let webOnly = try ListUnsubscribe.parse(listUnsubscribe: "<https://news.example.com/u/abc>", listUnsubscribePost: nil)
        guard case .notOffered(let reason) = webOnly.method else { Issue.record("a web page alone is not used"); return }
        #expect(reason.contains("does not open unsubscribe links"))
        // Another value of the POST header is not RFC 8058's.
        let other = try ListUnsubscribe.parse(listUnsubscribe: "<https://news.example.com/u/abc>", listUnsubscribePost: "unsubscribe=yes")
        #expect(!other.oneClick)
        #expect(try ListUnsubscribe.parse(listUnsubscribe: "<https://a.example/u>", listUnsubscribePost: " list-unsubscribe=one-click ").oneClick)
    }

    @Test("A one-click address over http is refused, and the reason says why")
    func httpRefused() throws {
        let parsed = try ListUnsubscribe.parse(listUnsubscribe: "<http://news.example.com/u/abc>", listUnsubscribePost: "List-Unsubscribe=One-Click")
        guard case .notOffered(let reason) = parsed.method else { Issue.record("http must not be used"); return }
        #expect(reason.contains("http"))
        #expect(reason.contains("unencrypted"))
    }

    @Test("mailto: with several addresses, to=, subject and body percent-decoded; other fields ignored")
    func mailtoFields() throws {
        let mailto = try MailtoURI.parse("mailto:a@example.com,b@example.com?to=c@example.com&subject=Remove%20me&body=unsubscribe%0D%0Alist%2Bx&cc=spy@example.org&bcc=x@example.org")
        #expect(mailto.to == ["a@example.com", "b@example.com", "c@example.com"])
        #expect(mailto.subject == "Remove me")
        #expect(mailto.body == "unsubscribe\nlist+x")
        // The Debian package tracker's shape: a body, no subject.
        #expect(try MailtoURI.parse("mailto:control@tracker.example.org?body=unsubscribe%20haskell-mode")
            == MailtoURI(to: ["control@tracker.example.org"], body: "unsubscribe haskell-mode"))
    }

    @Test("Malformed values: a clear error that says what is wrong", arguments: [
        ("", "holds no <address>"),
        ("https://example.com/u", "outside angle brackets"),
        ("<mailto:off@example.com", "'<' is not closed"),
        ("<mailto:a@example.com> <mailto:b@example.com>", "not separated by a comma"),
        ("<>", "holds no address"),
        ("(unclosed <mailto:a@example.com>", "comment '(' is not closed"),
    ])
    func malformed(value: String, expected: String) {
        #expect {
            try ListUnsubscribe.parse(listUnsubscribe: value, listUnsubscribePost: nil)
        } throws: { error in
            let text = "\(error)"
            return text.contains(expected) && text.contains("RFC 2369")
        }
    }

    @Test("A mailto: that names no usable address is an error; the header's method skips it")
    func malformedMailto() throws {
        #expect(throws: UnsubscribeError.malformedMailto(uri: "mailto:?subject=x", reason: "it names no address to write to")) {
            try MailtoURI.parse("mailto:?subject=x")
        }
        #expect { try MailtoURI.parse("mailto:not-an-address") } throws: { "\($0)".contains("\"not-an-address\" is not an email address") }
        let parsed = try ListUnsubscribe.parse(listUnsubscribe: "<mailto:nobody>", listUnsubscribePost: nil)
        guard case .notOffered = parsed.method else { Issue.record("an unusable mailto: is not offered"); return }
    }

    @Test("The headers kept with an email: the List-Id's identifier, and whom unsubscribing is remembered for")
    func listHeaders() throws {
        let fields = ["list-id": "Example News <News.Example.COM>", "list-unsubscribe": "<mailto:u@example.com>"]
        let headers = try #require(ListHeaders(fields: fields))
        #expect(headers.listId == "news.example.com")
        #expect(headers.senderKey(fromAddress: "x@example.com") == "list:news.example.com")
        #expect(ListHeaders(listId: nil, listUnsubscribe: "<mailto:u@example.com>", listUnsubscribePost: nil)
            .senderKey(fromAddress: "News@Example.com") == "news@example.com")
        #expect(ListHeaders(fields: ["precedence": "bulk"]) == nil)
    }

    @Test("Whom unsubscribing leaves: the List-Id's name, else the sender of a newsletter in its own domain, else the list")
    func names() throws {
        let newsletter = try #require(ListHeaders(fields: ["list-id": "\"Example News\" <news.example.com>"]))
        #expect(newsletter.listName == "Example News")
        #expect(newsletter.name(senderName: "Someone", senderAddress: "x@example.com") == "Example News")
        let bare = try #require(ListHeaders(fields: ["list-id": "<news.example.com>"]))
        #expect(bare.name(senderName: "Example", senderAddress: "hello@news.example.com") == "Example")
        #expect(bare.name(senderName: "Linus", senderAddress: "linus@kernel.example") == "news.example.com")
        let encoded = try #require(ListHeaders(fields: ["list-id": "=?UTF-8?Q?Caf=C3=A9?= <cafe.example.com>"]))
        #expect(encoded.listName == nil)
        #expect(ListHeaders(listId: nil, listUnsubscribe: "<mailto:a@b.example>", listUnsubscribePost: nil)
            .name(senderName: nil, senderAddress: "a@b.example") == "a@b.example")
    }
}
