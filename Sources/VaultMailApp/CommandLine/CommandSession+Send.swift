import Foundation
import VaultMailCore
import VaultMailMarkdown

extension CommandSession {
    public struct Outgoing: Sendable {
        public var account: String
        public var to: [String]
        public var cc: [String] = []
        public var bcc: [String] = []
        public var subject: String?
        /// Answer this email (To, Re:, In-Reply-To and References follow it).
        public var replyTo: String?
        /// With `replyTo`: everyone on the original, not only its sender.
        public var replyAll = false
        /// Forward this email: its text below the body, its attachments carried.
        public var forward: String?
        public var attachments: [String] = []
        public var body: String
        /// Send the body as Markdown (with an HTML alternative).
        public var markdown = false
        /// Seconds to wait before sending, during which `cancelled` taking it back keeps it as a draft.
        public var undoDelay = 0
        /// Send later (issue 33): the time to send at, as written (`2026-12-01 09:00`, ISO 8601);
        /// Core's `ComposeEmailService.sendTime(from:)` reads it.
        public var sendAt: String?
        /// Encrypt (true), don't (false), or as recommended (nil) (issue 32, `CryptoChoice`).
        public var encrypt: Bool?
        /// Sign it even when it is not encrypted.
        public var sign = false

        public init(account: String, to: [String], body: String) {
            self.account = account
            self.to = to
            self.body = body
        }
    }

    /// `vaultmail send`: builds the message and sends it now, or after `undoDelay` seconds
    /// unless `cancelled` returns first (Ctrl-C; it stays a draft). When the server cannot be
    /// reached it stays in the outbox and the daemon sends it later. With `sendAt` it is saved
    /// (in Drafts on the server too) and waits in the outbox until that time (send later).
    public func send(_ outgoing: Outgoing, cancelled: @escaping @Sendable () async -> Void = { while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) } }) async throws -> String {
        let account = try await account(named: outgoing.account)
        do {
            for (field, list) in [("--to", outgoing.to), ("--cc", outgoing.cc), ("--bcc", outgoing.bcc)] {
                for address in list { _ = try EmailAddress.parse(address, field: field) }
            }
        } catch {
            throw CommandError("\(error)", usage: true)
        }
        var sendAt: Date?
        if let text = outgoing.sendAt {
            do { sendAt = try await sending.compose.sendTime(from: text) } catch { throw CommandError("--at: \(error)", usage: true) }
        }
        var content = DraftContent(accountId: account.id)
        content.body = outgoing.body
        var files: [DraftAttachment] = []
        var leftOut: String?
        if let original = outgoing.replyTo ?? outgoing.forward {
            let id = try await emailId(original)
            let kind: ComposeKind = outgoing.forward != nil ? .forward : outgoing.replyAll ? .replyAll : .reply
            content = try await composition.answer(kind, emailId: id, from: account.id, typed: outgoing.body)
            if kind == .forward {
                let forwarded = try await composition.forwardedAttachments(emailId: id)
                files = try await dependencies.attachments.files(forwarded.carried)
                leftOut = forwarded.notice
            }
        }
        content.to = outgoing.to.isEmpty ? content.to : outgoing.to
        content.cc = content.cc + outgoing.cc
        content.bcc = outgoing.bcc
        if let subject = outgoing.subject { content.subject = subject }
        content.markdown = outgoing.markdown
        guard !(content.to + content.cc + content.bcc).isEmpty else {
            throw CommandError("give at least one --to address (or --reply-to an email)", usage: true)
        }
        for path in outgoing.attachments {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read the attachment \(path)", usage: true)
            }
            files.append(DraftAttachment(filename: (path as NSString).lastPathComponent, mimeType: Self.mimeType(of: path), data: data))
        }
        let compose = sending.compose
        let html = outgoing.markdown ? CmarkMarkdownRenderer().html(fromMarkdown: content.body) : nil
        do {
            try await composition.checkSize(accountId: account.id, text: content.body, html: html, attachments: files)
        } catch {
            throw CommandError("not sent: \(error)")
        }
        let crypto = CryptoChoice(encrypt: outgoing.encrypt, sign: outgoing.sign)
        if let sendAt {
            let draftId = try await compose.saveDraft(content, html: html, attachments: files)
            do {
                try await compose.schedule(emailId: draftId, at: sendAt, crypto: crypto)
            } catch {
                await dependencies.openPGPEngine.close()
                throw CommandError("not scheduled (kept as a draft, `vaultmail drafts`): \(PlainWords.lines(error))")
            }
            await dependencies.openPGPEngine.close()
            let short = draftId.prefix(ThreadRow.idLength)
            // Core's words, as the web composer's toast says them (issue 33), then the tool's commands.
            return ComposeEmailService.scheduledWords(subject: content.subject, time: Snooze.localText(sendAt, timeZone: clock.timeZone))
                + " To \((content.to + content.cc + content.bcc).joined(separator: ", ")) (\(short)). "
                + "`vaultmail outbox` lists it; `vaultmail outbox --cancel \(short)` keeps it as a draft to edit."
                + (leftOut.map { " " + $0 } ?? "")
        }
        let draftId = outgoing.undoDelay > 0
            ? try await compose.saveDraft(content, html: html, attachments: files, serverCopy: .seconds(3600))
            : try await compose.saveForSending(content, html: html, attachments: files)
        if outgoing.undoDelay > 0, await Self.interrupted(within: .seconds(outgoing.undoDelay), by: cancelled) {
            return "Not sent: it is a draft again (\(draftId.prefix(ThreadRow.idLength))); `vaultmail drafts` lists it."
        }
        let plan = await compose.cryptoPlan(accountId: account.id, recipients: content.to + content.cc + content.bcc,
                                            threadId: content.threadId, inReplyTo: content.inReplyTo, choice: crypto)
        do {
            try await compose.queueForSending(emailId: draftId, crypto: crypto)
        } catch {
            await dependencies.openPGPEngine.close()
            throw CommandError("not sent (kept as a draft, `vaultmail drafts`): \(PlainWords.lines(error))")
        }
        await dependencies.openPGPEngine.close()
        let recipients = (content.to + content.cc + content.bcc).joined(separator: ", ")
        let protection = plan?.sentNote.map { " " + $0 } ?? ""
        do {
            try await compose.executeSend(emailId: draftId)
            return "Sent \"\(content.subject)\" to \(recipients)." + protection + (leftOut.map { " " + $0 } ?? "")
        } catch let ComposeError.notSent(_, state, reason) {
            throw CommandError(Self.notSent(state, reason: reason, id: draftId))
        } catch {
            throw CommandError(PlainWords.lines(error))
        }
    }

    /// A message that did not go out, in Core's words (`NotSentAdvice`, issue 34): whether
    /// anything retries it, and the tool's way to send it again; the detail on its own line.
    static func notSent(_ state: SendState, reason: String, id: String) -> String {
        let short = id.prefix(ThreadRow.idLength)
        let words = NotSentAdvice.words(state, reason: reason, sendNow: "run `vaultmail outbox --retry \(short)`",
                                        cancel: "`vaultmail outbox --cancel \(short)`")
        return PlainProblem(words: words, detail: PlainProblem(lines: reason).detail).lines
    }

    /// True when `cancelled` returns before `delay` is over.
    static func interrupted(within delay: Duration, by cancelled: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await Task.sleep(for: delay)) == nil ? true : false }
            group.addTask { await cancelled(); return true }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// `vaultmail drafts`: the drafts kept here and in the server's Drafts folder.
    public func drafts(account name: String?, json: Bool) async throws -> String {
        var accountId: String?
        if let name { accountId = try await account(named: name).id }
        let drafts = try await sending.compose.drafts(accountId: accountId).map(\.email)
        if json {
            return try ThreadJSON.encode(drafts.map { ThreadJSON.message($0, attachments: []) })
        }
        guard !drafts.isEmpty else { return "No drafts." }
        return drafts.map { email in
            let to = (email.toAddresses + email.ccAddresses).map(\.email).joined(separator: ", ")
            return "\(email.id.prefix(ThreadRow.idLength)) \(ThreadRow.pad(dates.string(for: email.dateReceived), 8)) \(ThreadRow.fit(to.isEmpty ? "(no recipient)" : to, 24)) \(ThreadRow.fit(email.subject.isEmpty ? "(no subject)" : email.subject, 34))"
        }.joined(separator: "\n")
    }

    public func retryOutgoing(_ prefix: String) async throws -> String {
        let id = try await emailId(prefix)
        switch try await sending.compose.retry(emailId: id) {
        case .sent: return "Sent."
        case .cancelled: return "Cancelled; it is a draft again."
        case .queued(let reason, _): throw CommandError(Self.notSent(.queued, reason: reason, id: id))
        case .failed(let reason): throw CommandError(Self.notSent(.failed, reason: reason, id: id))
        }
    }

    public func cancelOutgoing(_ prefix: String) async throws -> String {
        let id = try await emailId(prefix)
        try await sending.compose.cancel(emailId: id)
        return "Cancelled: it is a draft again and was not sent."
    }

    static func mimeType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "txt": "text/plain"
        case "html", "htm": "text/html"
        case "pdf": "application/pdf"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "zip": "application/zip"
        case "json": "application/json"
        case "csv": "text/csv"
        case "ics": "text/calendar"
        default: "application/octet-stream"
        }
    }
}
