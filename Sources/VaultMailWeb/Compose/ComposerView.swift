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
    /// The conversation's attachments a forward will carry (not yet in a draft).
    var forwarded: [AttachmentItem]
    /// The outgoing server's SIZE limit, when known.
    var sizeLimit: Int?
    /// What went wrong (a send refused), its detail behind a disclosure (issue 29).
    var problem: PlainProblem?
    /// Where Send and Discard go back to.
    var returnTo: String
    var csrf: String
    var display = Pages.Display()
    /// Where the cursor starts in the body (after text given with the address, else at the top).
    var cursor = 0
    /// What sending will do to the message's encryption (issue 32), shown by the lock.
    var crypto = WebApp.CryptoState(nil)
    /// Send later (issue 33): the menu beside Send; nil hides it.
    var sendLater: SendLaterMenu?

    var heading: String {
        switch kind {
        case .new: "New message"
        case .reply: "Reply"
        case .replyAll: "Reply all"
        case .forward: "Forward"
        case .draft: "Draft"
        }
    }

    func render() -> Markup {
        struct Hidden { var name: String; var value: String }
        struct Model {
            var returnTo: String
            var backIcon: Markup
            var draft: String
            var limit: String
            var kind: String
            var heading: String
            var problem: Markup
            var hidden: [Hidden]
            var from: Markup
            var to: Markup
            var showCopies: Bool
            var copies: Markup
            var subject: String
            var cursor: Int
            var body: String
            var markdown: Bool
            var attachments: Markup
            var saved: Bool
            var trashIcon: Markup
            var crypto: Markup
            var sendLater: Markup
        }
        let hidden: [(String, String?)] = [("csrf", csrf), ("draft", content.draftId), ("inReplyTo", content.inReplyTo), ("references", content.references),
                      ("thread", content.threadId), ("forward", content.forwardedEmailId), ("return", returnTo)]
        let body = Self.template.render(Model(
            returnTo: returnTo, backIcon: Icon.back.svg(), draft: content.draftId ?? "", limit: sizeLimit.map(String.init) ?? "",
            kind: kind.rawValue, heading: heading, problem: problem.map { ProblemView.render($0) } ?? .empty, hidden: hidden.map { Hidden(name: $0.0, value: $0.1 ?? "") },
            from: from(), to: recipients("to", "To", content.to, required: true), showCopies: !content.cc.isEmpty || !content.bcc.isEmpty,
            copies: recipients("cc", "Cc", content.cc) + recipients("bcc", "Bcc", content.bcc), subject: content.subject, cursor: cursor,
            body: content.body, markdown: content.markdown, attachments: attachmentSection(), saved: content.draftId != nil,
            trashIcon: Icon.trash.svg(), crypto: cryptoSection(), sendLater: sendLater?.render() ?? .empty))
        return Pages.document(title: "\(heading) — VaultMail", bodyClass: "app compose-page", csrf: csrf, body: body,
                              scripts: [Assets.script, Assets.composeScript], display: display)
    }

    // The newline after the textarea's tag is dropped by the HTML parser, so the body's own
    // first empty line (the one above an answer's attribution) survives.
    private static let template = Template("""
        <a class="skip" href="#body">Skip to the message</a>\
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a>\
        <a class="tool" href="{{returnTo}}">{{{backIcon}}}<span>Back to the mail</span></a></header>\
        <main class="compose-main" id="main">\
        <form class="composer" id="composer" method="post" action="/compose/send" aria-labelledby="compose-title"\
         data-draft="{{draft}}" data-limit="{{limit}}" data-kind="{{kind}}">\
        <h1 id="compose-title">{{heading}}</h1>\
        {{{problem}}}\
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/hidden}}\
        {{{from}}}{{{to}}}\
        <div class="copies{{#showCopies}} shown{{/showCopies}}" id="copies">{{{copies}}}</div>\
        <button type="button" class="link-button" id="show-copies"{{#showCopies}} hidden{{/showCopies}} aria-controls="copies" aria-expanded="false">Add Cc or Bcc</button>\
        <div class="field"><label for="subject">Subject</label><input id="subject" name="subject" type="text" value="{{subject}}" autocomplete="off"></div>\
        <div class="field body-field"><label for="body" class="visually-hidden">Message</label>\
        <textarea id="body" name="body" rows="16" spellcheck="true" aria-describedby="format-hint" data-cursor="{{cursor}}">
        {{body}}</textarea></div>\
        <div class="compose-options"><label class="check"><input type="checkbox" name="markdown" value="1"{{#markdown}} checked{{/markdown}}>\
         Format with Markdown</label><span class="hint-text" id="format-hint">Plain text is sent as you write it; with Markdown, **bold**, lists and links are also sent formatted.</span></div>\
        {{{crypto}}}{{{attachments}}}\
        <div class="compose-actions">\
        <button class="primary" type="submit" id="send">Send</button>{{{sendLater}}}\
        <span class="save-state" id="save-state" role="status" aria-live="polite">{{#saved}}Draft saved{{/saved}}</span>\
        <button class="tool danger" type="submit" formaction="/compose/discard" id="discard">{{{trashIcon}}}<span>Discard</span></button>\
        </div></form></main>\
        <div class="toasts" id="toasts" role="status" aria-live="polite"></div>
        """)

    private func from() -> Markup {
        struct Option { var id: String; var selected: Bool; var sender: String }
        struct Model { var single: Bool; var accountId: String; var sender: String; var options: [Option] }
        return Self.fromTemplate.render(Model(
            single: accounts.count <= 1, accountId: content.accountId, sender: accounts.first.map(Self.sender) ?? "",
            options: accounts.map { Option(id: $0.id, selected: $0.id == content.accountId, sender: Self.sender($0)) }))
    }

    private static let fromTemplate = Template("""
        {{#single}}<input type="hidden" name="account" value="{{accountId}}">\
        <p class="field from-line"><span class="label">From</span><span>{{sender}}</span></p>{{/single}}\
        {{^single}}<div class="field"><label for="account">From</label><select id="account" name="account">\
        {{#options}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{sender}}</option>{{/options}}\
        </select></div>{{/single}}
        """)

    static func sender(_ account: Account) -> String {
        ComposeTemplate.formatted(Participant(name: account.displayName, email: account.email))
    }

    /// A recipients field: a text input the script turns into tokens with suggestions.
    private func recipients(_ name: String, _ label: String, _ values: [String], required: Bool = false) -> Markup {
        struct Model { var name: String; var label: String; var value: String; var required: Bool }
        return Self.recipientsTemplate.render(Model(name: name, label: label, value: values.joined(separator: ", "), required: required))
    }

    private static let recipientsTemplate = Template("""
        <div class="field recipients" data-field="{{name}}"><label for="{{name}}">{{label}}</label>\
        <div class="token-box"><input id="{{name}}" name="{{name}}" type="text" autocomplete="off" spellcheck="false"\
         value="{{value}}" aria-describedby="{{name}}-error"{{#required}} data-required="1"{{/required}}></div>\
        <p class="field-error" id="{{name}}-error"></p></div>
        """)

    /// The lock and sign switches and what sending will do (issue 32); the script asks again
    /// as recipients change.
    private func cryptoSection() -> Markup {
        struct Model { var state: String; var summary: String }
        return Self.cryptoTemplate.render(Model(state: crypto.state, summary: crypto.summary))
    }

    private static let cryptoTemplate = Template("""
        <div class="compose-options crypto-options" id="crypto"><label for="encryption">Encryption</label>\
        <select id="encryption" name="encryption"><option value="auto" selected>Automatic</option>\
        <option value="on">Encrypt</option><option value="off">Don't encrypt</option></select>\
        <label class="check"><input type="checkbox" name="sign" value="1"> Sign</label>\
        <p class="compose-lock" id="crypto-state" data-state="{{state}}" role="status" aria-live="polite">{{summary}}</p></div>
        """)

    private func attachmentSection() -> Markup {
        struct Item { var index: Int; var filename: String; var size: String }
        struct Model { var icon: Markup; var attachments: [Item]; var forwarded: [Item]; var note: String }
        let total = (attachments + forwarded).reduce(0) { $0 + $1.size }
        return Self.attachmentsTemplate.render(Model(
            icon: Icon.paperclip.svg(),
            attachments: attachments.enumerated().map { Item(index: $0, filename: $1.filename, size: ByteSize.string($1.size)) },
            forwarded: forwarded.map { Item(index: 0, filename: $0.filename, size: ByteSize.string($0.size)) },
            note: sizeLimit.map { "Or drop files here. \(ByteSize.string(total)) of the \(ByteSize.string($0)) the server accepts." } ?? "Or drop files here."))
    }

    private static let attachmentsTemplate = Template("""
        <section class="attachments-box" id="dropzone" aria-labelledby="attachments-title">\
        <h2 id="attachments-title" class="visually-hidden">Attachments</h2><ul class="attachment-list" id="attachment-list">\
        {{#attachments}}<li><span class="file-name">{{{icon}}}{{filename}}</span> <span class="file-size">{{size}}</span>\
        <button type="submit" class="link-button" formaction="/compose/detach" name="index" value="{{index}}" aria-label="Remove {{filename}}">Remove</button></li>{{/attachments}}\
        {{#forwarded}}<li class="forwarded"><span class="file-name">{{{icon}}}{{filename}}</span> <span class="file-size">{{size}}</span> <span class="hint-text">forwarded from the conversation</span></li>{{/forwarded}}\
        </ul><p class="attach-row"><label class="tool" for="attach">{{{icon}}}<span>Attach files</span></label>\
        <input type="file" id="attach" multiple class="visually-hidden-file"> <span class="hint-text" id="size-note">{{note}}</span></p></section>
        """)
}
