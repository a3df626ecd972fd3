import Foundation
import VaultMailCore

/// The composer (AC-U-08): From, To, Cc, Bcc, Subject, the body (plain text or Markdown),
/// attachments, Send and Discard. One form that works without the script (send, discard);
/// the script adds recipient tokens with suggestions, saving as the user types, attachments
/// by picker or drop, and the undo window after Send.
struct ComposerView {
    struct AttachmentItem {
        var filename: String
        var size: Int
    }

    var kind: ComposeKind
    var content: DraftContent
    var accounts: [Account]
    var attachments: [AttachmentItem]
    /// The original's attachments a forward will carry (not yet in a draft).
    var forwarded: [AttachmentItem]
    /// The outgoing server's SIZE limit, when known.
    var sizeLimit: Int?
    var problem: String?
    /// Where Send and Discard go back to.
    var returnTo: String
    var csrf: String
    var display = Pages.Display()
    /// Where the cursor starts in the body (after text given with the address, else at the top).
    var cursor = 0

    var heading: String {
        switch kind {
        case .new: "New message"
        case .reply: "Reply"
        case .replyAll: "Reply all"
        case .forward: "Forward"
        case .draft: "Draft"
        }
    }

    func render() -> String {
        var body = "<a class=\"skip\" href=\"#body\">Skip to the message</a>"
        body += "<header class=\"topbar\"><a class=\"brand\" href=\"/mail\">VaultMail</a>"
        body += "<a class=\"tool\" href=\"\(HTML.escape(returnTo))\">\(Icon.back.svg())<span>Back to the mail</span></a></header>"
        body += "<main class=\"compose-main\" id=\"main\">"
        body += "<form class=\"composer\" id=\"composer\" method=\"post\" action=\"/compose/send\" aria-labelledby=\"compose-title\""
        body += " data-draft=\"\(HTML.escape(content.draftId ?? ""))\" data-limit=\"\(sizeLimit.map(String.init) ?? "")\" data-kind=\"\(kind.rawValue)\">"
        body += "<h1 id=\"compose-title\">\(heading)</h1>"
        if let problem { body += "<p class=\"notice error\" role=\"alert\">\(HTML.escape(problem))</p>" }
        body += hidden("csrf", csrf) + hidden("draft", content.draftId) + hidden("inReplyTo", content.inReplyTo)
        body += hidden("references", content.references) + hidden("thread", content.threadId)
        body += hidden("forward", content.forwardedEmailId) + hidden("return", returnTo)
        body += from()
        body += recipients("to", "To", content.to, required: true)
        let showCopies = !content.cc.isEmpty || !content.bcc.isEmpty
        body += "<div class=\"copies\(showCopies ? " shown" : "")\" id=\"copies\">"
        body += recipients("cc", "Cc", content.cc) + recipients("bcc", "Bcc", content.bcc)
        body += "</div>"
        body += "<button type=\"button\" class=\"link-button\" id=\"show-copies\"\(showCopies ? " hidden" : "") aria-controls=\"copies\" aria-expanded=\"false\">Add Cc or Bcc</button>"
        body += "<div class=\"field\"><label for=\"subject\">Subject</label><input id=\"subject\" name=\"subject\" type=\"text\" value=\"\(HTML.escape(content.subject))\" autocomplete=\"off\"></div>"
        body += "<div class=\"field body-field\"><label for=\"body\" class=\"visually-hidden\">Message</label>"
        // The newline after the tag is dropped by the HTML parser, so the body's own first empty
        // line (the one above an answer's attribution) survives.
        body += "<textarea id=\"body\" name=\"body\" rows=\"16\" spellcheck=\"true\" aria-describedby=\"format-hint\" data-cursor=\"\(cursor)\">\n\(HTML.escape(content.body))</textarea></div>"
        body += "<div class=\"compose-options\"><label class=\"check\"><input type=\"checkbox\" name=\"markdown\" value=\"1\"\(content.markdown ? " checked" : "")>"
        body += " Format with Markdown</label><span class=\"hint-text\" id=\"format-hint\">Plain text is sent as you write it; with Markdown, **bold**, lists and links are also sent formatted.</span></div>"
        body += attachmentSection()
        body += "<div class=\"compose-actions\">"
        body += "<button class=\"primary\" type=\"submit\" id=\"send\">Send</button>"
        body += "<span class=\"save-state\" id=\"save-state\" role=\"status\" aria-live=\"polite\">\(content.draftId == nil ? "" : "Draft saved")</span>"
        body += "<button class=\"tool danger\" type=\"submit\" formaction=\"/compose/discard\" id=\"discard\">\(Icon.trash.svg())<span>Discard</span></button>"
        body += "</div></form></main>"
        body += "<div class=\"toasts\" id=\"toasts\" role=\"status\" aria-live=\"polite\"></div>"
        return Pages.document(title: "\(heading) — VaultMail", bodyClass: "app compose-page", csrf: csrf, body: body,
                              scripts: [Assets.script, Assets.composeScript], display: display)
    }

    private func from() -> String {
        guard accounts.count > 1 else {
            let account = accounts.first
            return hidden("account", content.accountId)
                + "<p class=\"field from-line\"><span class=\"label\">From</span><span>\(HTML.escape(account.map(Self.sender) ?? ""))</span></p>"
        }
        var out = "<div class=\"field\"><label for=\"account\">From</label><select id=\"account\" name=\"account\">"
        for account in accounts {
            let selected = account.id == content.accountId ? " selected" : ""
            out += "<option value=\"\(HTML.escape(account.id))\"\(selected)>\(HTML.escape(Self.sender(account)))</option>"
        }
        return out + "</select></div>"
    }

    static func sender(_ account: Account) -> String {
        ComposeTemplate.formatted(Participant(name: account.displayName, email: account.email))
    }

    /// A recipients field: a text input the script turns into tokens with suggestions.
    private func recipients(_ name: String, _ label: String, _ values: [String], required: Bool = false) -> String {
        "<div class=\"field recipients\" data-field=\"\(name)\"><label for=\"\(name)\">\(label)</label>"
            + "<div class=\"token-box\"><input id=\"\(name)\" name=\"\(name)\" type=\"text\" autocomplete=\"off\" spellcheck=\"false\""
            + " value=\"\(HTML.escape(values.joined(separator: ", ")))\" aria-describedby=\"\(name)-error\"\(required ? " data-required=\"1\"" : "")></div>"
            + "<p class=\"field-error\" id=\"\(name)-error\"></p></div>"
    }

    private func attachmentSection() -> String {
        var out = "<section class=\"attachments-box\" id=\"dropzone\" aria-labelledby=\"attachments-title\">"
        out += "<h2 id=\"attachments-title\" class=\"visually-hidden\">Attachments</h2><ul class=\"attachment-list\" id=\"attachment-list\">"
        for (index, item) in attachments.enumerated() {
            out += "<li><span class=\"file-name\">\(Icon.paperclip.svg())\(HTML.escape(item.filename))</span> <span class=\"file-size\">\(ByteSize.string(item.size))</span>"
            out += "<button type=\"submit\" class=\"link-button\" formaction=\"/compose/detach\" name=\"index\" value=\"\(index)\" aria-label=\"Remove \(HTML.escape(item.filename))\">Remove</button></li>"
        }
        for item in forwarded {
            out += "<li class=\"forwarded\"><span class=\"file-name\">\(Icon.paperclip.svg())\(HTML.escape(item.filename))</span> <span class=\"file-size\">\(ByteSize.string(item.size))</span> <span class=\"hint-text\">from the original message</span></li>"
        }
        out += "</ul><p class=\"attach-row\"><label class=\"tool\" for=\"attach\">\(Icon.paperclip.svg())<span>Attach files</span></label>"
        out += "<input type=\"file\" id=\"attach\" multiple class=\"visually-hidden-file\"> <span class=\"hint-text\" id=\"size-note\">"
        let total = (attachments + forwarded).reduce(0) { $0 + $1.size }
        if let sizeLimit {
            out += "Or drop files here. \(ByteSize.string(total)) of the \(ByteSize.string(sizeLimit)) the server accepts."
        } else {
            out += "Or drop files here."
        }
        return out + "</span></p></section>"
    }

    private func hidden(_ name: String, _ value: String?) -> String {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTML.escape(value ?? ""))\">"
    }
}
