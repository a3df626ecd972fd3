import Foundation
import Testing
import VaultMailCore

@Suite("Message identity (issue 17): one email per message, not per Message-ID")
struct EmailIdentityTests {
    struct Fetched {
        var messageId: String
        var fingerprint: String
    }

    static let account = "acct"
    static let usual = Email.stableID(accountId: account, messageId: "<m@x>")

    /// Assigns ids and counts how many fingerprints were computed.
    static func assign(_ messages: [Fetched], stored: [EmailIdentity]) -> (ids: [String], computed: Int) {
        var computed = 0
        let ids = EmailIdentity.assignIDs(
            accountId: account, messages, messageId: \.messageId,
            fingerprint: { computed += 1; return $0.fingerprint }, stored: stored)
        return (ids, computed)
    }

    @Test("A Message-ID nothing else has keeps the usual id, and its fingerprint is not even computed")
    func unsharedMessageId() {
        let (ids, computed) = Self.assign([Fetched(messageId: "<m@x>", fingerprint: "a"), Fetched(messageId: "<n@x>", fingerprint: "b")], stored: [])
        #expect(ids == [Self.usual, Email.stableID(accountId: Self.account, messageId: "<n@x>")])
        #expect(computed == 0)
    }

    @Test("The same content is the stored email (a copy); other content gets an id of its own, the same for each of its copies")
    func storedMessageId() {
        let stored = [EmailIdentity(emailId: Self.usual, messageId: "<m@x>", contentFingerprint: "a")]
        let derived = Email.stableID(accountId: Self.account, messageId: "<m@x>", contentFingerprint: "b")
        #expect(Self.assign([Fetched(messageId: "<m@x>", fingerprint: "a")], stored: stored).ids == [Self.usual])
        #expect(Self.assign([Fetched(messageId: "<m@x>", fingerprint: "b")], stored: stored).ids == [derived])
        #expect(derived != Self.usual)
        // The second message stored, a copy of it found later resolves to it.
        let both = stored + [EmailIdentity(emailId: derived, messageId: "<m@x>", contentFingerprint: "b")]
        #expect(Self.assign([Fetched(messageId: "<m@x>", fingerprint: "b")], stored: both).ids == [derived])
        // A third message with the Message-ID: a third email.
        let third = Self.assign([Fetched(messageId: "<m@x>", fingerprint: "c")], stored: both).ids
        #expect(third == [Email.stableID(accountId: Self.account, messageId: "<m@x>", contentFingerprint: "c")])
    }

    @Test("An email whose fingerprint is not known (compose, outbox) stands for the first message fetched under its Message-ID")
    func unknownFingerprint() {
        let stored = [EmailIdentity(emailId: Self.usual, messageId: "<m@x>", contentFingerprint: nil)]
        let (ids, _) = Self.assign(
            [Fetched(messageId: "<m@x>", fingerprint: "a"), Fetched(messageId: "<m@x>", fingerprint: "a"),
             Fetched(messageId: "<m@x>", fingerprint: "b")], stored: stored)
        #expect(ids == [Self.usual, Self.usual, Email.stableID(accountId: Self.account, messageId: "<m@x>", contentFingerprint: "b")])
    }

    @Test("When the first email of a Message-ID is gone, a new message takes the usual id again; the other keeps its own")
    func usualIdFreed() {
        let derived = Email.stableID(accountId: Self.account, messageId: "<m@x>", contentFingerprint: "b")
        let stored = [EmailIdentity(emailId: derived, messageId: "<m@x>", contentFingerprint: "b")]
        let (ids, _) = Self.assign([Fetched(messageId: "<m@x>", fingerprint: "b"), Fetched(messageId: "<m@x>", fingerprint: "z")], stored: stored)
        #expect(ids == [derived, Self.usual])
    }

    @Test("Within one batch: two messages with one Message-ID and other content are two emails; two copies are one")
    func sameBatch() {
        let derived = Email.stableID(accountId: Self.account, messageId: "<m@x>", contentFingerprint: "b")
        let (ids, computed) = Self.assign(
            [Fetched(messageId: "<m@x>", fingerprint: "a"), Fetched(messageId: "<m@x>", fingerprint: "b"),
             Fetched(messageId: "<m@x>", fingerprint: "a"), Fetched(messageId: "<o@x>", fingerprint: "a")], stored: [])
        #expect(ids == [Self.usual, derived, Self.usual, Email.stableID(accountId: Self.account, messageId: "<o@x>")])
        #expect(computed == 3, "only the messages whose Message-ID is shared are fingerprinted")
    }

    static let date = Date(timeIntervalSince1970: 1_750_000_000)

    static func fingerprint(
        from: String = "grace@example.com", date: Date? = EmailIdentityTests.date, subject: String = "Plans",
        plain: String? = "See you at noon.\nGrace", html: String? = nil, sizes: [Int] = []
    ) -> String {
        EmailIdentity.fingerprint(fromAddress: from, dateSent: date, subject: subject, bodyPlain: plain, bodyHTML: html, attachmentSizes: sizes)
    }

    @Test("The fingerprint ignores what transport changes: address case, line breaks and wrapping, subject spacing, part order")
    func fingerprintIgnoresTransport() {
        let base = Self.fingerprint(sizes: [10, 20])
        #expect(Self.fingerprint(from: " Grace@Example.com", sizes: [10, 20]) == base)
        #expect(Self.fingerprint(plain: "See you at\r\nnoon.\r\nGrace\r\n", sizes: [20, 10]) == base)
        #expect(Self.fingerprint(subject: "Plans ", sizes: [10, 20]) == Self.fingerprint(subject: "Plans", sizes: [10, 20]))
        #expect(Self.fingerprint(date: Self.date.addingTimeInterval(0.4), sizes: [10, 20]) == base, "the Date header counts to the second")
        #expect(Self.fingerprint(plain: "", html: "<p>Hi</p>") == Self.fingerprint(plain: nil, html: "<p>Hi</p>"), "no plain text: the HTML counts")
    }

    @Test(
        "The fingerprint tells other content apart: sender, date, subject, body, attachments",
        arguments: [
            fingerprint(from: "mailer-daemon@example.com"), fingerprint(date: date.addingTimeInterval(60)), fingerprint(date: nil),
            fingerprint(subject: "Re: Plans"), fingerprint(plain: "See you at one.\nGrace"), fingerprint(sizes: [1]),
        ])
    func fingerprintTellsApart(other: String) {
        #expect(other != Self.fingerprint())
    }

    @Test("The fingerprint of an email is that of its fields")
    func fingerprintOfEmail() {
        let email = Email(
            accountId: "a", threadId: "t", messageId: "<m@x>", fromAddress: "grace@example.com", subject: "Plans",
            bodyPlain: "See you at noon.\nGrace", dateReceived: Date(), dateSent: Self.date)
        #expect(EmailIdentity.fingerprint(of: email, attachmentSizes: [3]) == Self.fingerprint(sizes: [3]))
    }
}
