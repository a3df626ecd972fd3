import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@Suite("NotificationContentBuilder (NOTIF-04)")
struct NotificationContentBuilderTests {
    let email: Email = {
        var email = MailFixtures.email(
            accountId: "acct-1", number: 7, threadId: "T-1", from: "john@example.com", fromName: "John Doe",
            subject: "Meeting Tomorrow",
            snippet: "Hi team, let's discuss the Q1 budget review next week. Please bring your numbers and any questions you have.")
        return email
    }()

    @Test("AC-N-03: title is the sender's name, subtitle the subject")
    func titleAndSubtitle() {
        let content = NotificationContentBuilder.build(from: email)
        #expect(content.title == "John Doe")
        #expect(content.subtitle == "Meeting Tomorrow")
    }

    @Test("E-01 / AC-N-03: a nil or blank name falls back to the address")
    func titleFallback() {
        var anonymous = email
        anonymous.fromName = nil
        #expect(NotificationContentBuilder.build(from: anonymous).title == "john@example.com")
        anonymous.fromName = "  "
        #expect(NotificationContentBuilder.build(from: anonymous).title == "john@example.com")
    }

    @Test("E-03 / AC-N-03: the body is the first 100 characters of the snippet")
    func bodyTruncated() {
        let body = NotificationContentBuilder.build(from: email).body
        #expect(body.count == 100)
        #expect(email.snippet!.hasPrefix(body))
    }

    @Test("E-02: a nil snippet gives an empty body")
    func bodyNil() {
        var bare = email
        bare.snippet = nil
        #expect(NotificationContentBuilder.build(from: bare).body == "")
    }

    @Test("Truncation is grapheme-safe: emoji and accents stay whole")
    func bodyGraphemes() {
        var fancy = email
        fancy.snippet = String(repeating: "👨‍👩‍👧‍👦", count: 120) + "é"
        let body = NotificationContentBuilder.build(from: fancy).body
        #expect(body.count == 100)
        #expect(body.allSatisfy { $0 == "👨‍👩‍👧‍👦" })
        fancy.snippet = String(repeating: "e\u{301}", count: 120)
        #expect(NotificationContentBuilder.build(from: fancy).body == String(repeating: "é", count: 100))
    }

    @Test("AC-N-03 / NOTIF-05: thread identifier, category, sound and interruption level")
    func metadata() {
        let content = NotificationContentBuilder.build(from: email)
        #expect(content.threadIdentifier == "T-1")
        #expect(content.categoryIdentifier == "EMAIL_NOTIFICATION")
        #expect(content.sound == .default)
        #expect(content.interruptionLevel == .active)
    }

    @Test("AC-N-03: userInfo holds emailId, threadId, accountId and fromAddress")
    func userInfo() {
        let info = NotificationContentBuilder.build(from: email).userInfo
        #expect(info == NotificationUserInfo(emailId: email.id, threadId: "T-1", accountId: "acct-1", fromAddress: "john@example.com"))
    }

    @Test("AC-N-03: the request identifier is \"email-<id>\" and reads back")
    func requestIdentifier() {
        let request = NotificationContentBuilder.request(for: email)
        #expect(request.identifier == "email-\(email.id)")
        #expect(NotificationRequest.emailId(fromIdentifier: request.identifier) == email.id)
        #expect(NotificationRequest.emailId(fromIdentifier: "other-1") == nil)
    }

    @Test("NOTIF-03 / AC-N-01: one category, four actions; Delete destructive; Reply is text input \"Send\" / \"Type your reply...\"")
    func category() {
        let category = NotificationContentBuilder.emailCategory
        #expect(category.identifier == "EMAIL_NOTIFICATION")
        #expect(category.actions.map(\.identifier) == ["MARK_READ_ACTION", "ARCHIVE_ACTION", "DELETE_ACTION", "REPLY_ACTION"])
        #expect(category.actions[2].options == .destructive)
        #expect(category.actions[3].kind == .textInput(buttonTitle: "Send", placeholder: "Type your reply..."))
        #expect(category.actions[0...1].allSatisfy { $0.kind == .standard && $0.options.isEmpty })
    }
}
