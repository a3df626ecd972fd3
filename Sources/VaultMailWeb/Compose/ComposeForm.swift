import VaultMailCore

/// The composer's fields as the browser posts them (form-encoded): each recipients field once,
/// addresses separated by commas, the body with its line ends made LF.
struct ComposeForm {
    /// The fields as posted (by the composer's form and script, the Outbox's buttons).
    struct Posted: Decodable {
        var account, draft, to, cc, bcc, subject, body, markdown: String?
        var inReplyTo, references, thread, forward, returnTo: String?
        /// The attachment to remove (`/compose/detach`).
        var index: String?

        private enum CodingKeys: String, CodingKey {
            case account, draft, to, cc, bcc, subject, body, markdown, inReplyTo, references, thread, forward, index
            case returnTo = "return"
        }

        /// The addresses typed into `to`, `cc` or `bcc`, one by one.
        func addresses(_ field: String) -> [String] {
            let text = switch field {
            case "to": to
            case "cc": cc
            default: bcc
            }
            return text.map(EmailAddress.split) ?? []
        }
    }

    var content: DraftContent
    var returnTo: String

    init(_ form: Posted, defaultAccount: String) {
        func value(_ text: String?) -> String? {
            guard let text, !text.isEmpty else { return nil }
            return text
        }
        content = DraftContent(accountId: value(form.account) ?? defaultAccount)
        content.draftId = value(form.draft)
        content.to = form.addresses("to")
        content.cc = form.addresses("cc")
        content.bcc = form.addresses("bcc")
        content.subject = form.subject ?? ""
        content.body = (form.body ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        content.markdown = form.markdown == "1"
        content.inReplyTo = value(form.inReplyTo)
        content.references = value(form.references)
        content.threadId = value(form.thread)
        content.forwardedEmailId = value(form.forward)
        returnTo = WebApp.safeReturn(form.returnTo)
    }
}
