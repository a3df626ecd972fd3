import Foundation
import Testing
import VaultMailCore

/// The header rules (H1…H9 of `HeaderCategoryRules`), one case each, and the header reader.
@Suite("Categorization: header rules")
struct CategoryRulesTests {
    static func input(from: String = "Ada Lovelace <ada@example.org>", to: [String] = ["me@example.com"], cc: [String] = [],
                      subject: String, body: String = "", headers: [String: String] = [:], isReply: Bool = false,
                      own: Set<String> = ["me@example.com"]) -> CategorizationInput {
        func person(_ text: String) -> Participant {
            if let open = text.firstIndex(of: "<"), let close = text.firstIndex(of: ">") {
                return Participant(name: String(text[..<open]).trimmingCharacters(in: .whitespaces),
                                   email: String(text[text.index(after: open)..<close]))
            }
            return Participant(email: text)
        }
        return CategorizationInput(emailId: "e1", accountId: "a1", threadId: "t1", from: person(from), to: to.map(person),
                                   cc: cc.map(person), subject: subject, openingText: body, headers: headers,
                                   isReply: isReply, ownAddresses: own)
    }

    static func decided(_ input: CategorizationInput) throws -> CategoryDecision {
        let verdict = HeaderCategoryRules.evaluate(input)
        return try #require(verdict.decision, "expected a decision, got \(verdict)")
    }

    @Test("AC-A-04: '50% off shoes today only!' is promotions with no header at all")
    func specExample() throws {
        let decision = try Self.decided(Self.input(from: "shop@shoes.example", subject: "50% off shoes today only!", headers: [:], own: []))
        #expect(decision.category == .promotions)
        #expect(decision.source == .header)
        #expect(decision.reason.contains("50% off"))
    }

    @Test("H1: mail the user wrote is primary")
    func ownMail() throws {
        let decision = try Self.decided(Self.input(from: "me@example.com", to: ["ada@example.org"], subject: "50% off for you"))
        #expect(decision.category == .primary)
    }

    @Test("H2: a delivery report is updates")
    func bounce() throws {
        let decision = try Self.decided(Self.input(from: "Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>",
                                                   subject: "Undelivered Mail Returned to Sender"))
        #expect(decision.category == .updates)
        #expect(decision.reason.contains("delivery report"))
    }

    @Test("H3: a social network's notification is social", arguments: [
        "Facebook <notification@facebookmail.com>", "LinkedIn <invitations@linkedin.com>",
        "Reddit <noreply@redditmail.com>", "Pinterest <recommendations@explore.pinterest.com>",
    ])
    func socialNetwork(from: String) throws {
        let decision = try Self.decided(Self.input(from: from, subject: "You have new activity", headers: ["list-unsubscribe": "<mailto:u@x>"]))
        #expect(decision.category == .social)
        #expect(decision.reason.contains("social network"))
    }

    @Test("H4: a discussion list (List-Id with List-Post) is forums, even when it is a reply")
    func discussionList() throws {
        let decision = try Self.decided(Self.input(
            from: "Carl Worth <cworth@cworth.org>", to: ["notmuch@notmuchmail.org"], subject: "Re: [notmuch] Working with Maildir storage?",
            headers: ["list-id": "\"Use and development of the notmuch mail system.\" <notmuch.notmuchmail.org>",
                      "list-post": "<mailto:notmuch@notmuchmail.org>", "precedence": "list"], isReply: true))
        #expect(decision.category == .forums)
        #expect(decision.reason.contains("<notmuch.notmuchmail.org>"))
    }

    @Test("H4: a List-Id from a person without List-Post (LKML) is forums; a tagged subject to the list's address too")
    func listWithoutPost() throws {
        let lkml = try Self.decided(Self.input(from: "Linus <torvalds@linux-foundation.org>", to: ["linux-kernel@vger.kernel.org"],
                                               subject: "Re: [PATCH] mm: fix", headers: ["list-id": "<linux-kernel.vger.kernel.org>", "precedence": "bulk"]))
        #expect(lkml.category == .forums)
        let tagged = try Self.decided(Self.input(from: "Keith <keithp@keithp.com>", to: ["notmuch@notmuchmail.org"],
                                                 subject: "[notmuch] Introducing myself"))
        #expect(tagged.category == .forums)
    }

    @Test("H4 does not take marketing sent through a list platform for a discussion list")
    func marketingListIsNotForums() throws {
        let decision = try Self.decided(Self.input(
            from: "Shoe Shop <news@shop.example>", subject: "New arrivals: spring collection, free shipping",
            headers: ["list-id": "Shoe Shop <abc123.list-id.mcsv.net>", "list-unsubscribe": "<https://shop.us1.list-manage.com/unsubscribe>"]))
        #expect(decision.category == .promotions)
    }

    @Test("H5: a code host's notification is updates, List-Id or not")
    func notificationService() throws {
        let decision = try Self.decided(Self.input(
            from: "Some One <notifications@github.com>", subject: "Re: [owner/repo] Fix the parser (PR #12)",
            headers: ["list-id": "owner/repo <repo.owner.github.com>", "x-github-reason": "review_requested", "precedence": "list"], isReply: true))
        #expect(decision.category == .updates)
    }

    @Test("H6: Auto-Submitted: auto-generated is updates")
    func autoGenerated() throws {
        let decision = try Self.decided(Self.input(from: "Backup <backup@host.example>", subject: "Nightly backup finished",
                                                   headers: ["auto-submitted": "auto-generated"]))
        #expect(decision.category == .updates)
        #expect(decision.reason.contains("Auto-Submitted"))
    }

    @Test("H7: an offer in the subject is promotions, but not a person's reply")
    func offer() throws {
        #expect(try Self.decided(Self.input(from: "deals@store.example", subject: "Free shipping on everything this weekend", own: [])).category == .promotions)
        #expect(try Self.decided(Self.input(from: "x@spam.example", subject: "ADV: --YOUR BRAND NEW HOUSE--", own: [])).category == .promotions)
        let reply = try Self.decided(Self.input(subject: "Re: 50% off shoes today only!", isReply: true))
        #expect(reply.category == .primary)
    }

    @Test("H8: bulk mail that reads like a receipt is updates; like an offer, promotions; otherwise a lean")
    func bulkMail() throws {
        let bulk = ["list-unsubscribe": "<mailto:unsubscribe@store.example>", "precedence": "bulk"]
        let receipt = try Self.decided(Self.input(from: "Store <orders@store.example>", subject: "Your order #1234 has shipped",
                                                  body: "Track your package", headers: bulk))
        #expect(receipt.category == .updates)
        let sale = try Self.decided(Self.input(from: "Store <hello@store.example>", subject: "Exclusive deals for members: save on gifts",
                                               body: "Shop the sale", headers: bulk))
        #expect(sale.category == .promotions)
        let plain = HeaderCategoryRules.evaluate(Self.input(from: "Store <noreply@store.example>", subject: "Hello from us", headers: bulk))
        #expect(plain.lean != nil)
    }

    @Test("H9: a person's reply or mail to the user is primary; other mail from a person only leans primary")
    func personalMail() throws {
        #expect(try Self.decided(Self.input(subject: "Re: lunch", isReply: true)).category == .primary)
        #expect(try Self.decided(Self.input(subject: "Lunch tomorrow?")).category == .primary)
        let elsewhere = HeaderCategoryRules.evaluate(Self.input(to: ["someone@example.net"], subject: "Lunch tomorrow?"))
        #expect(elsewhere.lean?.category == .primary)
    }

    @Test("Header fields: folded lines joined, first occurrence kept, names lowercased, body not read")
    func headerReader() {
        let raw = Array("From sender Mon Jan 1\r\nList-Id: Notmuch\r\n <notmuch.notmuchmail.org>\r\nPrecedence: list\r\nprecedence: bulk\r\nSubject: x\r\n\r\nList-Post: <mailto:body@example>\r\n".utf8)
        let fields = MessageHeaderFields.parse(raw)
        #expect(fields["list-id"] == "Notmuch <notmuch.notmuchmail.org>")
        #expect(fields["precedence"] == "list")
        #expect(fields["list-post"] == nil)
    }

    @Test("Header fields from any byte collection: LF or CRLF, values trimmed, long values cut, nameless and spaced names skipped, empty lines before the header skipped")
    func headerReaderEdges() {
        let long = String(repeating: "a", count: MessageHeaderFields.maximumValueLength + 50)
        let text = "X-Mailer:\t Mailchimp \t\nBad Name: skipped\n: no name\nX-Long: \(long)\nX-Folded: one\n\ttwo\n \n"
            + "Body-Field: not a header\n"
        for raw in [Array(text.utf8)[...], Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)[...]] {
            let fromData = MessageHeaderFields.parse(Data(raw))
            let fromSlice = MessageHeaderFields.parse(raw.dropFirst(0))
            #expect(fromData == fromSlice)
            #expect(fromData["x-mailer"] == "Mailchimp")
            #expect(fromData["bad name"] == nil)
            #expect(fromData["x-long"]?.count == MessageHeaderFields.maximumValueLength)
            #expect(fromData["x-folded"] == "one two")
            #expect(fromData["body-field"] == nil)
            #expect(fromData.count == 3)
        }
        #expect(MessageHeaderFields.parse(Array("\nSubject: body\n".utf8)) == ["subject": "body"])
        #expect(MessageHeaderFields.parse(Array("Subject: \u{e9}t\u{e9}\r\n".utf8)) == ["subject": "\u{e9}t\u{e9}"])
    }

    @Test("Discounts are found as written: '50% off', '70 % off', '$10 off'; 'wholesale' is not 'sale'")
    func discounts() {
        #expect(CategoryRulesTests.discount("50% off shoes") == true)
        #expect(CategoryRulesTests.discount("up to 70 % off") == true)
        #expect(CategoryRulesTests.discount("get $10 off today") == true)
        #expect(CategoryRulesTests.discount("we grew 50% last year") == false)
        let wholesale = HeaderCategoryRules.evaluate(Self.input(to: ["x@example.net"], subject: "wholesale prices list", own: []))
        #expect(wholesale.decision == nil)
    }

    static func discount(_ subject: String) -> Bool {
        HeaderCategoryRules.evaluate(input(from: "a@b.example", to: [], subject: subject, own: [])).decision?.category == .promotions
    }
}
