import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailTesting

/// Send later kept on the IMAP server (issue 33, docs/sending.md "Send later"): two VaultMail
/// homes (two stores, as on two machines) on one Dovecot account and the SMTP test server, and a
/// plain IMAP client reading Drafts. Each home is `MailSending` as the daemon composes it;
/// `processNow()` is one pass of its outbox processor.
@Suite("Send later on the server: two homes, one account (Dovecot + aiosmtpd)", .serialized)
struct SendLaterServerTests {
    @Test("scheduled on home A: a plain IMAP client sees its $SendAt keyword and Bcc in Drafts; home B lists it with its time; at the time the two homes send each of three messages once (one delivery, one Sent copy, gone from Drafts)")
    func twoHomesSendOnce() async throws {
        let fixture = try await ServerFixture()
        let other = try await fixture.addHome("b")
        let at = fixture.clock.now.addingTimeInterval(3600)
        let (_, homeA) = try fixture.sending()
        var ids: [String] = []
        for number in 1...3 {
            let id = try await fixture.draft(
                homeA.compose, bcc: number == 1 ? ["Ada Secret <secret@example.com>"] : [], subject: "Plan \(number)")
            try await homeA.compose.schedule(emailId: id, at: at)
            ids.append(id)
        }

        // Another IMAP client: three drafts, each with the send time as a keyword; the Bcc in the copy.
        let drafts = try await fixture.messages(in: "Drafts")
        #expect(drafts.count == 3)
        for draft in drafts {
            #expect(draft.flags?.contains { $0.name == SendAtKeyword.keyword(for: at) } == true, "\(draft.flags ?? [])")
            #expect(draft.flags?.contains(.draft) == true)
        }
        let withBcc = drafts.compactMap(\.rawMessage).map { GMimeMessageParser().parse([UInt8]($0)) }.filter { !$0.bcc.isEmpty }
        #expect(withBcc.map(\.subject) == ["Plan 1"])
        #expect(SendAtKeyword.keyword(for: at).hasPrefix("$SendAt-"))

        // Home B (never used before) takes them in as scheduled, with their time and recipients.
        let (_, homeB) = try fixture.sending(home: other)
        #expect(await homeB.processor.processNow().sent.isEmpty)
        let seen = try await homeB.compose.scheduled()
        #expect(Set(seen.map(\.id)) == Set(ids))
        #expect(seen.allSatisfy { $0.sendAt == at })
        #expect(seen.first { $0.email.subject == "Plan 1" }?.email.bccAddresses.map(\.email) == ["secret@example.com"])

        // Not before the time, on either home.
        fixture.clock.advance(by: 3599)
        #expect(await homeA.processor.processNow().sent.isEmpty)
        #expect(await homeB.processor.processNow().sent.isEmpty)
        #expect(fixture.smtp.messages.isEmpty)

        // Due: both homes at the same moment; each message goes once.
        fixture.clock.advance(by: 1)
        async let one = homeA.processor.processNow()
        async let two = homeB.processor.processNow()
        let reports = await [one, two]
        #expect(reports.flatMap(\.sent).sorted() == ids.sorted(), "\(reports)")
        #expect(fixture.smtp.messages.count == 3)
        let plan1 = try #require(fixture.smtp.messages.first { String(decoding: $0.raw, as: UTF8.self).contains("Subject: Plan 1") })
        #expect(Set(plan1.recipients) == ["grace@example.com", "secret@example.com"])
        #expect(!String(decoding: plan1.raw, as: UTF8.self).contains("secret@example.com"), "Bcc never in the sent bytes")
        #expect(try await fixture.messages(in: "Sent").count == 3)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)

        // The next passes: nothing more is sent; both homes have each message as sent.
        fixture.clock.advance(by: 3600)
        #expect(await homeA.processor.processNow().sent.isEmpty)
        #expect(await homeB.processor.processNow().sent.isEmpty)
        #expect(fixture.smtp.messages.count == 3)
        for home in ["store", other] {
            let outbox = GRDBOutboxRepository(database: try fixture.openDatabase(home: home))
            for id in ids { #expect(try await outbox.entry(emailId: id)?.state == .sent, "\(home) \(id)") }
        }
    }

    @Test("a restart of home A before the time (a new run on its store) and home B started after it: sent once, by whichever looks first; the other marks it sent")
    func restartBeforeTheTime() async throws {
        let fixture = try await ServerFixture()
        let other = try await fixture.addHome("b")
        let at = fixture.clock.now.addingTimeInterval(600)
        var id = ""
        do {
            let (_, homeA) = try fixture.sending()
            id = try await fixture.draft(homeA.compose, subject: "After the restart")
            try await homeA.compose.schedule(emailId: id, at: at)
        }
        fixture.clock.advance(by: 601)
        let (_, homeB) = try fixture.sending(home: other)
        #expect(await homeB.processor.processNow().sent == [id])
        let (_, restarted) = try fixture.sending()
        #expect(await restarted.processor.processNow().sent.isEmpty)
        #expect(fixture.smtp.messages.count == 1)
        #expect(try await restarted.compose.outboxEntries(accountId: nil).isEmpty)
        #expect(try await GRDBOutboxRepository(database: try fixture.openDatabase()).entry(emailId: id)?.state == .sent)
        #expect(try await fixture.messages(in: "Sent").count == 1)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)
    }

    @Test("cancel on home B takes the keyword off on the server (an ordinary draft there) and home A does not send it; a new time on A is followed by B; a draft deleted by another client is not sent")
    func cancelAndMoveAcrossHomes() async throws {
        let fixture = try await ServerFixture()
        let other = try await fixture.addHome("b")
        let at = fixture.clock.now.addingTimeInterval(3600)
        let (_, homeA) = try fixture.sending()
        let (_, homeB) = try fixture.sending(home: other)
        let cancelled = try await fixture.draft(homeA.compose, subject: "Cancelled on B")
        let moved = try await fixture.draft(homeA.compose, subject: "Moved on A")
        let deleted = try await fixture.draft(homeA.compose, subject: "Deleted elsewhere")
        for id in [cancelled, moved, deleted] { try await homeA.compose.schedule(emailId: id, at: at) }
        await homeB.processor.processNow()
        #expect(Set(try await homeB.compose.scheduled().map(\.id)) == [cancelled, moved, deleted])

        // Cancel on B: the copy in Drafts stays, without a send time.
        try await homeB.compose.cancel(emailId: cancelled)
        let copies = try await fixture.messages(in: "Drafts")
        let parser = GMimeMessageParser()
        let copy = try #require(copies.first { parser.parse([UInt8]($0.rawMessage ?? Data())).subject == "Cancelled on B" })
        #expect(copy.flags?.contains { SendAtKeyword.isKeyword($0.name) } == false, "\(copy.flags ?? [])")
        // A sees it as a draft again at its next pass.
        await homeA.processor.processNow()
        #expect(try await GRDBOutboxRepository(database: try fixture.openDatabase()).entry(emailId: cancelled)?.state == .draft)

        // A new time on A: B follows it.
        let later = at.addingTimeInterval(1800)
        try await homeA.compose.schedule(emailId: moved, at: later)
        await homeB.processor.processNow()
        #expect(try await homeB.compose.scheduled().first { $0.id == moved }?.sendAt == later)

        // Another client deletes a scheduled draft.
        try await Self.deleteFromDrafts(subject: "Deleted elsewhere", fixture: fixture)

        // At the first time nothing goes; at the later one the moved message goes once.
        fixture.clock.advance(by: 3600)
        async let one = homeA.processor.processNow()
        async let two = homeB.processor.processNow()
        let first = await [one, two]
        #expect(first.flatMap(\.sent).isEmpty, "\(first)")
        #expect(fixture.smtp.messages.isEmpty)
        fixture.clock.advance(by: 1800)
        async let three = homeA.processor.processNow()
        async let four = homeB.processor.processNow()
        let second = await [three, four]
        #expect(second.flatMap(\.sent) == [moved], "\(second)")
        #expect(fixture.smtp.messages.count == 1)
        #expect(try await GRDBOutboxRepository(database: try fixture.openDatabase()).entry(emailId: deleted)?.state == .draft)
    }

    @Test("a scheduled send that failed after its claim on the server (the SMTP server unreachable) is tried again after its backoff, not after the claim's 15-minute lease: this store knows its own claim; sent once")
    func retryAfterOwnClaim() async throws {
        let fixture = try await ServerFixture()
        let transport = RecordingMailTransport()
        let sending = MailSending(
            database: try fixture.openDatabase(), credentials: FixedCredentialProvider(everyAccount: ServerFixture.password),
            undoDelaySeconds: { 0 }, clock: fixture.clock, transport: transport)
        let id = try await fixture.draft(sending.compose, subject: "Retried")
        try await sending.compose.schedule(emailId: id, at: fixture.clock.now.addingTimeInterval(600))
        await transport.setBehaviour(.fail(MailTransportError(kind: .unreachable, message: "cannot connect to 127.0.0.1:1: refused")))
        fixture.clock.advance(by: 600)
        #expect(await sending.processor.processNow().willRetry == [id])
        // Claimed on the server: the lease and this store's claim keyword.
        let copy = try #require(try await fixture.messages(in: "Drafts").first)
        #expect(copy.flags?.contains { $0.name.hasPrefix(SendAtKeyword.claimPrefix) } == true, "\(copy.flags ?? [])")
        await transport.setBehaviour(.accept)
        fixture.clock.advance(by: 31)
        #expect(await sending.processor.processNow().sent == [id])
        #expect(await transport.sent.count == 1)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)
        #expect(try await fixture.messages(in: "Sent").count == 1)
    }

    /// A plain IMAP client deletes the Drafts message with this subject.
    static func deleteFromDrafts(subject: String, fixture: ServerFixture) async throws {
        let imap = try await IMAPConnection.connect(
            to: IMAPEndpoint(host: fixture.dovecot.host, port: fixture.dovecot.imapsPort, security: .tls, caFile: fixture.dovecot.caFile))
        try await imap.login(user: ServerFixture.user, password: Secret(ServerFixture.password))
        _ = try await imap.select("Drafts")
        let uids = try await imap.searchUIDs(header: "Subject", containing: subject)
        #expect(uids.count == 1)
        try await imap.deleteMessages(uids: UIDSet(uids))
        await imap.logout()
    }
}
