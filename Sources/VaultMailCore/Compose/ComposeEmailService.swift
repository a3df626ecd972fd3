import Foundation

/// The `ComposeEmailUseCase` of the app: drafts kept locally and in the server's Drafts
/// folder (AC-U-10), the outbox (AC-U-05, E-08, E-12), undo send (AC-U-11) and sending now
/// for replies from a notification (NOTIF-06d).
///
/// - `saveDraft` stores the draft, then APPENDs it to the account's Drafts folder, replacing
///   the previous version (removed by UID). When the server cannot be reached the draft is
///   still saved; `OutboxEntry.draftSyncError` says why it is not on the server.
/// - `send(emailId:)` queues the message and waits the undo delay
///   (`SettingsStore.undoSendDelaySeconds`, read at each send; 0 sends at once). Nothing is
///   transmitted during the delay, and `cancel` within it makes the message a draft again.
///   If the app stops during the delay, the outbox processor sends it once the delay is over.
/// - `queueForSending` + `executeSend` send at once, without the delay (notification replies).
///   A message saved for that with `saveForSending` gets no copy in Drafts first (issue 18): it
///   is in Sent a moment later; a draft of it already in Drafts is removed when it is filed.
/// - A message that cannot be sent because the server is unreachable stays queued with the
///   reason and is retried with backoff by the `OutboxProcessor`.
public actor ComposeEmailService: ComposeEmailUseCase {
    public nonisolated let sender: OutboxSender
    private let builder: any MessageBuilder
    /// OpenPGP writing (issue 32); nil: every message goes plain.
    private let openPGP: OpenPGPWriting?
    private let sleeper: any Clock<Duration>
    private let undoDelaySeconds: @Sendable () async -> Int

    private var outbox: any OutboxRepository { sender.outbox }
    private var clock: any WallClock { sender.clock }
    /// Sends waiting out their undo delay: email id → the wait, cancelled by `cancel`.
    private var undoWaits: [String: Task<Void, any Error>] = [:]
    /// Emails with a draft or queue operation running (operations on one email run in turn).
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// The SIZE limit of each account's server, asked once per account (nil: none announced).
    private var sizeLimits: [String: Int?] = [:]
    /// Drafts whose copy in the server's Drafts folder waits for the user to pause typing.
    private var pendingDraftCopies: [String: Task<Void, Never>] = [:]

    /// - Parameters:
    ///   - sender: shared with the `OutboxProcessor` of the same process.
    ///   - undoDelaySeconds: the current undo delay (read for every send).
    ///   - sleeper: the clock the undo delay is waited on.
    ///   - openPGP: encrypts and signs messages as `OpenPGPWriting` decides when they are queued.
    public init(
        sender: OutboxSender, builder: any MessageBuilder = RFC5322MessageBuilder(), openPGP: OpenPGPWriting? = nil,
        sleeper: any Clock<Duration> = ContinuousClock(),
        undoDelaySeconds: @escaping @Sendable () async -> Int
    ) {
        self.sender = sender
        self.builder = builder
        self.openPGP = openPGP
        self.sleeper = sleeper
        self.undoDelaySeconds = undoDelaySeconds
    }

    /// A service whose undo delay is `settings.undoSendDelaySeconds`.
    public init(
        sender: OutboxSender, settings: SettingsStore, builder: any MessageBuilder = RFC5322MessageBuilder(),
        sleeper: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(sender: sender, builder: builder, sleeper: sleeper) {
            await MainActor.run { settings.undoSendDelaySeconds }
        }
    }

    // MARK: Drafts

    public func saveDraft(
        draftId: String?, accountId: String, threadId: String?, toAddresses: [String], ccAddresses: [String],
        bccAddresses: [String], subject: String, bodyPlain: String, inReplyTo: String?, references: String?,
        attachments: [DraftAttachment]
    ) async throws -> String {
        let content = Self.content(
            draftId: draftId, accountId: accountId, threadId: threadId, to: toAddresses, cc: ccAddresses, bcc: bccAddresses,
            subject: subject, body: bodyPlain, inReplyTo: inReplyTo, references: references)
        return try await saveDraft(content, html: nil, attachments: attachments)
    }

    public func saveForSending(_ content: DraftContent, attachments: [DraftAttachment]) async throws -> String {
        try await saveForSending(content, html: nil, attachments: attachments)
    }

    /// The composer fields of the use case's eleven parameters (NOTIF-06d).
    private static func content(
        draftId: String?, accountId: String, threadId: String?, to: [String], cc: [String], bcc: [String], subject: String,
        body: String, inReplyTo: String?, references: String?
    ) -> DraftContent {
        var content = DraftContent(accountId: accountId)
        content.draftId = draftId
        content.threadId = threadId
        content.to = to
        content.cc = cc
        content.bcc = bcc
        content.subject = subject
        content.body = body
        content.inReplyTo = inReplyTo
        content.references = references
        return content
    }

    /// Saves a draft (creating it when `content.draftId` is nil) and returns its email id.
    /// `html` is the HTML alternative of a Markdown body; `attachments` nil keeps the draft's. The server's Drafts folder gets the
    /// new version at once, or `serverCopy` later when more saves may follow (the composer
    /// saves as the user types): only the last version within that time is APPENDed.
    /// Addresses may be left incomplete in a draft (`checkAddresses: false`); sending checks them.
    public func saveDraft(
        _ content: DraftContent, html: String?, attachments: [DraftAttachment]?, serverCopy: Duration = .zero,
        checkAddresses: Bool = true
    ) async throws -> String {
        try await save(content, html: html, attachments: attachments, serverCopy: serverCopy, checkAddresses: checkAddresses)
    }

    /// Saves a message that is sent right after (`queueForSending` + `executeSend`, "send now")
    /// as `saveDraft` does, but here only: no copy goes to the server's Drafts folder first, and
    /// a copy still waiting for the user to pause typing is dropped (issue 18). A copy of the
    /// draft already in Drafts (`content.draftId`) is removed when the sent message is filed.
    /// Addresses are checked. Returns the email id.
    public func saveForSending(_ content: DraftContent, html: String?, attachments: [DraftAttachment]?) async throws -> String {
        try await save(content, html: html, attachments: attachments, serverCopy: nil, checkAddresses: true)
    }

    /// Saves the draft; its copy in Drafts goes at once (`.zero`), after `serverCopy`, or not
    /// at all (nil).
    private func save(
        _ content: DraftContent, html: String?, attachments: [DraftAttachment]?, serverCopy: Duration?,
        checkAddresses: Bool
    ) async throws -> String {
        func participants(_ list: [String], _ field: String) throws -> [Participant] {
            try list.map { address throws -> Participant in
                do {
                    return try EmailAddress.parse(address, field: field)
                } catch where !checkAddresses {
                    return Participant(email: address.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        let to = try participants(content.to, "To"), cc = try participants(content.cc, "Cc")
        let bcc = try participants(content.bcc, "Bcc")
        guard let account = try await sender.accounts.getAccount(id: content.accountId) else {
            throw ComposeError.accountNotFound(id: content.accountId)
        }
        var existing: OutboxEntry?
        if let draftId = content.draftId {
            if let found = try await outbox.entry(emailId: draftId) {
                existing = found
            } else if let synced = try await outbox.syncedDraft(emailId: draftId) {
                // A draft from the server's Drafts (another client, another machine): continued
                // under its own Message-ID, so saving it replaces the copy there.
                existing = OutboxEntry(email: synced)
            } else {
                throw ComposeError.draftNotFound(id: draftId)
            }
        }
        let messageId = existing?.email.messageId ?? OutgoingMessage.makeMessageId(senderAddress: account.email)
        let emailId = existing?.id ?? Email.stableID(accountId: account.id, messageId: messageId)
        let files: [DraftAttachment]
        if let attachments { files = attachments } else if let existing { files = try await outbox.attachments(emailId: existing.id) } else { files = [] }
        let referenceIds = MessageIDs.parseList(content.references ?? "")
        let root = referenceIds.first ?? content.inReplyTo.flatMap(MessageIDs.parseFirst) ?? messageId
        let now = clock.now
        let email = Email(
            id: emailId, accountId: account.id,
            threadId: content.threadId ?? existing?.email.threadId ?? EmailThread.stableID(accountId: account.id, rootMessageId: root),
            messageId: messageId, inReplyTo: content.inReplyTo.flatMap(MessageIDs.parseFirst),
            references: referenceIds.isEmpty ? nil : referenceIds.joined(separator: " "),
            fromAddress: account.email, fromName: account.displayName, toAddresses: to, ccAddresses: cc,
            bccAddresses: bcc, subject: content.subject, bodyPlain: content.body, bodyHTML: html,
            snippet: Snippet.make(plain: content.body, html: nil),
            dateReceived: now, isRead: true, isDraft: true, sendState: .draft,
            sizeBytes: content.body.utf8.count + (html?.utf8.count ?? 0) + files.reduce(0) { $0 + $1.data.count },
            hasAttachments: !files.isEmpty)

        try await serialized(emailId) {
            if let state = try await outbox.entry(emailId: emailId)?.state, state != .draft {
                throw ComposeError.wrongState(emailId: emailId, state: state, action: "edit")
            }
            try await outbox.saveDraft(email, attachments: files)
            if serverCopy == nil { pendingDraftCopies.removeValue(forKey: emailId)?.cancel() }
            if serverCopy == .zero { await syncRemoteDraft(emailId: emailId, account: account) }
        }
        if let serverCopy, serverCopy > .zero { scheduleRemoteDraft(emailId: emailId, account: account, after: serverCopy) }
        return emailId
    }

    /// APPENDs the draft to Drafts `delay` after its last save (an earlier wait is replaced).
    private func scheduleRemoteDraft(emailId: String, account: Account, after delay: Duration) {
        pendingDraftCopies[emailId]?.cancel()
        let sleeper = self.sleeper
        pendingDraftCopies[emailId] = Task {
            do { try await sleeper.sleep(for: delay) } catch { return }
            await self.copyDraftToServer(emailId: emailId, account: account)
        }
    }

    private func copyDraftToServer(emailId: String, account: Account) async {
        try? await serialized(emailId) {
            // Cancelled while waiting its turn (saved again, saved for sending, queued, discarded).
            guard !Task.isCancelled else { return }
            pendingDraftCopies[emailId] = nil
            await syncRemoteDraft(emailId: emailId, account: account)
        }
    }

    /// Deletes a draft here and its copy in the server's Drafts folder. Returns nil when both
    /// are gone, else why the server copy stays, in words and detail (the local draft is
    /// deleted either way).
    public func discardDraft(emailId: String) async throws -> PlainProblem? {
        pendingDraftCopies.removeValue(forKey: emailId)?.cancel()
        let entry: OutboxEntry
        if let found = try await outbox.entry(emailId: emailId) {
            guard found.state == .draft else { throw ComposeError.wrongState(emailId: emailId, state: found.state, action: "discard") }
            entry = found
        } else if let synced = try await outbox.syncedDraft(emailId: emailId) {
            entry = OutboxEntry(email: synced)  // only on the server: the next sync removes it here
        } else {
            throw ComposeError.draftNotFound(id: emailId)
        }
        return try await serialized(emailId) {
            if entry.state == .draft { try await outbox.deleteDraft(emailId: emailId) }
            guard let account = try await sender.accounts.getAccount(id: entry.email.accountId) else { return nil }
            do {
                try await sender.remoteMailbox.remove(messageId: entry.email.messageId, from: .drafts, account: account)
                return nil
            } catch {
                return PlainProblem(error).led(by: "Its copy in the server's Drafts folder couldn't be removed and may remain. ")
            }
        }
    }

    /// APPENDs the current version of a draft to Drafts, replacing the one before.
    private func syncRemoteDraft(emailId: String, account: Account) async {
        do {
            guard let entry = try await outbox.entry(emailId: emailId), entry.state == .draft else { return }
            let raw = try builder.build(try await outgoingMessage(entry.email, date: entry.email.dateReceived))
            do {
                let location = try await sender.remoteMailbox.append(
                    raw, messageId: entry.email.messageId, to: .drafts, flags: ["\\Draft", "\\Seen"],
                    replacingCopies: true, account: account)
                try await outbox.recordRemoteDraft(emailId: emailId, location: location, error: nil)
            } catch {
                try await outbox.recordRemoteDraft(
                    emailId: emailId, location: entry.remoteDraft,
                    error: "saved on this device only; the Drafts folder on the server could not be updated: "
                        + OutboxSender.describe(error))
            }
        } catch {
            // The local draft is saved; a failure to build or record only affects the server copy.
        }
    }

    // MARK: Sending

    public func queueForSending(emailId: String) async throws {
        try await queueForSending(emailId: emailId, crypto: .automatic)
    }

    /// Puts a draft in the outbox, encrypted or signed as `crypto` and `OpenPGPWriting` decide.
    /// Throws `ComposeError.cannotEncrypt` (it stays a draft) when it must be encrypted and
    /// cannot be.
    public func queueForSending(emailId: String, crypto: CryptoChoice) async throws {
        try await serialized(emailId) { try await queue(emailId: emailId, notBefore: clock.now, crypto: crypto) }
    }

    /// What sending would do to a message's encryption (the composer's lock); nil when this
    /// service writes no OpenPGP.
    public func cryptoPlan(accountId: String, recipients: [String], threadId: String?, inReplyTo: String?,
                           choice: CryptoChoice) async -> CryptoPlan? {
        await openPGP?.plan(accountId: accountId, recipients: recipients, threadId: threadId, inReplyTo: inReplyTo, choice: choice)
    }

    public func executeSend(emailId: String) async throws {
        switch try await sender.transmit(emailId: emailId, ignoringSchedule: true) {
        case .sent, .notClaimed(.sent):
            return
        case .willRetry(let reason, _):
            throw ComposeError.notSent(emailId: emailId, state: .queued, reason: reason)
        case .failed(let reason):
            throw ComposeError.notSent(emailId: emailId, state: .failed, reason: reason)
        case .notClaimed(nil):
            throw ComposeError.draftNotFound(id: emailId)
        case .notClaimed(let state?):
            throw ComposeError.wrongState(emailId: emailId, state: state, action: "send")
        }
    }

    /// Sends with the undo delay (AC-U-11): queues the message, waits the delay, then sends.
    /// `cancel(emailId:)` during the delay returns `.cancelled`; nothing was transmitted.
    /// If the calling task is cancelled, the message stays queued and goes out later.
    /// `crypto`: encrypted or signed as the person chose (`queueForSending(emailId:crypto:)`).
    public func send(emailId: String, crypto: CryptoChoice = .automatic) async throws -> SendOutcome {
        let delay = max(0, await undoDelaySeconds())
        let notBefore = clock.now.addingTimeInterval(TimeInterval(delay))
        try await serialized(emailId) { try await queue(emailId: emailId, notBefore: notBefore, crypto: crypto) }
        if delay > 0 {
            let sleeper = self.sleeper
            let wait = Task { try await sleeper.sleep(for: .seconds(delay)) }
            undoWaits[emailId] = wait
            let elapsed: Bool
            do {
                try await withTaskCancellationHandler {
                    try await wait.value
                } onCancel: {
                    wait.cancel()
                }
                elapsed = true
            } catch {
                elapsed = false
            }
            let undone = undoWaits[emailId] == nil
            if !undone { undoWaits[emailId] = nil }
            if undone { return .cancelled }
            if !elapsed {
                return .queued(reason: "sending continues in the background after the undo delay", nextAttempt: notBefore)
            }
        }
        switch try await sender.transmit(emailId: emailId, ignoringSchedule: true) {
        case .sent, .notClaimed(.sent): return .sent
        case .willRetry(let reason, let at): return .queued(reason: reason, nextAttempt: at)
        case .failed(let reason): return .failed(reason: reason)
        case .notClaimed(.draft): return .cancelled
        case .notClaimed(nil): throw ComposeError.draftNotFound(id: emailId)
        case .notClaimed(let state?):
            let entry = try await outbox.entry(emailId: emailId)
            return .queued(reason: entry?.lastError ?? "it is \(state.rawValue)", nextAttempt: entry?.nextAttemptAt)
        }
    }

    /// Sends with the undo delay without waiting for it (the web composer): queues the message
    /// now, so errors (no recipient) are thrown here, and transmits it in the background once
    /// the delay is over unless `cancel` came first. Returns when it will go.
    public func startSending(emailId: String, crypto: CryptoChoice = .automatic) async throws -> Date {
        let delay = max(0, await undoDelaySeconds())
        let notBefore = clock.now.addingTimeInterval(TimeInterval(delay))
        try await serialized(emailId) { try await queue(emailId: emailId, notBefore: notBefore, crypto: crypto) }
        let sleeper = self.sleeper
        let wait = Task { try await sleeper.sleep(for: .seconds(delay)) }
        undoWaits[emailId] = wait
        Task { await self.transmit(emailId: emailId, after: wait) }
        return notBefore
    }

    private func transmit(emailId: String, after wait: Task<Void, any Error>) async {
        do { try await wait.value } catch { return }
        guard undoWaits[emailId] == wait else { return }
        undoWaits[emailId] = nil
        // A failure leaves the message in the outbox (queued and retried, or failed), where the user sees it.
        _ = try? await sender.transmit(emailId: emailId, ignoringSchedule: true)
    }

    /// A draft with its attachments, to continue it: one written here, or one synced from the
    /// server's Drafts (its attachments are carried when it is first saved here). Nil when
    /// there is no such draft.
    public func draft(emailId: String) async throws -> (entry: OutboxEntry, attachments: [DraftAttachment])? {
        if let entry = try await outbox.entry(emailId: emailId) {
            return (entry, try await outbox.attachments(emailId: emailId))
        }
        guard let synced = try await outbox.syncedDraft(emailId: emailId) else { return nil }
        return (OutboxEntry(email: synced), [])
    }

    /// Undo (AC-U-11) or cancel from the outbox (AC-U-05): a queued or failed message becomes
    /// a draft again. Throws `ComposeError.tooLateToCancel` once it is being sent or sent.
    /// A scheduled message's copy in the server's Drafts loses its send time first (it becomes an
    /// ordinary draft there, so no VaultMail elsewhere sends it); when the server cannot be
    /// reached nothing changes and `ComposeError.scheduleKeptOnServer` says so.
    public func cancel(emailId: String) async throws {
        if let entry = try await outbox.entry(emailId: emailId), entry.isScheduled, entry.remoteDraft != nil,
           let server = sender.scheduledServer, let account = try await sender.accounts.getAccount(id: entry.email.accountId) {
            do {
                try await server.unschedule(messageId: entry.email.messageId, account: account)
            } catch {
                throw ComposeError.scheduleKeptOnServer(emailId: emailId, reason: OutboxSender.describe(error))
            }
        }
        if let wait = undoWaits.removeValue(forKey: emailId) { wait.cancel() }
        if let blocking = try await outbox.returnToDraft(emailId: emailId) {
            throw ComposeError.tooLateToCancel(emailId: emailId, state: blocking)
        }
    }

    /// Sends a failed (or waiting) message now, with the same bytes as before.
    public func retry(emailId: String) async throws -> SendOutcome {
        try await serialized(emailId) {
            guard let entry = try await outbox.entry(emailId: emailId) else { throw ComposeError.draftNotFound(id: emailId) }
            switch entry.state {
            case .failed:
                var raw = entry.rawMessage ?? []
                if raw.isEmpty { raw = try await sendable(entry.email, date: clock.now, crypto: .automatic) }
                try await outbox.queue(emailId: emailId, rawMessage: raw, notBefore: clock.now, now: clock.now)
            case .queued:
                break
            default:
                throw ComposeError.wrongState(emailId: emailId, state: entry.state, action: "retry")
            }
        }
        switch try await sender.transmit(emailId: emailId, ignoringSchedule: true) {
        case .sent, .notClaimed(.sent): return .sent
        case .willRetry(let reason, let at): return .queued(reason: reason, nextAttempt: at)
        case .failed(let reason): return .failed(reason: reason)
        case .notClaimed(let state):
            throw ComposeError.wrongState(emailId: emailId, state: state ?? .none, action: "retry")
        }
    }

    /// The drafts kept here (and in the server's Drafts), oldest first.
    public func drafts(accountId: String?) async throws -> [OutboxEntry] {
        try await outbox.drafts(accountId: accountId)
    }

    /// The outbox: queued, sending and failed messages with their reasons (AC-U-05, E-08).
    public func outboxEntries(accountId: String?) async throws -> [OutboxEntry] {
        try await outbox.outbox(accountId: accountId)
    }

    /// The largest message the account's outgoing server accepts (SMTP SIZE), asked once and
    /// remembered; nil when none is announced or the server cannot be reached now.
    public func sizeLimit(accountId: String) async -> Int? {
        if let known = sizeLimits[accountId] { return known }
        guard let account = try? await sender.accounts.getAccount(id: accountId),
              let limit = try? await sender.transport.sizeLimit(account: account) else { return nil }
        sizeLimits[accountId] = limit
        return limit
    }

    // MARK: Helpers

    /// Queues the draft to go at `date` (send later, issue 33): it waits in the outbox, and the
    /// `OutboxProcessor` (the daemon's, or any process's with one running) sends it once it is
    /// due, once (the outbox's claim), also after a restart. Its Date header is `date`. A
    /// message already waiting gets the new time (it is made a draft again first); until it
    /// goes, `cancel(emailId:)` makes it a draft again to edit. Throws
    /// `ComposeError.sendTimePassed` for a time not in the future, `.tooLateToCancel` when it
    /// is already going out. Encrypted or signed as `crypto` decides, like sending now.
    ///
    /// The time is kept on the server too (docs/sending.md "Send later"): the queued bytes are
    /// APPENDed to the account's Drafts with the keyword `$SendAt-…` (`SendAtKeyword`; a Bcc
    /// header first when there are Bcc recipients), replacing the draft's copy there, so other
    /// clients see it and a VaultMail on another machine sends it. When the server cannot be
    /// reached it is scheduled here only (`OutboxEntry.draftSyncError` says so).
    public func schedule(emailId: String, at date: Date, crypto: CryptoChoice = .automatic) async throws {
        try refusingPast(date)
        let account = try await serialized(emailId) { () async throws -> Account? in
            if try await outbox.entry(emailId: emailId)?.state == .queued, let blocking = try await outbox.returnToDraft(emailId: emailId) {
                throw ComposeError.tooLateToCancel(emailId: emailId, state: blocking)
            }
            // No server copy counts until the scheduled one is there (`refreshScheduled` reads a
            // scheduled message with a copy but no keyword there as cancelled elsewhere).
            try await outbox.recordRemoteDraft(emailId: emailId, location: nil, error: nil)
            try await queue(emailId: emailId, notBefore: date, dated: date, crypto: crypto, sendAt: date)
            guard let entry = try await outbox.entry(emailId: emailId) else { return nil }
            return try await sender.accounts.getAccount(id: entry.email.accountId)
        }
        guard let account, let entry = try await outbox.entry(emailId: emailId), entry.state == .queued,
              let raw = entry.rawMessage else { return }
        do {
            let location = try await sender.remoteMailbox.append(
                SendAtKeyword.serverCopy(of: raw, bcc: entry.email.bccAddresses), messageId: entry.email.messageId, to: .drafts,
                flags: ["\\Draft", "\\Seen", SendAtKeyword.keyword(for: date)], replacingCopies: true, account: account)
            try await outbox.recordRemoteDraft(emailId: emailId, location: location, error: nil)
        } catch {
            try await outbox.recordRemoteDraft(
                emailId: emailId, location: nil,
                error: "scheduled on this device only; the Drafts folder on the server could not be updated: " + OutboxSender.describe(error))
        }
    }

    /// Messages waiting to be sent later (scheduled, queued, due after `now`), soonest first;
    /// every account's when nil. Not one in its undo-send window (`OutboxEntry.sendAt`).
    public func scheduled(accountId: String? = nil) async throws -> [OutboxEntry] {
        let now = clock.now
        return try await outbox.outbox(accountId: accountId)
            .compactMap { entry in entry.sendsLater(now: now).map { (entry, $0) } }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
            .map(\.0)
    }

    /// The time a `send --at` / the composer's "Send later" names: an ISO 8601 date and time
    /// with its offset, or a local one in the clock's time zone (`2026-12-01 09:00`). Throws
    /// `.unreadableSendTime`, `.sendTimePassed`.
    /// A preset's word (`tomorrow`, `this-evening`, `next-week`: `sendLaterChoices()`) names its time.
    public func sendTime(from text: String) throws(ComposeError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let date = Snooze.date(from: trimmed, timeZone: clock.timeZone)
            ?? SendLaterChoice.date(word: trimmed, now: clock.now, timeZone: clock.timeZone) else {
            throw .unreadableSendTime(text)
        }
        try refusingPast(date)
        return date
    }

    /// The times the composer's "Send later" menu offers now, in the clock's time zone.
    public nonisolated func sendLaterChoices() -> [SendLaterChoice] {
        SendLaterChoice.choices(now: sender.clock.now, timeZone: sender.clock.timeZone)
    }

    /// What the person is told once a message is scheduled, `time` written for them (the tool:
    /// local `2026-12-01 09:00`; the web app: in the browser's language).
    public nonisolated static func scheduledWords(subject: String, time: String) -> String {
        "“\(subject.isEmpty ? "(no subject)" : subject)” will be sent \(time). It waits in the Outbox under Scheduled, "
            + "and goes from whichever of your devices runs VaultMail then, once."
    }

    private func refusingPast(_ date: Date) throws(ComposeError) {
        let now = clock.now
        guard date <= now else { return }
        throw .sendTimePassed(time: Snooze.localText(date, timeZone: clock.timeZone), now: Snooze.localText(now, timeZone: clock.timeZone))
    }

    /// `draft` or `failed` → `queued` with the message built now (its Date is now, or `dated`),
    /// encrypted or signed as `crypto` and `OpenPGPWriting` decide. Already queued: nothing to do.
    private func queue(emailId: String, notBefore: Date, dated: Date? = nil, crypto: CryptoChoice, sendAt: Date? = nil) async throws {
        pendingDraftCopies.removeValue(forKey: emailId)?.cancel()
        guard let entry = try await outbox.entry(emailId: emailId) else { throw ComposeError.draftNotFound(id: emailId) }
        switch entry.state {
        case .queued:
            return
        case .draft, .failed:
            guard !OutboxSender.recipients(of: entry.email).isEmpty else { throw ComposeError.noRecipients(emailId: emailId) }
            let raw = try await sendable(entry.email, date: dated ?? clock.now, crypto: crypto)
            try await outbox.queue(emailId: emailId, rawMessage: raw, notBefore: notBefore, now: clock.now, sendAt: sendAt)
        default:
            throw ComposeError.wrongState(emailId: emailId, state: entry.state, action: "queue")
        }
    }

    /// The bytes that are sent for `email`: through `OpenPGPWriting` when there is one, else plain.
    private func sendable(_ email: Email, date: Date, crypto: CryptoChoice) async throws -> [UInt8] {
        let message = try await outgoingMessage(email, date: date)
        guard let openPGP else {
            if crypto.encrypt == true || crypto.sign { throw OpenPGPError.engineUnavailable("this VaultMail writes no OpenPGP") }
            return try builder.build(message)
        }
        guard let account = try await sender.accounts.getAccount(id: email.accountId) else {
            throw ComposeError.accountNotFound(id: email.accountId)
        }
        return try await openPGP.build(message, account: account, threadId: email.threadId, choice: crypto, builder: builder)
    }

    private func outgoingMessage(_ email: Email, date: Date) async throws -> OutgoingMessage {
        OutgoingMessage(
            messageId: email.messageId, date: date, timeZone: clock.timeZone,
            from: Participant(name: email.fromName, email: email.fromAddress), to: email.toAddresses,
            cc: email.ccAddresses, bcc: email.bccAddresses, subject: email.subject, textBody: email.bodyPlain ?? "",
            htmlBody: email.bodyHTML, inReplyTo: email.inReplyTo,
            references: MessageIDs.parseList(email.references ?? ""),
            attachments: try await outbox.attachments(emailId: email.id))
    }

    /// Runs `body` when no other draft or queue operation on `key` runs.
    private func serialized<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
        while busy.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        }
        busy.insert(key)
        defer {
            busy.remove(key)
            if var queue = waiting[key], !queue.isEmpty {
                let next = queue.removeFirst()
                waiting[key] = queue.isEmpty ? nil : queue
                next.resume()
            }
        }
        return try await body()
    }
}
