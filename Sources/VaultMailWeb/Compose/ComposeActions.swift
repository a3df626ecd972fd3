import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// Saves, checks, and starts sending with the undo window (AC-U-11). Without the script
    /// the browser goes back where it came from with a notice.
    func send(_ fields: ComposeForm.Posted, wantsJSON: Bool, csrf: String) async -> Response {
        let form = ComposeForm(fields, defaultAccount: "")
        // "Not sent: …" in a person's words, the detail behind a disclosure (issue 29).
        func refuse(_ problem: PlainProblem, draft: String?) -> Response {
            if wantsJSON {
                return Pages.json(JSONReply.Failure(error: problem.words, draft: draft ?? "", detail: problem.detail), status: .badRequest)
            }
            var url = "/compose?kind=" + (draft == nil ? form.content.forwardedEmailId == nil ? "new" : "forward" : "draft")
            if let draft { url += "&draft=" + WebForm.escape(draft) }
            url += "&problem=" + WebForm.escape(problem.words) + (problem.detail.map { "&detail=" + WebForm.escape($0) } ?? "")
            url += "&return=" + WebForm.escape(form.returnTo)
            return Pages.redirect(url)
        }
        if form.content.to.isEmpty && form.content.cc.isEmpty && form.content.bcc.isEmpty {
            return refuse(PlainProblem(words: "Not sent: add at least one recipient in To, Cc or Bcc."), draft: form.content.draftId)
        }
        let id: String
        do {
            id = try await saveDraft(fields, checkAddresses: true)
        } catch {
            return refuse(PlainProblem(error).led(by: "Not sent: "), draft: form.content.draftId)
        }
        let sendsAt: Date
        do {
            if let draft = try? await mail.compose.draft(emailId: id) {
                let email = draft.entry.email
                try await mail.composition.checkSize(accountId: email.accountId, text: email.bodyPlain ?? "", html: email.bodyHTML,
                                                     attachments: draft.attachments)
            }
            sendsAt = try await mail.compose.startSending(emailId: id, crypto: form.crypto)
        } catch {
            return refuse(PlainProblem(error).led(by: "Not sent: "), draft: id)
        }
        await mail.contacts.invalidate()
        let seconds = max(0, Int(sendsAt.timeIntervalSince(mail.clock.now).rounded()))
        if wantsJSON {
            return Pages.json(JSONReply.Sending(draft: id, undoSeconds: seconds, url: form.returnTo, subject: form.content.subject))
        }
        let message = seconds > 0
            ? "Sending in \(seconds) seconds. To take it back, cancel it in the Outbox before then."
            : "Sending. The Outbox shows it until it has gone."
        return Pages.redirect(Self.withNotice(form.returnTo, message))
    }

    /// Send later (issue 33): saves and checks the draft as Send does, reads the time with Core's
    /// `sendTime(from:)` (a preset's word, or the picker's `when` for `at=pick`) and schedules it
    /// (`ComposeEmailService.schedule`, the tool's `send --at`). Refusals (no time, past,
    /// unreadable) in the service's words; the draft stays open. Without the script the browser
    /// goes back where it came from with the notice.
    func sendLater(_ fields: ComposeForm.Posted, wantsJSON: Bool) async -> Response {
        let form = ComposeForm(fields, defaultAccount: "")
        func refuse(_ problem: PlainProblem, draft: String?) -> Response {
            if wantsJSON {
                return Pages.json(JSONReply.Failure(error: problem.words, draft: draft ?? "", detail: problem.detail), status: .badRequest)
            }
            var url = "/compose?kind=" + (draft == nil ? "new" : "draft")
            if let draft { url += "&draft=" + WebForm.escape(draft) }
            url += "&problem=" + WebForm.escape(problem.words) + (problem.detail.map { "&detail=" + WebForm.escape($0) } ?? "")
            url += "&return=" + WebForm.escape(form.returnTo)
            return Pages.redirect(url)
        }
        let written = (fields.at == "pick" ? fields.when : fields.at)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !written.isEmpty else {
            return refuse(PlainProblem(words: "Not scheduled: choose a time from the menu, or pick a date and time."), draft: form.content.draftId)
        }
        if form.content.to.isEmpty && form.content.cc.isEmpty && form.content.bcc.isEmpty {
            return refuse(PlainProblem(words: "Not scheduled: add at least one recipient in To, Cc or Bcc."), draft: form.content.draftId)
        }
        let id: String
        do {
            id = try await saveDraft(fields, checkAddresses: true)
        } catch {
            return refuse(PlainProblem(error).led(by: "Not scheduled: "), draft: form.content.draftId)
        }
        let at: Date
        do {
            at = try await mail.compose.sendTime(from: written)
            if let draft = try? await mail.compose.draft(emailId: id) {
                let email = draft.entry.email
                try await mail.composition.checkSize(accountId: email.accountId, text: email.bodyPlain ?? "", html: email.bodyHTML,
                                                     attachments: draft.attachments)
            }
            try await mail.compose.schedule(emailId: id, at: at, crypto: form.crypto)
        } catch {
            return refuse(PlainProblem(error).led(by: "Not scheduled: "), draft: id)
        }
        await events.publish(.changed)
        let message = ComposeEmailService.scheduledWords(subject: form.content.subject, time: dates.wakeTime(at))
        if wantsJSON {
            return Pages.json(JSONReply.Scheduled(draft: id, url: form.returnTo, message: message, at: at.formatted(.iso8601)))
        }
        return Pages.redirect(Self.withNotice(form.returnTo, message))
    }

    /// One file posted as the request body (`name=` in the query, its type in Content-Type),
    /// added to the draft (`draft=`).
    func attach(_ request: Request, context: WebRequestContext) async throws(FormError) -> Response {
        let query = try request.query(ComposerQuery.self)
        guard let id = query.draft, let name = query.name, !name.isEmpty else {
            return Pages.plain(.badRequest, "Name the draft (draft=) and the file (name=).")
        }
        guard let draft = try? await mail.compose.draft(emailId: id) else {
            return Pages.plain(.notFound, "That draft was sent or discarded.")
        }
        let limit = await mail.compose.sizeLimit(accountId: draft.entry.email.accountId) ?? Self.largestAttachment
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: min(limit, Self.largestAttachment))
        } catch {
            return Self.failure(PlainProblem(words: "\(name) is larger than the \(ByteSize.string(min(limit, Self.largestAttachment))) the server accepts; share it another way."),
                                status: .contentTooLarge)
        }
        let type = request.headers[.contentType].flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream"
        let file = DraftAttachment(filename: Self.safeFilename(name), mimeType: type, data: Data(buffer.readableBytesView))
        let files = draft.attachments + [file]
        do {
            _ = try await mail.compose.saveDraft(
                Self.content(of: draft.entry.email), html: draft.entry.email.bodyHTML, attachments: files,
                serverCopy: Self.draftCopyDelay, checkAddresses: false)
        } catch {
            return Self.failure(PlainProblem(error).led(by: "\(name) could not be attached. "))
        }
        return Pages.json(Self.attachmentsJSON(files))
    }

    /// A failure for the composer's script: the words and the detail (issue 29).
    static func failure(_ problem: PlainProblem, status: HTTPResponse.Status = .badRequest) -> Response {
        Pages.json(JSONReply.Failure(error: problem.words, detail: problem.detail), status: status)
    }

    /// The largest file the composer takes when the server names no limit.
    static let largestAttachment = 50 << 20

    static func attachmentsJSON(_ files: [DraftAttachment]) -> [JSONReply.Attachment] {
        files.map { JSONReply.Attachment(name: $0.filename, size: $0.data.count, sizeText: ByteSize.string($0.data.count)) }
    }

    /// A file name without a path or control characters.
    static func safeFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? "attachment"
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        return clean.isEmpty ? "attachment" : String(clean.prefix(200))
    }

    /// A saved draft's fields, to save it again with other attachments.
    static func content(of email: Email) -> DraftContent {
        var content = DraftContent(accountId: email.accountId)
        content.draftId = email.id
        content.to = email.toAddresses.map(ComposeTemplate.formatted)
        content.cc = email.ccAddresses.map(ComposeTemplate.formatted)
        content.bcc = email.bccAddresses.map(ComposeTemplate.formatted)
        content.subject = email.subject
        // A draft written elsewhere may be HTML only: its text is continued, as plain text.
        let writtenHere = email.sendState == .draft
        content.body = email.bodyPlain ?? (writtenHere ? "" : email.bodyHTML.map { HTMLText.plainText($0) } ?? "")
        content.markdown = writtenHere && email.bodyHTML != nil
        content.inReplyTo = email.inReplyTo
        content.references = email.references
        content.threadId = email.threadId
        return content
    }
}
