import VaultMailCore

/// The composer's fields as the browser posts them (form-encoded): recipients as typed (a
/// field may come once with commas or once per token), the body with its line ends made LF.
struct ComposeForm {
    var content: DraftContent
    var returnTo: String

    init(_ form: FormFields, defaultAccount: String) {
        func value(_ name: String) -> String? {
            guard let text = form[name], !text.isEmpty else { return nil }
            return text
        }
        content = DraftContent(accountId: value("account") ?? defaultAccount)
        content.draftId = value("draft")
        content.to = form.all("to").flatMap(EmailAddress.split)
        content.cc = form.all("cc").flatMap(EmailAddress.split)
        content.bcc = form.all("bcc").flatMap(EmailAddress.split)
        content.subject = form["subject"] ?? ""
        content.body = (form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        content.markdown = form["markdown"] == "1"
        content.inReplyTo = value("inReplyTo")
        content.references = value("references")
        content.threadId = value("thread")
        content.forwardedEmailId = value("forward")
        returnTo = WebApp.safeReturn(form["return"])
    }
}
