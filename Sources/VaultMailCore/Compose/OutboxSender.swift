import Foundation

/// Sends one outbox message and settles its state: the single place where a message goes
/// from `queued` to `sending` to `sent`, back to `queued` (retry later) or to `failed`.
/// `ComposeEmailService` (send now) and `OutboxProcessor` (retries, restarts) share one
/// sender, so they share its run id and never transmit the same message twice:
///
/// - A message is claimed (`queued` → `sending`, compare-and-set in the store) before any
///   byte goes out; whoever loses the race does not send. Within this process a second
///   request for a message being sent waits for that send's outcome. A claim of another run
///   counts as interrupted only once its lease (`claimLease`) is over, so two processes on
///   one store (the daemon and the command-line tool) never take each other's sends.
/// - Just before the content goes out, `dataStartedAt` is stored; when the server accepts
///   the message, `transmittedAt` (state `sent`). A message found `sending` by a later run
///   without `dataStartedAt` never left: it is queued again. With it but without
///   `transmittedAt` it may have been delivered: unless its Message-ID turns up in Sent, it
///   becomes `failed` with that explanation instead of being sent again.
/// - After sending: a copy is APPENDed to Sent (not for Gmail, which files it itself) and the
///   draft is removed from Drafts; if the IMAP server cannot be reached this stays pending
///   and is retried, without sending again.
public struct OutboxSender: Sendable {
    public enum Outcome: Sendable, Hashable {
        case sent
        case willRetry(reason: String, at: Date)
        case failed(reason: String)
        /// Not this sender's to send: not queued (the state, nil when the message is gone),
        /// or not due yet.
        case notClaimed(SendState?)
    }

    /// Identifies this process's claims; a new run (restart) gets a new one.
    public let runId: String
    public let outbox: any OutboxRepository
    let accounts: any AccountRepository
    let transport: any MailTransport
    let remoteMailbox: any RemoteMailbox
    /// Send later on the IMAP server (issue 33): the scheduled copy in Drafts, claimed there
    /// before a scheduled message goes, so two machines never both send it. Nil: scheduled
    /// messages are sent from this store alone.
    public let scheduledServer: (any ScheduledSendServer)?
    public let clock: any WallClock
    public let backoff: RetryBackoff
    /// How long a claim (`sending`) keeps other runs away. Another process (the command-line
    /// tool beside the daemon) leaves the message alone for this long before it treats the
    /// claim as interrupted; longer than any send takes (connect, AUTH and each reply have
    /// their own time limits).
    public let claimLease: TimeInterval
    /// How the daemon's run ids begin. Only one daemon runs on a VaultMail home at a time (it
    /// holds the home's lock), so a daemon finds a claim of another daemon run interrupted at
    /// once, without waiting out its lease: a daemon killed mid-send is not waited for (issue 34,
    /// soak seed 3). The tool's claims keep their lease: it may still be at work.
    public static let daemonRunPrefix = "daemon-"
    private let transmissions = Transmissions()

    public init(
        outbox: any OutboxRepository, accounts: any AccountRepository, transport: any MailTransport,
        remoteMailbox: any RemoteMailbox, scheduledServer: (any ScheduledSendServer)? = nil, clock: any WallClock = SystemWallClock(),
        backoff: RetryBackoff = .standard, claimLease: TimeInterval = 15 * 60, runId: String = UUID().uuidString.lowercased()
    ) {
        self.scheduledServer = scheduledServer
        self.outbox = outbox
        self.accounts = accounts
        self.transport = transport
        self.remoteMailbox = remoteMailbox
        self.clock = clock
        self.backoff = backoff
        self.claimLease = max(0, claimLease)
        self.runId = runId
    }

    /// Claims the queued message and sends it: when it is due, or at once with
    /// `ignoringSchedule`. A send of the same message already running in this process is
    /// joined instead of started again.
    public func transmit(emailId: String, ignoringSchedule: Bool) async throws -> Outcome {
        try await transmissions.run(emailId) {
            try await claimAndSend(emailId: emailId, ignoringSchedule: ignoringSchedule)
        }
    }

    private func claimAndSend(emailId: String, ignoringSchedule: Bool) async throws -> Outcome {
        let now = clock.now
        guard let entry = try await outbox.claim(
            emailId: emailId, runId: runId, now: now, ignoringSchedule: ignoringSchedule,
            leaseUntil: now.addingTimeInterval(claimLease))
        else {
            return .notClaimed(try await outbox.entry(emailId: emailId)?.state)
        }
        guard let account = try await accounts.getAccount(id: entry.email.accountId) else {
            return try await fail(emailId, "its account no longer exists")
        }
        guard let raw = entry.rawMessage, !raw.isEmpty else {
            return try await fail(emailId, "the message content is missing; open it as a draft and send it again")
        }
        if let settled = try await claimOnServer(entry, account: account, requireDue: !ignoringSchedule) { return settled }
        let recipients = OutboxSender.recipients(of: entry.email)
        guard !recipients.isEmpty else {
            return try await fail(emailId, ComposeError.noRecipients(emailId: emailId).description)
        }
        let envelope = MailEnvelope(sender: account.email, recipients: recipients)
        let outbox = self.outbox
        let clock = self.clock
        do {
            try await transport.send(raw, envelope: envelope, account: account) {
                try await outbox.markDataStarted(emailId: emailId, at: clock.now)
            }
        } catch {
            // Kept as the words and, on a line of its own, the detail (issue 29): the web app's
            // Outbox shows the words with the detail on demand; the tool prints both lines.
            let reason = PlainWords.lines(error)
            let transportError = error as? MailTransportError
            let dataStarted = try await outbox.entry(emailId: emailId)?.dataStartedAt != nil
            if dataStarted, transportError.map({ $0.kind == .unreachable }) ?? true {
                return try await settleUncertain(entry, account: account, reason: reason)
            }
            if transportError?.isTransient == true {
                let next = clock.now.addingTimeInterval(backoff.delay(afterFailures: entry.attemptCount + 1))
                try await outbox.markRetry(emailId: emailId, reason: reason, nextAttemptAt: next)
                return .willRetry(reason: reason, at: next)
            }
            return try await fail(emailId, reason)
        }
        try await outbox.markTransmitted(emailId: emailId, at: clock.now)
        _ = await file(emailId: emailId)
        return .sent
    }

    /// A scheduled message with its copy in the server's Drafts (send later, issue 33) is claimed
    /// there too before it goes: nil when this machine may send it (it won the claim, or the
    /// server has no CONDSTORE); otherwise the message (claimed here) is settled as the server
    /// says: taken by another machine or not due there (queued again for then), made an
    /// ordinary draft or deleted by another client (a draft again here), sent elsewhere (sent here).
    private func claimOnServer(_ entry: OutboxEntry, account: Account, requireDue: Bool) async throws -> Outcome? {
        guard let server = scheduledServer, entry.sendAt != nil, entry.remoteDraft != nil else { return nil }
        let answer: ScheduledSendClaim
        do {
            answer = try await server.claim(
                messageId: entry.email.messageId, account: account, now: clock.now, lease: claimLease, requireDue: requireDue,
                key: SendAtKeyword.claimKeyword(for: entry))
        } catch {
            let reason = PlainProblem(
                words: "The mail server couldn't be reached to take the scheduled message from its Drafts; VaultMail will try again.",
                detail: PlainWords.lines(error)).lines
            let next = clock.now.addingTimeInterval(backoff.delay(afterFailures: entry.attemptCount + 1))
            try await outbox.markRetry(emailId: entry.id, reason: reason, nextAttemptAt: next)
            return .willRetry(reason: reason, at: next)
        }
        switch answer {
        case .won, .unclaimable:
            return nil
        case .taken(let until):
            let reason = "VaultMail on another device is sending it; checking again at the end of its claim"
            try await outbox.markRetry(emailId: entry.id, reason: reason, nextAttemptAt: until)
            return .willRetry(reason: reason, at: until)
        case .notDue(let time):
            let reason = "its time was changed on another device"
            try await outbox.markRetry(emailId: entry.id, reason: reason, nextAttemptAt: time)
            try await outbox.moveSendTime(emailId: entry.id, to: time)
            return .willRetry(reason: reason, at: time)
        case .unscheduled, .gone(inSent: false):
            try await outbox.markRetry(emailId: entry.id, reason: "cancelled on another device", nextAttemptAt: clock.now)
            _ = try await outbox.returnToDraft(emailId: entry.id)
            return .notClaimed(.draft)
        case .gone(inSent: true):
            try await sentElsewhere(entry.id)
            return .notClaimed(.sent)
        }
    }

    /// Another machine sent it and filed it in Sent: sent here too, with nothing left to file.
    private func sentElsewhere(_ emailId: String) async throws {
        try await outbox.markTransmitted(emailId: emailId, at: clock.now)
        try await outbox.markFiled(emailId: emailId, sentCopy: nil)
    }

    /// Send later across machines (issue 33): makes this store's outbox agree with the scheduled
    /// messages in each account's Drafts on the server. One scheduled by another machine (or
    /// another VaultMail home) is taken in, queued for its time, with the bytes found there; one
    /// whose time another machine changed follows it; one scheduled here that another machine or
    /// client cancelled (its keyword removed, the draft deleted) is a draft again here, and one
    /// sent elsewhere is sent. Returns the email ids taken in. An account whose server cannot be
    /// reached is left as it is.
    @discardableResult
    public func refreshScheduled() async throws -> [String] {
        guard let server = scheduledServer else { return [] }
        var taken: [String] = []
        for account in try await accounts.getAccounts() {
            guard let onServer = try? await server.scheduled(account: account) else { continue }
            var seen = Set<String>()
            for draft in onServer {
                let id = Email.stableID(accountId: account.id, messageId: draft.messageId)
                seen.insert(id)
                let known = try await outbox.entry(emailId: id)
                if let known, known.state != .draft {
                    guard known.state == .queued, known.sendAt != nil, !draft.isClaimed else { continue }
                    if known.remoteDraft == draft.location {
                        if known.sendAt != draft.sendAt { try await outbox.moveSendTime(emailId: id, to: draft.sendAt) }
                        continue
                    }
                    // Another version (edited and scheduled again elsewhere): taken in anew.
                    guard known.remoteDraft != nil, try await outbox.returnToDraft(emailId: id) == nil else { continue }
                }
                guard !draft.isClaimed, let content = try? await server.content(of: draft, account: account) else { continue }
                // One that cannot be taken in (its id is a received message here) is left to the
                // other devices; it never stops the pass.
                guard (try? await takeIn(content, draft: draft, emailId: id, account: account)) != nil else { continue }
                taken.append(id)
            }
            for entry in try await outbox.outbox(accountId: account.id)
            where entry.state == .queued && entry.sendAt != nil && entry.remoteDraft != nil && !seen.contains(entry.id) {
                guard let standing = try? await server.standing(messageId: entry.email.messageId, account: account, now: clock.now)
                else { continue }
                switch standing {
                case .unscheduled, .gone(inSent: false): _ = try await outbox.returnToDraft(emailId: entry.id)
                case .gone(inSent: true): try await sentElsewhere(entry.id)
                default: break
                }
            }
        }
        return taken
    }

    /// A message scheduled elsewhere, queued here for its time with the bytes from Drafts.
    private func takeIn(_ content: ScheduledDraftContent, draft: ScheduledDraft, emailId: String, account: Account) async throws {
        let parsed = content.parsed
        let root = parsed.references.first ?? parsed.inReplyTo ?? draft.messageId
        let now = clock.now
        let email = Email(
            id: emailId, accountId: account.id, threadId: EmailThread.stableID(accountId: account.id, rootMessageId: root),
            messageId: draft.messageId, inReplyTo: parsed.inReplyTo,
            references: parsed.references.isEmpty ? nil : parsed.references.joined(separator: " "),
            fromAddress: parsed.sender?.email ?? account.email, fromName: parsed.sender?.name ?? account.displayName,
            toAddresses: parsed.to, ccAddresses: parsed.cc, bccAddresses: parsed.bcc, subject: parsed.subject,
            bodyPlain: parsed.textPlain, bodyHTML: parsed.textHTML, snippet: parsed.snippet,
            dateReceived: now, isRead: true, isDraft: true, sendState: .draft, sizeBytes: content.raw.count,
            hasAttachments: parsed.attachments.contains { !$0.isInline })
        try await outbox.saveDraft(email, attachments: [])
        try await outbox.queue(emailId: emailId, rawMessage: content.raw, notBefore: draft.sendAt, now: now, sendAt: draft.sendAt)
        try await outbox.recordRemoteDraft(emailId: emailId, location: draft.location, error: nil)
    }

    /// Settles a message an earlier run left `sending` (see the type's documentation).
    public func recover(_ entry: OutboxEntry) async throws -> Outcome {
        guard entry.state == .sending, entry.claimedBy != runId else { return .notClaimed(entry.state) }
        if entry.dataStartedAt == nil {
            let reason = "sending was interrupted before anything was transmitted (the app stopped)"
            try await outbox.markRetry(emailId: entry.id, reason: reason, nextAttemptAt: clock.now)
            return .willRetry(reason: reason, at: clock.now)
        }
        guard let account = try await accounts.getAccount(id: entry.email.accountId) else {
            return try await fail(entry.id, "its account no longer exists")
        }
        return try await settleUncertain(
            entry, account: account, reason: "the app stopped while the message was being transmitted")
    }

    /// The content went out but no acceptance was seen: sent if the Message-ID is in Sent,
    /// else `failed` so the user decides (never sent a second time automatically).
    private func settleUncertain(_ entry: OutboxEntry, account: Account, reason: String) async throws -> Outcome {
        let found = (try? await remoteMailbox.contains(messageId: entry.email.messageId, in: .sent, account: account)) ?? false
        if found {
            try await outbox.markTransmitted(emailId: entry.id, at: clock.now)
            _ = await file(emailId: entry.id)
            return .sent
        }
        // The words say what to do; what broke is the detail.
        let said = PlainProblem(lines: reason)
        return try await fail(entry.id, PlainProblem(
            words: NotSentAdvice.maybeDelivered + " Check with a recipient or in the Sent folder before sending it again, so it is not sent twice.",
            detail: said.detail ?? said.words).lines)
    }

    /// Files a sent message: the copy in Sent (unless the account is Gmail) and the removal
    /// of its draft from Drafts. True when done; otherwise the error is recorded and the
    /// filing stays pending for the outbox processor.
    @discardableResult
    public func file(emailId: String) async -> Bool {
        do {
            guard let entry = try await outbox.entry(emailId: emailId), entry.filingPending else { return true }
            guard let account = try await accounts.getAccount(id: entry.email.accountId) else {
                try await outbox.markFiled(emailId: emailId, sentCopy: nil)
                return true
            }
            var problems: [String] = []
            var sentCopy = entry.sentCopy
            if !account.isGmail, sentCopy == nil, let raw = entry.rawMessage {
                do {
                    sentCopy = try await remoteMailbox.append(
                        raw, messageId: entry.email.messageId, to: .sent, flags: ["\\Seen"], replacingCopies: true,
                        account: account)
                } catch {
                    problems.append("the copy could not be saved in Sent: \(Self.describe(error))")
                }
            }
            do {
                try await remoteMailbox.remove(messageId: entry.email.messageId, from: .drafts, account: account)
            } catch {
                problems.append("the draft could not be removed from Drafts: \(Self.describe(error))")
            }
            if problems.isEmpty {
                try await outbox.markFiled(emailId: emailId, sentCopy: sentCopy)
                return true
            }
            try await outbox.recordFilingError(emailId: emailId, error: problems.joined(separator: "; "))
            return false
        } catch {
            return false
        }
    }

    private func fail(_ emailId: String, _ reason: String) async throws -> Outcome {
        try await outbox.markFailed(emailId: emailId, reason: reason)
        return .failed(reason: reason)
    }

    /// Everyone the message goes to: To, Cc and Bcc, each address once.
    public static func recipients(of email: Email) -> [String] {
        var seen = Set<String>()
        return (email.toAddresses + email.ccAddresses + email.bccAddresses).map(\.email)
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }
}

/// The sends running in this process, by email id, so a second request joins the first.
private actor Transmissions {
    private var running: [String: Task<OutboxSender.Outcome, any Error>] = [:]

    func run(
        _ emailId: String, _ body: @escaping @Sendable () async throws -> OutboxSender.Outcome
    ) async throws -> OutboxSender.Outcome {
        if let task = running[emailId] { return try await task.value }
        let task = Task { try await body() }
        running[emailId] = task
        defer { running[emailId] = nil }
        return try await task.value
    }
}
