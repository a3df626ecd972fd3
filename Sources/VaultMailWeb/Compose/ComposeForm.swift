import VaultMailCore

/// The composer's fields as the browser posts them (form-encoded): each recipients field once,
/// addresses separated by commas, the body with its line ends made LF.
struct ComposeForm {
    /// The fields as posted (by the composer's form and script, the Outbox's buttons).
    struct Posted: Decodable {
        var account, draft, to, cc, bcc, subject, body, markdown: String?
        var inReplyTo, references, thread, forward, returnTo: String?
        /// The lock (issue 32): `auto` (or absent), `on` or `off`; `sign`: "1" to sign clear mail.
        var encryption, sign: String?
        /// The attachment to remove (`/compose/detach`).
        var index: String?
        /// Send later (issue 33): a preset's word or `pick`; `when`: the picker's local date and time.
        var at, when: String?

        private enum CodingKeys: String, CodingKey {
            case account, draft, to, cc, bcc, subject, body, markdown, inReplyTo, references, thread, forward, index, encryption, sign
            case at, when
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
    /// What the person chose with the lock and sign switches.
    var crypto: CryptoChoice

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
        crypto = CryptoChoice(encrypt: form.encryption == "on" ? true : form.encryption == "off" ? false : nil, sign: form.sign == "1")
    }

    /// The addresses of To, Cc and Bcc that can be read (what the lock is worked out for).
    var recipientAddresses: [String] { Self.addresses(of: content) }

    /// The addresses of `content`'s To, Cc and Bcc as typed, those that can be read.
    static func addresses(of content: DraftContent) -> [String] {
        (content.to + content.cc + content.bcc).compactMap { try? EmailAddress.parse($0, field: "To").email }
    }
}
