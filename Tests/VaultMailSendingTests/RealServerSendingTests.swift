import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

/// Sending end to end against a real Dovecot and a real SMTP server (aiosmtpd) on loopback.
/// Serialized: every test starts both servers.
@Suite("Sending against real servers (Dovecot + aiosmtpd)", .serialized)
struct RealServerSendingTests {
    @Test("AC-F-07, AC-U-10: the draft is replaced in Drafts; the message arrives byte-identical; a copy lands in Sent")
    func sendAndFile() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending()
        let compose = sending.compose
        let attachment = DraftAttachment(filename: "report.pdf", mimeType: "application/pdf", data: Data((0..<3000).map { UInt8($0 % 256) }))
        let id = try await fixture.draft(compose, subject: "Draft one")
        _ = try await fixture.draft(compose, subject: "Draft two", attachments: [attachment], draftId: id)
        let drafts = try await fixture.messages(in: "Drafts")
        #expect(drafts.count == 1, "the previous version is removed by UID")
        #expect(GMimeMessageParser().parse(Array(try #require(drafts.first?.rawMessage))).subject == "Draft two")
        #expect(drafts.first?.flags?.contains(.draft) == true)

        try await compose.queueForSending(emailId: id)
        let built = try #require(try await GRDBOutboxRepository(database: database).entry(emailId: id)?.rawMessage)
        try await compose.executeSend(emailId: id)

        let received = try await fixture.smtp.waitForMessages(count: 1)
        #expect(received[0].raw == Data(built))
        #expect(received[0].mailFrom == "ada@example.com")
        #expect(received[0].recipients == ["grace@example.com"])
        let sent = try await fixture.messages(in: "Sent")
        #expect(sent.map(\.rawMessage) == [Data(built)])
        #expect(sent.first?.flags?.contains(.seen) == true)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)

        let entry = try #require(try await GRDBOutboxRepository(database: database).entry(emailId: id))
        #expect(entry.state == .sent)
        #expect(!entry.filingPending)
        #expect(entry.sentCopy?.uid == sent.first?.uid)
        #expect(try await GRDBEmailRepository(database: database).getEmail(id: id)?.folderTypes == [.sent])
        #expect(fixture.smtp.authAttempts == [.init(mechanism: "PLAIN", login: "ada", success: true)])
    }

    @Test("AC-F-07: non-ASCII subject, body and attachment name survive the trip (STARTTLS account; both parsers)")
    func nonASCII() async throws {
        let fixture = try await ServerFixture(security: .starttls)
        let (_, sending) = try fixture.sending()
        let subject = "Grüße aus Zürich — 会議の議事録 ☕️"
        let body = "Liebe Grace,\nanbei die Präsentation für Q1.\n日本語もあります 👩‍👩‍👧\n"
        let pdf = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let name = "Präsentation – Q1 ✓ 2026.pdf"
        let id = try await fixture.draft(
            sending.compose, to: ["Zoë Ångström <zoe@example.se>"], subject: subject, body: body,
            attachments: [DraftAttachment(filename: name, mimeType: "application/pdf", data: pdf)])
        #expect(try await sending.compose.send(emailId: id) == .sent)

        let raw = try await fixture.smtp.waitForMessages(count: 1)[0].raw
        let ours = GMimeMessageParser().parse(Array(raw))
        #expect(ours.subject == subject)
        #expect(ours.to == [Participant(name: "Zoë Ångström", email: "zoe@example.se")])
        #expect(ours.from == [Participant(name: "Ada Lovelace", email: "ada@example.com")])
        #expect(ours.textPlain?.replacingOccurrences(of: "\r\n", with: "\n") == body)
        #expect(ours.attachments.map(\.filename) == [name])
        #expect(ours.attachments.map(\.size) == [pdf.count])

        let python = try await BlockingWork.run { try PythonEmailParser.parse(raw) }
        #expect(python.defects.isEmpty, "\(python.defects)")
        #expect(python.subject == subject)
        #expect(python.text == body)
        #expect(python.attachments.map(\.filename) == [name])
        #expect(python.attachments.first?.size == pdf.count)
        #expect(try await fixture.messages(in: "Sent").map(\.rawMessage) == [raw])
        #expect(Array(fixture.smtp.commands.prefix(3)) == ["EHLO", "STARTTLS", "EHLO"])
    }

    @Test("E-12, AC-P-04: SMTP server down: queued with the reason; after a restart of the app and the server it is sent exactly once")
    func serverDownAcrossRestart() async throws {
        let fixture = try await ServerFixture()
        fixture.smtp.stop()
        var id = ""
        do {
            let (_, sending) = try fixture.sending()
            id = try await fixture.draft(sending.compose)
            guard case .queued(let reason, let next) = try await sending.compose.send(emailId: id) else {
                Issue.record("the message should wait in the outbox")
                return
            }
            #expect(reason.contains("127.0.0.1:\(fixture.smtp.tlsPort)"))
            #expect(reason.contains("refused"))
            #expect(next == fixture.clock.now.addingTimeInterval(30))
            // Sending now (as a notification reply does) also leaves it queued, and says so.
            do {
                try await sending.compose.executeSend(emailId: id)
                Issue.record("executeSend must throw while the server is down")
            } catch let error as ComposeError {
                guard case .notSent(_, .queued, let why) = error else { throw error }
                #expect(why.contains("refused"))
                #expect(error.description.contains("retried automatically"))
            }
        }
        // The app stops and starts again (a new store connection, a new run); the server is back.
        let (database, restarted) = try fixture.sending()
        let outbox = try await GRDBOutboxRepository(database: database).outbox(accountId: fixture.account.id)
        #expect(outbox.map(\.id) == [id])
        #expect(outbox.first?.state == .queued)
        #expect(outbox.first?.lastError?.contains("refused") == true)
        try await fixture.smtp.restart()
        #expect((await restarted.processor.processNow()).sent.isEmpty, "not due before its backoff")
        #expect(outbox.first?.attemptCount == 2)
        #expect(outbox.first?.nextAttemptAt == fixture.clock.now.addingTimeInterval(60))
        fixture.clock.advance(by: 61)
        #expect((await restarted.processor.processNow()).sent == [id])

        let (_, again) = try fixture.sending()
        #expect(await again.processor.processNow() == OutboxProcessor.Report())
        #expect(fixture.smtp.messages.count == 1)
        #expect(try await fixture.messages(in: "Sent").count == 1)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)
    }

    @Test("Issue 33: send later: nothing goes before the time, not after a restart either; when due, two processes on the store send it once, dated the chosen time, filed in Sent, gone from Drafts")
    func sendLater() async throws {
        let fixture = try await ServerFixture()
        let at = fixture.clock.now.addingTimeInterval(3600)
        var id = ""
        do {
            let (_, sending) = try fixture.sending()
            id = try await fixture.draft(sending.compose)
            try await sending.compose.schedule(emailId: id, at: at)
            #expect(try await sending.compose.scheduled().map(\.id) == [id])
            #expect(try await sending.compose.scheduled().first?.nextAttemptAt == at)
            #expect(await sending.processor.processNow() == OutboxProcessor.Report())
        }
        // A restart before the time: still waiting, still nothing sent.
        let (_, first) = try fixture.sending()
        let (_, second) = try fixture.sending()
        #expect(await first.processor.processNow() == OutboxProcessor.Report())
        fixture.clock.advance(by: 3599)
        #expect(await second.processor.processNow() == OutboxProcessor.Report())
        #expect(fixture.smtp.messages.isEmpty)
        // Due: the two (a daemon and a tool on one store) at once; one sends it.
        fixture.clock.advance(by: 1)
        async let one = first.processor.processNow()
        async let two = second.processor.processNow()
        let reports = await [one, two]
        #expect(reports.flatMap(\.sent) == [id])
        #expect(fixture.smtp.messages.count == 1)
        let raw = String(decoding: try #require(fixture.smtp.messages.first).raw, as: UTF8.self)
        #expect(raw.contains("Date: \(RFC5322MessageBuilder.rfc5322Date(at, in: fixture.clock.timeZone))"), "\(raw.prefix(400))")
        #expect(try await first.compose.scheduled().isEmpty)
        #expect(try await fixture.messages(in: "Sent").count == 1)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)
        let (_, later) = try fixture.sending()
        #expect(await later.processor.processNow() == OutboxProcessor.Report())
        #expect(fixture.smtp.messages.count == 1)
    }

    @Test("AC-U-11: undo within the delay: nothing is transmitted (the SMTP server sees no connection but a marker), the draft stays")
    func undo() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending(undoDelay: 600)
        let id = try await fixture.draft(sending.compose)
        let compose = sending.compose
        let send = Task { try await compose.send(emailId: id) }
        try await waitUntil { try await GRDBOutboxRepository(database: database).entry(emailId: id)?.state == .queued }
        try await compose.cancel(emailId: id)
        #expect(try await send.value == .cancelled)
        #expect(await sending.processor.processNow() == OutboxProcessor.Report())
        // A marker connection's QUIT ends what the server saw: it is the only connection.
        let marker = try await SMTPConnection.connect(to: SMTPEndpoint(host: "127.0.0.1", port: fixture.smtp.port, security: .plain))
        await marker.quit()
        try await fixture.smtp.waitForEvent { $0["verb"] as? String == "QUIT" }
        #expect(fixture.smtp.connectionCount == 1)
        #expect(fixture.smtp.commands == ["EHLO", "QUIT"])
        #expect(try await GRDBOutboxRepository(database: database).entry(emailId: id)?.state == .draft)
        #expect(try await fixture.messages(in: "Drafts").count == 1)
        #expect(try await fixture.messages(in: "Sent").isEmpty)
    }

    @Test("NOTIF-06d: a reply from the notification handler has the right To, Re: subject, In-Reply-To, References and body, and goes out without the undo delay")
    func notificationReply() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending(undoDelay: 600)
        let folders = MailFixtures.standardFolders(accountId: fixture.account.id)
        var originals: [Email] = []
        for (number, subject) in [(1, "Quarterly report"), (2, "RE: Budget")] {
            let email = Email(
                accountId: fixture.account.id, threadId: "thread-\(number)", messageId: "<q\(number)@example.com>",
                references: "<root\(number)@example.com>", fromAddress: "grace@example.com", fromName: "Grace Hopper",
                toAddresses: [Participant(email: "ada@example.com")], subject: subject, bodyPlain: "Please have a look.",
                snippet: "Please have a look.", dateReceived: fixture.clock.now.addingTimeInterval(-10))
            originals += try await GRDBEmailRepository(database: database)
                .saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])
        }
        let text = "Sounds good — see you Monday ☕"
        let (outcomes, removed) = try await Self.replyThroughNotifications(
            to: originals, text: text, database: database, compose: sending.compose, clock: fixture.clock)

        for (index, outcome) in outcomes.enumerated() {
            guard case .replied(let draftId) = outcome else {
                Issue.record("reply \(index) failed: \(outcome)")
                return
            }
            // Sent by the time the handler was done: no undo delay (it is 600 s here).
            #expect(try await GRDBOutboxRepository(database: database).entry(emailId: draftId)?.state == .sent)
        }
        let replies = try await fixture.smtp.waitForMessages(count: 2)
        for (reply, original) in zip(replies, originals) {
            #expect(reply.recipients == ["grace@example.com"])
            let parsed = GMimeMessageParser().parse(Array(reply.raw))
            #expect(parsed.to.map(\.email) == ["grace@example.com"])
            #expect(parsed.inReplyTo == original.messageId)
            #expect(parsed.references == [original.references!, original.messageId])
            // Written by Compose.answer, as every reply (issue 28): the text, the attribution, the quote.
            let body = parsed.textPlain?.replacingOccurrences(of: "\r\n", with: "\n") ?? ""
            #expect(body.hasPrefix(text + "\n\nOn ") && body.contains("Grace Hopper <grace@example.com> wrote:\n> Please have a look."), "\(body)")
            #expect(parsed.from.first?.email == "ada@example.com")
        }
        #expect(replies.map { GMimeMessageParser().parse(Array($0.raw)).subject } == ["Re: Quarterly report", "RE: Budget"])
        #expect(removed.count == 2)
        #expect(try await fixture.messages(in: "Sent").count == 2)
        #expect(try await fixture.messages(in: "Drafts").isEmpty)
    }

    /// The real composition (`AppDependencies`) over the store, replying through `compose`:
    /// the originals are notified, then the user replies to each from its notification.
    /// Returns the handler's outcomes and the notifications it removed.
    @MainActor
    static func replyThroughNotifications(
        to originals: [Email], text: String, database: AppDatabase, compose: ComposeEmailService, clock: FixedClock
    ) async throws -> ([NotificationActionOutcome], [String]) {
        let center = MockNotificationCenter()
        let app = await AppDependencies(database: database, center: center, composeEmail: compose, clock: clock)
        app.notificationSyncCoordinator.markFirstLaunchComplete()
        await app.notificationSyncCoordinator.didSyncNewEmails(originals, fromBackground: false, activeFolderType: nil)
        guard center.addedRequests.count == originals.count else {
            throw SMTPTestServer.Failure(description: "expected \(originals.count) notifications, got \(center.addedRequests.count)")
        }
        var outcomes: [NotificationActionOutcome] = []
        for original in originals {
            try await center.respond(
                to: NotificationRequest.identifier(forEmailId: original.id), action: AppConstants.notificationActionReply,
                text: text)
            outcomes.append(app.notificationResponseHandler.lastOutcome ?? .dismissed)
        }
        return (outcomes, center.removedIdentifiers)
    }

    @Test("AC-F-07: Bcc recipients get the message, but no header names them (not in what arrived, not in Sent)")
    func bcc() async throws {
        let fixture = try await ServerFixture()
        let (_, sending) = try fixture.sending()
        let id = try await fixture.draft(
            sending.compose, to: ["grace@example.com"], cc: ["Bob <bob@example.com>"], bcc: ["Secret Sam <sam@example.com>"])
        #expect(try await sending.compose.send(emailId: id) == .sent)
        let received = try await fixture.smtp.waitForMessages(count: 1)[0]
        #expect(received.recipients == ["grace@example.com", "bob@example.com", "sam@example.com"])
        let text = String(decoding: received.raw, as: UTF8.self)
        #expect(!text.contains("sam@example.com"))
        #expect(!text.lowercased().contains("\r\nbcc:"))
        #expect(try await !BlockingWork.run { try PythonEmailParser.parse(received.raw) }.hasBcc)
        #expect(GMimeMessageParser().parse(Array(received.raw)).bcc.isEmpty)
        let sent = try await fixture.messages(in: "Sent")
        #expect(sent.map(\.rawMessage) == [received.raw])
    }

    @Test("AC-F-07: a wrong password fails the send with the server's reply, host and port, never the password")
    func wrongPassword() async throws {
        let fixture = try await ServerFixture()
        let wrong = "not-the-right-password-42"
        let (database, sending) = try fixture.sending(secret: wrong)
        let id = try await fixture.draft(sending.compose)
        guard case .failed(let reason) = try await sending.compose.send(emailId: id) else {
            Issue.record("a refused login must fail the message, not retry it")
            return
        }
        #expect(reason.contains("cannot log in to 127.0.0.1:\(fixture.smtp.tlsPort) as ada: 535"))
        #expect(reason.contains("Check the user name and password"))
        #expect(!reason.contains(wrong))
        let entry = try #require(try await GRDBOutboxRepository(database: database).entry(emailId: id))
        #expect(entry.state == .failed)
        #expect(!(entry.lastError ?? "").contains(wrong))
        #expect(!(entry.draftSyncError ?? "").contains(wrong))
        #expect(fixture.smtp.messages.isEmpty)
        #expect(!fixture.smtp.output.contains(wrong))
    }

    @Test("AC-F-07: an untrusted SMTP certificate fails the send before AUTH: the server saw no AUTH and no message")
    func untrustedCertificate() async throws {
        let fixture = try await ServerFixture(smtpCertificate: .selfSigned)
        let (_, sending) = try fixture.sending()
        let id = try await fixture.draft(sending.compose)
        guard case .failed(let reason) = try await sending.compose.send(emailId: id) else {
            Issue.record("an untrusted server must fail the message")
            return
        }
        #expect(reason.contains("not signed by a trusted certificate authority"))
        #expect(reason.contains("Nothing was sent to the server"))
        // A later plain connection's QUIT marks the end of what the server saw.
        let marker = try await SMTPConnection.connect(to: SMTPEndpoint(host: "127.0.0.1", port: fixture.smtp.port, security: .plain))
        await marker.quit()
        try await fixture.smtp.waitForEvent { $0["verb"] as? String == "QUIT" }
        #expect(fixture.smtp.authAttempts.isEmpty)
        #expect(!fixture.smtp.commands.contains("AUTH"))
        #expect(fixture.smtp.messages.isEmpty)
    }
}
