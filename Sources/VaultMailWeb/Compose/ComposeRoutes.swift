import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// The composer: `GET /compose` (new, reply, reply-all, forward, or a draft to continue) and
    /// what its script and form post: save as the user types, send with the undo window, undo,
    /// discard, attach and detach files, and recipient suggestions.
    func addComposeRoutes(to router: Router<WebRequestContext>) {
        router.get("/compose") { request, context -> Response in
            let query = try request.query(ComposerQuery.self)
            return await self.composer(query, csrf: self.csrf(context: context))
        }
        router.get("/compose/contacts") { request, _ -> Response in
            let typed = try request.query(ComposerQuery.self).q ?? ""
            let found = await self.mail.contacts.suggestions(for: typed, limit: 8)
            return Pages.json(found.map {
                JSONReply.Contact(email: $0.email, name: $0.name ?? "", value: ComposeTemplate.formatted($0.participant))
            })
        }
        router.post("/compose/save") { _, context -> Response in
            let form = try context.form(ComposeForm.Posted.self)
            do {
                let id = try await self.saveDraft(form, checkAddresses: false)
                return Pages.json(JSONReply.Saved(draft: id, problems: self.addressProblems(form)))
            } catch {
                return Self.failure(PlainProblem(error).led(by: "Not saved: "))
            }
        }
        router.post("/compose/send") { request, context -> Response in
            await self.send(try context.form(ComposeForm.Posted.self), wantsJSON: request.headers[.accept]?.contains("application/json") == true,
                            csrf: self.csrf(context: context))
        }
        router.post("/compose/send-later") { request, context -> Response in
            await self.sendLater(try context.form(ComposeForm.Posted.self), wantsJSON: request.headers[.accept]?.contains("application/json") == true)
        }
        addComposeCryptoRoute(to: router)
        router.post("/compose/undo") { _, context -> Response in
            guard let id = try context.form(ComposeForm.Posted.self).draft, !id.isEmpty else { return Pages.plain(.badRequest, "Name the message to take back (draft=).") }
            do {
                try await self.mail.compose.cancel(emailId: id)
                return Pages.json(JSONReply.Draft(draft: id, url: Self.draftURL(id)))
            } catch {
                return Self.failure(PlainProblem(error), status: .conflict)
            }
        }
        router.post("/compose/discard") { request, context -> Response in
            let posted = try context.form(ComposeForm.Posted.self)
            let form = ComposeForm(posted, defaultAccount: "")
            var message = "Draft discarded.", detail: String?
            if let id = form.content.draftId {
                do {
                    if let problem = try await self.mail.compose.discardDraft(emailId: id) {
                        (message, detail) = ("Draft discarded here. " + problem.words, problem.detail)
                    }
                } catch {
                    let problem = PlainProblem(error)
                    (message, detail) = ("The draft could not be discarded: " + problem.words, problem.detail)
                }
            }
            if request.headers[.accept]?.contains("application/json") == true {
                return Pages.json(JSONReply.Discarded(message: message, url: form.returnTo, detail: detail))
            }
            return Pages.redirect(Self.withNotice(form.returnTo, message))
        }
        addOutboxRoutes(to: router)
    }

    /// The Outbox's Send now and Cancel (back to a draft), and removing an attachment.
    private func addOutboxRoutes(to router: Router<WebRequestContext>) {
        router.post("/outbox/retry") { _, context -> Response in
            guard let id = try context.form(ComposeForm.Posted.self).draft, !id.isEmpty else { return Pages.plain(.badRequest, "Name the message (draft=).") }
            let problem: PlainProblem
            do {
                problem = switch try await self.mail.compose.retry(emailId: id) {
                case .sent: PlainProblem(words: "Sent.")
                case .cancelled: PlainProblem(words: "Cancelled; it is a draft again.")
                case .queued(let reason, _): PlainProblem(words: NotSentAdvice.words(.queued, reason: reason))
                case .failed(let reason): PlainProblem(words: NotSentAdvice.words(.failed, reason: reason))
                }
            } catch {
                problem = PlainProblem(error)
            }
            return Pages.redirect(Self.withNotice(Mailbox.outbox.url(), problem.words))
        }
        router.post("/outbox/cancel") { _, context -> Response in
            guard let id = try context.form(ComposeForm.Posted.self).draft, !id.isEmpty else { return Pages.plain(.badRequest, "Name the message (draft=).") }
            do {
                try await self.mail.compose.cancel(emailId: id)
                return Pages.redirect(Self.draftURL(id, returnTo: Mailbox.outbox.url()))
            } catch {
                return Pages.redirect(Self.withNotice(Mailbox.outbox.url(), PlainWords.of(error)))
            }
        }
        router.post("/outbox/unschedule") { _, context -> Response in
            guard let id = try context.form(ComposeForm.Posted.self).draft, !id.isEmpty else { return Pages.plain(.badRequest, "Name the message (draft=).") }
            do {
                try await self.mail.compose.cancel(emailId: id)
                await self.events.publish(.changed)
                return Pages.redirect(Self.withNotice(Mailbox.outbox.url(), "Cancelled: it won't be sent. It is a draft again, in Drafts."))
            } catch {
                return Pages.redirect(Self.withNotice(Mailbox.outbox.url(), PlainWords.of(error)))
            }
        }
        router.post("/compose/attach") { request, context -> Response in
            try await self.attach(request, context: context)
        }
        router.post("/compose/detach") { request, context -> Response in
            let posted = try context.form(ComposeForm.Posted.self)
            let form = ComposeForm(posted, defaultAccount: "")
            guard let id = form.content.draftId, let index = Int(posted.index ?? ""),
                  let draft = try? await self.mail.compose.draft(emailId: id) else {
                return Pages.plain(.badRequest, "Name the draft (draft=) and the attachment (index=).")
            }
            var files = draft.attachments
            if files.indices.contains(index) { files.remove(at: index) }
            do {
                _ = try await self.mail.compose.saveDraft(
                    Self.content(of: draft.entry.email), html: draft.entry.email.bodyHTML, attachments: files,
                    serverCopy: Self.draftCopyDelay, checkAddresses: false)
            } catch {
                return Self.failure(PlainProblem(error).led(by: "The attachment could not be removed. "))
            }
            if request.headers[.accept]?.contains("application/json") == true {
                return Pages.json(Self.attachmentsJSON(files))
            }
            return Pages.redirect(Self.draftURL(id, returnTo: form.returnTo))
        }
    }

    /// How long after the last save the draft's copy goes to the server's Drafts folder.
    static let draftCopyDelay: Duration = .seconds(3)

    static func draftURL(_ id: String, returnTo: String? = nil) -> String {
        var url = "/compose?kind=draft&draft=" + WebForm.escape(id)
        if let returnTo { url += "&return=" + WebForm.escape(returnTo) }
        return url
    }

    /// `target` with `notice=message`, in place of a notice it had (an address names each
    /// field once, or the decoder refuses it).
    static func withNotice(_ target: String, _ message: String) -> String {
        let question = target.firstIndex(of: "?")
        let path = question.map { target[..<$0] } ?? target[...]
        let fields = question.map { target[target.index(after: $0)...].split(separator: "&").filter { !$0.hasPrefix("notice=") } } ?? []
        return path + "?" + (fields + ["notice=" + WebForm.escape(message)]).joined(separator: "&")
    }

    /// Saves the posted composer as a draft; the HTML alternative is rendered for Markdown.
    func saveDraft(_ fields: ComposeForm.Posted, checkAddresses: Bool) async throws -> String {
        let form = ComposeForm(fields, defaultAccount: "")
        let content = form.content
        let html = content.markdown ? mail.markdown.html(fromMarkdown: content.body) : nil
        var attachments: [DraftAttachment]?
        if content.draftId == nil, let original = content.forwardedEmailId {
            attachments = try await mail.attachments.files(try await mail.composition.forwardedAttachments(emailId: original).carried)
        } else if let id = content.draftId, let draft = try await mail.compose.draft(emailId: id), draft.entry.state == .none {
            attachments = try await mail.attachments.forwardable(emailId: id)  // a synced draft, taken in: keep its files
        }
        let id = try await mail.compose.saveDraft(content, html: html, attachments: attachments,
                                                  serverCopy: Self.draftCopyDelay, checkAddresses: checkAddresses)
        return id
    }

    /// The addresses that cannot be sent to, as the user typed them, and why.
    func addressProblems(_ fields: ComposeForm.Posted) -> [JSONReply.AddressProblem] {
        var problems: [JSONReply.AddressProblem] = []
        for field in ["to", "cc", "bcc"] {
            for address in fields.addresses(field) {
                do {
                    _ = try EmailAddress.parse(address, field: field.capitalized)
                } catch {
                    problems.append(.init(field: field, address: address, reason: PlainWords.of(error)))
                }
            }
        }
        return problems
    }
}
