import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `GET /compose`: `kind=new|reply|reply-all|forward|draft`, `email=` the message answered
    /// or forwarded, `draft=` the draft to continue, `account=`, `to=` (addresses, separated by
    /// commas), `subject=`, `body=`, `return=`.
    /// What `/compose`, its suggestions (`q=`) and the attach route (`draft=`, `name=`) are asked with.
    struct ComposerQuery: Decodable {
        var kind, email, draft, account, to, subject, body, problem, detail, returnTo: String?
        var q, name: String?

        private enum CodingKeys: String, CodingKey {
            case kind, email, draft, account, to, subject, body, problem, detail, q, name
            case returnTo = "return"
        }
    }

    func composer(_ query: ComposerQuery, csrf: String) async -> Response {
        let accounts = (try? await mail.accountService.active()) ?? []
        guard let firstAccount = accounts.first else {
            return Pages.redirect(Self.withNotice("/mail", "Add an account before writing mail."))
        }
        let returnTo = WebApp.safeReturn(query.returnTo)
        var kind = ComposeKind(rawValue: query.kind ?? "") ?? .new
        var problem = query.problem.map { PlainProblem(words: $0, detail: query.detail) }
        var from = await defaultAccount(query, returnTo: returnTo, accounts: accounts)
        if from == nil { from = (try? await mail.accountService.defaultAccount())?.id }
        var content = DraftContent(accountId: from ?? firstAccount.id)
        var attachments: [ComposerView.AttachmentItem] = []
        var forwarded: [ComposerView.AttachmentItem] = []
        let signatures = await mail.accountService.signatures()
        let given = query.body.map(Self.prefill) ?? ""

        switch kind {
        case .draft:
            if let draft = await continuedDraft(query.draft) {
                (content, attachments, forwarded) = draft
            } else {
                problem = problem ?? PlainProblem(words: "That draft was sent or discarded; this is a new message.")
                kind = .new
            }
        case .reply, .replyAll, .forward:
            guard let id = query.email, let answer = try? await mail.composition.answer(kind, emailId: id, typed: given),
                  accounts.contains(where: { $0.id == answer.accountId }) else {
                problem = PlainProblem(words: "The message to answer is no longer here; this is a new message.")
                kind = .new
                break
            }
            content = answer
            if kind == .forward, let files = try? await mail.composition.forwardedAttachments(emailId: id) {
                forwarded = files.carried.map { .init(filename: $0.filename, size: $0.sizeBytes) }
                problem = problem ?? files.notice.map { PlainProblem(words: $0) }
            }
        case .new:
            break
        }
        // A suggested reply (or any text given): above the quote and the signature, cursor after it.
        var cursor = 0
        if kind != .draft, !given.isEmpty {
            if kind == .new { content.body = Compose.placing(given, above: content.body) }
            cursor = given.utf16.count
        }
        if kind == .new {
            content.to = query.to.map(EmailAddress.split) ?? []
            content.subject = query.subject ?? content.subject
            if content.body.isEmpty || cursor == content.body.utf16.count, let signature = signatures[content.accountId], !signature.isEmpty {
                content.body += "\n\n" + ComposeTemplate.signatureBlock(signature)
            }
        }
        var view = ComposerView(
            kind: kind, content: content, accounts: accounts, attachments: attachments, forwarded: forwarded,
            sizeLimit: await mail.compose.sizeLimit(accountId: content.accountId), problem: problem, returnTo: returnTo, csrf: csrf)
        view.display = await display()
        view.cursor = cursor
        view.sendLater = SendLaterMenu(choices: mail.compose.sendLaterChoices(), dates: dates, now: mail.clock.now, timeZone: mail.clock.timeZone)
        view.crypto = CryptoState(await cryptoPlan(content, recipients: ComposeForm.addresses(of: content), choice: .automatic))
        return Pages.html(view.render())
    }

    /// A draft to continue writing: its fields, its files, and the files a draft synced from the
    /// server still has there (taken in on the first save); nil when it was sent or discarded.
    private func continuedDraft(_ id: String?) async
        -> (content: DraftContent, attachments: [ComposerView.AttachmentItem], forwarded: [ComposerView.AttachmentItem])? {
        guard let id, let draft = try? await mail.compose.draft(emailId: id), draft.entry.state == .draft || draft.entry.email.isDraft else {
            return nil
        }
        var forwarded: [ComposerView.AttachmentItem] = []
        if draft.entry.state == .none {
            forwarded = ((try? await mail.mailboxes.attachments(emailId: id)) ?? []).filter { !$0.isInline }
                .map { .init(filename: $0.filename, size: $0.sizeBytes) }
        }
        return (Self.content(of: draft.entry.email), draft.attachments.map { .init(filename: $0.filename, size: $0.data.count) }, forwarded)
    }

    /// Text given for the body (`body=`): line breaks as the textarea keeps them, at most 4,000 characters.
    static func prefill(_ text: String) -> String {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return String(lines.trimmingCharacters(in: .whitespacesAndNewlines).prefix(4000))
    }

    /// The account a new message is written from: the one asked for, else the one whose
    /// folder the user came from (nil: then the default account, AC-U-12).
    private func defaultAccount(_ query: ComposerQuery, returnTo: String, accounts: [Account]) async -> String? {
        if let asked = query.account, accounts.contains(where: { $0.id == asked }) { return asked }
        let back = try? WebForm.decode(MailQuery.self, from: String(returnTo.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""))
        if case .folder(let folderId)? = Mailbox(parameter: back?.box), let folder = try? await mail.mailboxes.folder(id: folderId) {
            return folder.accountId
        }
        return nil
    }
}
