import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailStore
import VaultMailTesting

/// The compose use case and the outbox over the real store, with a recording transport and
/// an in-memory IMAP server: drafts, queueing, undo, retries, restarts, filing.
@Suite("Drafts and the outbox (AC-U-10, AC-U-11, AC-U-05, E-08, E-12)")
struct OutboxTests {
    @Test("AC-U-10: a draft is saved locally and to Drafts; saving again replaces the server copy; it survives a restart")
    func draftSaving() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft(subject: "First version")
        var entry = try #require(try await fake.entry(id))
        #expect(entry.state == .draft)
        #expect(entry.email.isDraft)
        #expect(entry.email.toAddresses == [Participant(name: "Grace Hopper", email: "grace@example.com")])
        #expect(entry.remoteDraft != nil)
        #expect(entry.draftSyncError == nil)
        #expect(try await fake.folderTypes(id) == [.drafts])
        #expect(await fake.remote.messages(in: .drafts).count == 1)

        let same = try await fake.compose.saveDraft(
            draftId: id, accountId: fake.account.id, threadId: nil, toAddresses: ["grace@example.com"], ccAddresses: [],
            bccAddresses: [], subject: "Second version", bodyPlain: "Changed.", inReplyTo: nil, references: nil,
            attachments: [DraftAttachment(filename: "a.txt", mimeType: "text/plain", data: Data("A".utf8))])
        #expect(same == id)
        let onServer = await fake.remote.messages(in: .drafts)
        #expect(onServer.count == 1)
        let parsed = GMimeMessageParser().parse(try #require(onServer.first?.message))
        #expect(parsed.subject == "Second version")
        #expect(parsed.attachments.map(\.filename) == ["a.txt"])
        #expect(onServer.first?.flags == ["\\Draft", "\\Seen"])

        let restarted = fake.restarted()
        entry = try #require(try await restarted.entry(id))
        #expect(entry.email.subject == "Second version")
        #expect(try await restarted.outbox.attachments(emailId: id).map(\.filename) == ["a.txt"])
    }

    @Test("E-12: with the IMAP server unreachable the draft is still saved, with the reason")
    func draftOffline() async throws {
        let fake = try await FakeSending.make()
        await fake.remote.setReachable(false)
        let id = try await fake.draft()
        let entry = try #require(try await fake.entry(id))
        #expect(entry.state == .draft)
        #expect(entry.draftSyncError?.contains("saved on this device only") == true)
        #expect(entry.draftSyncError?.contains("imap.example.com:993") == true)
    }

    @Test("AC-F-07: sending: the SMTP envelope has every recipient (Bcc too), a copy goes to Sent, the draft leaves Drafts")
    func sendNow() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft(cc: ["bob@example.com"], bcc: ["Secret <hidden@example.com>"])
        #expect(try await fake.compose.send(emailId: id) == .sent)
        let sent = try #require(await fake.transport.sent.first)
        #expect(sent.envelope == MailEnvelope(
            sender: "ada@example.com", recipients: ["grace@example.com", "bob@example.com", "hidden@example.com"]))
        #expect(!String(decoding: sent.message, as: UTF8.self).contains("hidden@example.com"))
        let entry = try #require(try await fake.entry(id))
        #expect(entry.state == .sent)
        #expect(entry.transmittedAt == fake.clock.now)
        #expect(!entry.filingPending)
        #expect(entry.sentCopy?.folderPath == "Sent")
        #expect(await fake.remote.messages(in: .sent).map(\.message) == [sent.message])
        #expect(await fake.remote.messages(in: .sent).first?.flags == ["\\Seen"])
        #expect(await fake.remote.messages(in: .drafts).isEmpty)
        #expect(try await fake.folderTypes(id) == [.sent])
        #expect(try await fake.outbox.outbox(accountId: nil).isEmpty)
        await #expect(throws: ComposeError.wrongState(emailId: id, state: .sent, action: "queue")) {
            try await fake.compose.queueForSending(emailId: id)
        }
    }

    @Test("AC-F-07: a Gmail account files nothing in Sent itself (Gmail does), but its draft is still removed")
    func gmail() async throws {
        var account = MailFixtures.account(name: "gmail", email: "ada@gmail.com")
        account.imapHost = "imap.gmail.com"
        let fake = try await FakeSending.make(account: account)
        let id = try await fake.draft()
        #expect(await fake.remote.messages(in: .drafts).count == 1)
        #expect(try await fake.compose.send(emailId: id) == .sent)
        #expect(await fake.transport.sent.count == 1)
        #expect(await fake.remote.messages(in: .sent).isEmpty)
        #expect(!(await fake.remote.calls.contains("append sent")))
        #expect(await fake.remote.messages(in: .drafts).isEmpty)
        #expect(try await fake.entry(id)?.filingPending == false)
    }

    @Test("AC-U-11: during the undo delay nothing is transmitted; cancel makes it a draft again")
    func undoWithinDelay() async throws {
        let fake = try await FakeSending.make(undoDelay: 600)
        let id = try await fake.draft()
        let compose = fake.compose
        let sending = Task { try await compose.send(emailId: id) }
        try await waitUntil { try await fake.state(id) == .queued }
        // The processor must not take it during the delay either.
        let report = await fake.processor.processNow()
        #expect(report.sent.isEmpty)
        try await fake.compose.cancel(emailId: id)
        #expect(try await sending.value == .cancelled)
        #expect(await fake.transport.attempts == 0)
        let entry = try #require(try await fake.entry(id))
        #expect(entry.state == .draft)
        #expect(entry.email.isDraft)
        #expect(try await fake.folderTypes(id) == [.drafts])
        #expect(await fake.remote.messages(in: .drafts).count == 1, "the draft stays on the server")
        #expect((await fake.processor.processNow()).sent.isEmpty)
        #expect(await fake.transport.attempts == 0)
    }

    @Test("AC-U-11: when the delay is over the message is sent; with delay 0 it goes at once")
    func afterDelay() async throws {
        let delayed = try await FakeSending.make(undoDelay: 1)
        let id = try await delayed.draft()
        let start = ContinuousClock.now
        #expect(try await delayed.compose.send(emailId: id) == .sent)
        #expect(ContinuousClock.now - start >= .seconds(1))
        #expect(await delayed.transport.sent.count == 1)

        let immediate = try await FakeSending.make(undoDelay: 0)
        let other = try await immediate.draft()
        #expect(try await immediate.compose.send(emailId: other) == .sent)
        #expect(await immediate.transport.sent.count == 1)
    }

    @Test("AC-U-11: the app stopping during the delay: the processor of the next run sends it after the delay, once")
    func restartDuringDelay() async throws {
        let fake = try await FakeSending.make(undoDelay: 30)
        let id = try await fake.draft()
        let compose = fake.compose
        let sending = Task { try await compose.send(emailId: id) }
        try await waitUntil { try await fake.state(id) == .queued }
        sending.cancel()  // the app goes away; the message stays queued
        _ = try await sending.value
        let next = fake.restarted()
        #expect((await next.processor.processNow()).sent.isEmpty, "still within the undo delay")
        fake.clock.advance(by: 31)
        #expect((await next.processor.processNow()).sent == [id])
        #expect((await next.processor.processNow()).sent.isEmpty)
        #expect(await fake.transport.sent.count == 1)
    }

    @Test("Issue 33: send later: times read as the tool and composer write them, past and unreadable ones refused with what to do; cancel makes it a draft to edit; scheduling again moves the time; it goes once, when due")
    func sendLaterRules() async throws {
        let fake = try await FakeSending.make()
        let compose = fake.compose
        let now = fake.clock.now
        // Times: local in the clock's zone (UTC here) or with an offset.
        let local = Snooze.localText(now.addingTimeInterval(2 * 3600), timeZone: fake.clock.timeZone)
        #expect(try await compose.sendTime(from: " \(local) ") == now.addingTimeInterval(2 * 3600))
        let offset = try await compose.sendTime(from: "2100-01-01T09:00:00+01:00")
        #expect(offset == Date(timeIntervalSince1970: 4_102_473_600))
        let unreadable = try await #require(throws: ComposeError.self) { _ = try await compose.sendTime(from: "tomorrowish") }
        #expect(unreadable == .unreadableSendTime("tomorrowish"))
        #expect(unreadable.description.contains("2026-12-01 09:00"))
        let past = try await #require(throws: ComposeError.self) { _ = try await compose.sendTime(from: "2001-01-01 09:00") }
        #expect(past.description.contains("2001-01-01 09:00 has passed"), "\(past)")
        // A preset's word, as the web composer's menu posts it (`sendLaterChoices`).
        let choices = compose.sendLaterChoices()
        #expect(choices.map(\.word).suffix(2) == ["tomorrow", "next-week"], "\(choices)")
        #expect(try await compose.sendTime(from: "tomorrow") == choices.first { $0.word == "tomorrow" }?.date)
        // A message in its undo-send window is not a scheduled one: the send time is kept apart.
        let undoing = try await FakeSending.make(undoDelay: 600)
        let waiting = try await undoing.draft(subject: "In its undo window")
        _ = try await undoing.compose.startSending(emailId: waiting)
        #expect(try await undoing.compose.scheduled().isEmpty)
        #expect(try await undoing.outbox.entry(emailId: waiting)?.sendAt == nil)
        try await undoing.compose.cancel(emailId: waiting)

        let id = try await fake.draft(subject: "First")
        await #expect(throws: ComposeError.self) { try await compose.schedule(emailId: id, at: now) }
        #expect(try await fake.state(id) == .draft)
        try await compose.schedule(emailId: id, at: now.addingTimeInterval(600))
        #expect(try await fake.state(id) == .queued)
        // Cancel: a draft again, edited, scheduled again at another time.
        try await compose.cancel(emailId: id)
        #expect(try await fake.state(id) == .draft)
        #expect(try await compose.scheduled().isEmpty)
        _ = try await compose.saveDraft(
            draftId: id, accountId: fake.account.id, threadId: nil, toAddresses: ["Grace Hopper <grace@example.com>"], ccAddresses: [],
            bccAddresses: [], subject: "Edited", bodyPlain: "New text.\n", inReplyTo: nil, references: nil, attachments: [])
        try await compose.schedule(emailId: id, at: now.addingTimeInterval(1200))
        // Scheduling a waiting message again only moves its time.
        try await compose.schedule(emailId: id, at: now.addingTimeInterval(900))
        #expect(try await compose.scheduled().map(\.nextAttemptAt) == [now.addingTimeInterval(900)])
        #expect(try await compose.scheduled().map(\.sendAt) == [now.addingTimeInterval(900)])

        fake.clock.advance(by: 899)
        #expect((await fake.processor.processNow()).sent.isEmpty)
        fake.clock.advance(by: 1)
        #expect((await fake.processor.processNow()).sent == [id])
        #expect((await fake.restarted().processor.processNow()).sent.isEmpty)
        let sent = await fake.transport.sent
        #expect(sent.count == 1)
        #expect(String(decoding: try #require(sent.first).message, as: UTF8.self).contains("Subject: Edited"))
        // Too late to cancel or move once sent.
        await #expect(throws: ComposeError.self) { try await compose.schedule(emailId: id, at: now.addingTimeInterval(5000)) }
    }

    @Test("AC-U-11: cancel once the message is being sent is refused as too late")
    func cancelTooLate() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        await fake.transport.holdNextSend()
        let compose = fake.compose
        let sending = Task { try await compose.send(emailId: id) }
        try await fake.transport.waitUntilHeld()
        await #expect(throws: ComposeError.tooLateToCancel(emailId: id, state: .sending)) {
            try await fake.compose.cancel(emailId: id)
        }
        await fake.transport.release()
        #expect(try await sending.value == .sent)
    }

    @Test("E-12, AC-P-04: unreachable server: queued with the reason, retried with backoff, sent once when it is back")
    func offlineThenOnline() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        let down = MailTransportError(kind: .unreachable, message: "cannot connect to smtp.example.com:465: refused")
        await fake.transport.setBehaviour(.fail(down))
        guard case .queued(let reason, let next) = try await fake.compose.send(emailId: id) else {
            Issue.record("expected the message to stay queued")
            return
        }
        #expect(reason == PlainWords.lines(down), "the words, then the detail on a line of its own")
        #expect(reason.hasPrefix("Server unreachable: the outgoing mail server can't be reached.") && reason.hasSuffix("Details: \(down.message)"))
        #expect(next == fake.clock.now.addingTimeInterval(30))
        var entry = try #require(try await fake.entry(id))
        #expect(entry.state == .queued)
        #expect(entry.attemptCount == 1)
        #expect(entry.lastError == PlainWords.lines(down))
        #expect(try await fake.outbox.outbox(accountId: fake.account.id).map(\.id) == [id])

        // Not due yet: nothing happens. Due and still down: the wait doubles.
        #expect((await fake.processor.processNow()).willRetry.isEmpty)
        fake.clock.advance(by: 30)
        #expect((await fake.processor.processNow()).willRetry == [id])
        entry = try #require(try await fake.entry(id))
        #expect(entry.attemptCount == 2)
        #expect(entry.nextAttemptAt == fake.clock.now.addingTimeInterval(60))

        // The network is back: due at once, sent exactly once.
        await fake.transport.setBehaviour(.accept)
        #expect((await fake.processor.connectivityRestored()).sent == [id])
        #expect((await fake.processor.processNow()).sent.isEmpty)
        #expect(await fake.transport.sent.count == 1)
        #expect(try await fake.state(id) == .sent)
    }

    @Test("E-08: refused and unauthorised messages fail with the reason; retry sends the same bytes; cancel a queued one")
    func failuresAndRetry() async throws {
        let fake = try await FakeSending.make()
        let rejected = try await fake.draft(subject: "Rejected")
        let refusal = MailTransportError(kind: .rejected, message: "cannot deliver to a recipient through smtp: 550 5.1.1")
        await fake.transport.setBehaviour(.fail(refusal))
        #expect(try await fake.compose.send(emailId: rejected) == .failed(reason: PlainWords.lines(refusal)))
        await #expect(throws: ComposeError.wrongState(emailId: rejected, state: .failed, action: "send")) {
            try await fake.compose.executeSend(emailId: rejected)
        }

        fake.clock.advance(by: 1)
        let waiting = try await fake.draft(subject: "Waiting")
        await fake.transport.setBehaviour(.fail(MailTransportError(kind: .unreachable, message: "offline")))
        _ = try await fake.compose.send(emailId: waiting)
        let outbox = try await fake.outbox.outbox(accountId: nil)
        #expect(outbox.map(\.state) == [.failed, .queued])
        #expect(outbox.map(\.lastError) == [PlainWords.lines(refusal), PlainWords.lines(MailTransportError(kind: .unreachable, message: "offline"))])

        try await fake.compose.cancel(emailId: waiting)
        #expect(try await fake.state(waiting) == .draft)
        #expect(try await fake.outbox.outbox(accountId: nil).map(\.id) == [rejected])

        await fake.transport.setBehaviour(.accept)
        let before = try #require(try await fake.entry(rejected)?.rawMessage)
        #expect(try await fake.compose.retry(emailId: rejected) == .sent)
        #expect(await fake.transport.sent.map(\.message) == [before])
    }

    @Test("AC-F-07: no two sends of one message: concurrent sends and the processor transmit it once")
    func raceToSend() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        try await fake.compose.queueForSending(emailId: id)
        let compose = fake.compose
        let processor = fake.processor
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask { try await compose.executeSend(emailId: id) }
                group.addTask { _ = await processor.processNow() }
            }
            try await group.waitForAll()
        }
        #expect(await fake.transport.attempts == 1)
        #expect(await fake.remote.messages(in: .sent).count == 1)
    }

    @Test("AC-F-07, E-12: restart mid-send: claims of another run wait out their lease; then nothing transmitted yet → sent once; transmitted → only filed; uncertain → failed or found in Sent")
    func crashRecovery() async throws {
        let fake = try await FakeSending.make()
        let outbox = fake.outbox
        let now = fake.clock.now
        let lease = now.addingTimeInterval(15 * 60)

        let notStarted = try await fake.draft(subject: "not started")
        try await fake.compose.queueForSending(emailId: notStarted)
        _ = try await outbox.claim(emailId: notStarted, runId: "old-run", now: now, ignoringSchedule: true, leaseUntil: lease)

        let transmitted = try await fake.draft(subject: "transmitted")
        try await fake.compose.queueForSending(emailId: transmitted)
        _ = try await outbox.claim(emailId: transmitted, runId: "old-run", now: now, ignoringSchedule: true, leaseUntil: lease)
        try await outbox.markDataStarted(emailId: transmitted, at: now)
        try await outbox.markTransmitted(emailId: transmitted, at: now)

        let uncertain = try await fake.draft(subject: "uncertain")
        try await fake.compose.queueForSending(emailId: uncertain)
        _ = try await outbox.claim(emailId: uncertain, runId: "old-run", now: now, ignoringSchedule: true, leaseUntil: lease)
        try await outbox.markDataStarted(emailId: uncertain, at: now)

        let inSent = try await fake.draft(subject: "already in Sent")
        try await fake.compose.queueForSending(emailId: inSent)
        let claimed = try #require(try await outbox.claim(emailId: inSent, runId: "old-run", now: now, ignoringSchedule: true, leaseUntil: lease))
        try await outbox.markDataStarted(emailId: inSent, at: now)
        await fake.remote.store(try #require(claimed.rawMessage), messageId: claimed.email.messageId, in: .sent)

        // Another run over the same store and servers (the app restarted, or the command-line
        // tool beside the daemon): while the claims' lease lasts it leaves them alone; the sent
        // message's filing is its to finish.
        let next = fake.restarted()
        let during = await next.processor.processNow()
        #expect(during.sent.isEmpty && during.failed.isEmpty && during.willRetry.isEmpty)
        #expect(during.filed == [transmitted])
        #expect(await fake.transport.attempts == 0)

        // The lease is over: the claims were interrupted.
        fake.clock.advance(by: 15 * 60 + 1)
        let first = await next.processor.processNow()
        #expect(first.sent.sorted() == [notStarted, inSent].sorted())
        #expect(first.failed == [uncertain])
        #expect(await fake.transport.sent.count == 1, "only the message that never left is transmitted")
        #expect(await fake.transport.sent.first.map { GMimeMessageParser().parse($0.message).subject } == "not started")
        #expect(try await fake.entry(uncertain)?.lastError?.contains("it may have been delivered") == true)
        #expect(try await fake.state(inSent) == .sent)
        #expect(await fake.remote.messages(in: .sent).count == 3)  // not started, transmitted, already in Sent

        let second = await next.processor.processNow()
        #expect(second == OutboxProcessor.Report())
        #expect(await fake.transport.sent.count == 1)
    }

    @Test("Issue 34, E-12: a daemon killed mid-send is not waited for: the next daemon takes over its claim at once (nothing transmitted yet → sent once); the tool's claim keeps its lease")
    func killedDaemonsClaim() async throws {
        let fake = try await FakeSending.make()
        let outbox = fake.outbox
        let now = fake.clock.now
        let lease = now.addingTimeInterval(15 * 60)
        let daemons = try await fake.draft(subject: "claimed by a killed daemon")
        try await fake.compose.queueForSending(emailId: daemons)
        _ = try await outbox.claim(emailId: daemons, runId: OutboxSender.daemonRunPrefix + "killed", now: now, ignoringSchedule: true, leaseUntil: lease)
        let tools = try await fake.draft(subject: "claimed by the tool")
        try await fake.compose.queueForSending(emailId: tools)
        _ = try await outbox.claim(emailId: tools, runId: "tool-run", now: now, ignoringSchedule: true, leaseUntil: lease)

        // Another tool run leaves both alone while the leases last.
        #expect(await fake.restarted().processor.processNow().sent.isEmpty)
        // The next daemon: the dead daemon's claim is its own to settle now; the tool's is not.
        let daemon = fake.restarted(runId: OutboxSender.daemonRunPrefix + "next")
        let report = await daemon.processor.processNow()
        #expect(report.sent == [daemons])
        #expect(await fake.transport.sent.map { GMimeMessageParser().parse($0.message).subject } == ["claimed by a killed daemon"])
        #expect(try await fake.state(tools) == .sending)
        #expect(await daemon.processor.processNow().sent.isEmpty, "sent once")
        #expect(await fake.transport.sent.count == 1)
    }

    @Test("AC-F-07: two processes on one store (the daemon and the command-line tool): one's send is never taken over by the other")
    func twoProcesses() async throws {
        let tool = try await FakeSending.make()
        let daemon = tool.restarted()
        let id = try await tool.draft()
        await tool.transport.holdNextSend()
        let compose = tool.compose
        let sending = Task { try await compose.send(emailId: id) }
        try await tool.transport.waitUntilHeld()
        tool.clock.advance(by: 60)  // a slow send
        #expect(await daemon.processor.processNow() == OutboxProcessor.Report())
        await tool.transport.release()
        #expect(try await sending.value == .sent)
        tool.clock.advance(by: 3600)
        #expect((await daemon.processor.processNow()).sent.isEmpty)
        #expect(await tool.transport.attempts == 1)
    }

    @Test("AC-F-07: a connection lost while the content went out is not retried automatically (it may have arrived)")
    func lostDuringData() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        await fake.transport.setBehaviour(.failAfterData(MailTransportError(kind: .unreachable, message: "connection lost")))
        guard case .failed(let reason) = try await fake.compose.send(emailId: id) else {
            Issue.record("expected a failure the user decides on")
            return
        }
        #expect(reason.hasPrefix("The message stopped while it was going out: it may have been delivered."), "\(reason)")
        #expect(reason.hasSuffix("Details: connection lost"), "what broke is the detail: \(reason)")
        fake.clock.advance(by: 3600)
        _ = await fake.processor.connectivityRestored()
        #expect(await fake.transport.attempts == 1)
    }

    @Test("AC-F-07: sent while the IMAP server is down: the filing (Sent copy, draft removal) is done later, never a resend")
    func filingLater() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        await fake.remote.setReachable(false)
        #expect(try await fake.compose.send(emailId: id) == .sent)
        var entry = try #require(try await fake.entry(id))
        #expect(entry.state == .sent)
        #expect(entry.filingPending)
        #expect(entry.filingError?.contains("could not be saved in Sent") == true)
        #expect((await fake.processor.processNow()).filed.isEmpty)

        await fake.remote.setReachable(true)
        #expect((await fake.processor.processNow()).filed == [id])
        entry = try #require(try await fake.entry(id))
        #expect(!entry.filingPending)
        #expect(await fake.remote.messages(in: .sent).count == 1)
        #expect(await fake.remote.messages(in: .drafts).isEmpty)
        #expect(await fake.transport.attempts == 1)
    }

    @Test("AC-P-04: OutboxProcessor.start sends a due message in the background; stop ends it")
    func backgroundProcessor() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft()
        try await fake.compose.queueForSending(emailId: id)
        await fake.processor.start()
        try await waitUntil { await fake.transport.sent.count == 1 }
        await fake.processor.stop()
        #expect(!(await fake.processor.isRunning))
        #expect(try await fake.state(id) == .sent)
    }

    @Test("AC-U-10: bad input is refused with what to do: addresses, no recipient, editing a queued message, unknown ids")
    func badInput() async throws {
        let fake = try await FakeSending.make()
        await #expect(throws: ComposeError.self) { _ = try await fake.draft(to: ["not an address"]) }
        do {
            _ = try await fake.draft(to: ["Grace <grace@@example.com>"])
        } catch let error as ComposeError {
            #expect(error.description.contains("in To"))
        }
        let nobody = try await fake.draft(to: [])
        await #expect(throws: ComposeError.noRecipients(emailId: nobody)) { _ = try await fake.compose.send(emailId: nobody) }
        let queued = try await fake.draft()
        await fake.transport.setBehaviour(.fail(MailTransportError(kind: .unreachable, message: "offline")))
        _ = try await fake.compose.send(emailId: queued)
        await #expect(throws: ComposeError.wrongState(emailId: queued, state: .queued, action: "edit")) {
            _ = try await fake.compose.saveDraft(
                draftId: queued, accountId: fake.account.id, threadId: nil, toAddresses: [], ccAddresses: [],
                bccAddresses: [], subject: "", bodyPlain: "", inReplyTo: nil, references: nil, attachments: [])
        }
        await #expect(throws: ComposeError.draftNotFound(id: "missing")) { try await fake.compose.executeSend(emailId: "missing") }
        await #expect(throws: ComposeError.accountNotFound(id: "nope")) {
            _ = try await fake.compose.saveDraft(
                draftId: nil, accountId: "nope", threadId: nil, toAddresses: [], ccAddresses: [], bccAddresses: [],
                subject: "", bodyPlain: "", inReplyTo: nil, references: nil, attachments: [])
        }
    }

    @Test("E-12: retry waits back off: 30 s, 1 min, 2 min … capped at 30 min")
    func backoff() {
        let backoff = RetryBackoff.standard
        #expect((1...8).map { backoff.delay(afterFailures: $0) } == [30, 60, 120, 240, 480, 960, 1800, 1800])
        #expect(RetryBackoff(initial: 0.5, multiplier: 3, maximum: 4).delay(afterFailures: 3) == 4)
    }
}
