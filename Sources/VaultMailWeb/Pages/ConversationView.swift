import Foundation
import VaultMailCore

/// The right pane (AC-U-05/06): a conversation's messages oldest first, read ones folded,
/// HTML in a sandboxed frame sized to its content, plain text with links and folded quotes,
/// attachments as chips (`AttachmentsView`). Its actions are one form, so they work without JavaScript.
struct ConversationView {
    struct Message {
        var email: Email
        var attachments: [Attachment]
        /// The sanitized HTML body, when the message has one.
        var html: SanitizedHTML?
        /// Remote images are shown (asked for this message, or the sender is trusted).
        var imagesAllowed: Bool
        var expanded: Bool
        /// The events of its calendar invitations, by attachment id (their cards).
        var events: [String: CalendarEvent] = [:]
        /// Its OpenPGP state, for an encrypted or signed message (issue 32): the badge.
        var crypto: MessageCrypto?
        /// The Autocrypt Setup Message it is, sent by the account to itself (issue 32): "Import this key".
        var setupMessage: AutocryptSetupMessage? = nil
    }

    var thread: EmailThread
    var messages: [Message]
    var mailbox: Mailbox
    var category: AICategory?
    var isMuted: Bool
    /// Marked "notify me" (issue 33).
    var isWatched = false
    /// Whether the user wrote in the conversation (a follow-up reminder can wait on an answer),
    /// and the reminder set, if any (issue 33).
    var offersFollowUp = false
    var followUp: FollowUpReminder?
    var vips: Set<String>
    var me: Set<String>
    var moveTargets: [Folder]
    var csrf: String
    var dates: RelativeDate
    /// Remote images are never loaded (the user's setting): no button offers them.
    var imagesNever = false
    /// The category of the conversation's newest email, who decided and why (the category bar).
    var categoryDecision: CategoryDecision?
    /// The summary at the top (AC-A-06); nil where no summaries are written.
    var summary: SummaryPanel?
    /// Suggested replies to the latest message when they were asked for without the script
    /// (`&replies=1`); `.loading` lets the script stream them in.
    var replies: ReplySuggestionsView.State = .loading
    /// Suggested replies are offered (AC-A-05).
    var offersReplies = false
    /// The Snooze menu (issue 33); nil where snoozing is not offered.
    var snoozeMenu: SnoozeMenu?
    /// When the conversation comes back, while it is snoozed.
    var snoozedUntil: SnoozeTime?
    /// How unsubscribing from the conversation's newest bulk message would work (the More
    /// menu's Unsubscribe, issue 33); nil when it has no list headers.
    var unsubscribe: UnsubscribeOffer?
    /// How many older messages are not shown (E-06): a long conversation shows its newest
    /// `pageSize` messages, and "Show older messages" adds a page above them.
    var olderCount = 0

    /// The messages a conversation shows at first, and each "Show older messages" adds.
    static let pageSize = 30

    /// The conversation's version, so a live page reloads it only when what it shows changed
    /// (new mail, star, mute, a VIP sender, images let in; not read state, which opening it changes).
    var version: String {
        let vip = messages.filter { vips.contains($0.email.fromAddress.lowercased()) }.count
        let images = messages.filter(\.imagesAllowed).count
        return "\(thread.messageCount).\(Int(thread.latestDate.timeIntervalSince1970)).\(thread.isStarred).\(isMuted).\(isWatched).\(followUp?.due.timeIntervalSince1970 ?? 0).\(vip).\(images).\(categoryDecision?.category.rawValue ?? "").\(messages.filter { $0.email.isUnsentDraft }.count)"
    }

    func render() -> Markup {
        struct Model {
            var id: String
            var version: String
            var latest: String?
            var csrf: String
            var here: String
            var leave: String
            var backIcon: Markup
            var subject: String
            var meta: String
            var actions: Markup
            var messages: Markup
            var replies: Markup
            var replyBar: Markup
            var draftForms: Markup
            var shown: Int?
            var older: Markup
        }
        let count = thread.messageCount
        return Self.template.render(Model(
            id: thread.id, version: version, latest: answerable?.id, csrf: csrf, here: here, leave: mailbox.url(category: category),
            backIcon: Icon.back.svg(), subject: thread.subject.isEmpty ? "(no subject)" : thread.subject,
            meta: "\(count) message\(count == 1 ? "" : "s")\(draftNote)\(isMuted ? " · muted" : "")\(isWatched ? " · notify me" : "")", actions: actions(),
            messages: renderedMessages(), replies: suggestedReplies(), replyBar: replyBar(), draftForms: draftForms() + setupForms(),
            shown: olderCount > 0 || messages.count > Self.pageSize ? messages.count : nil, older: olderLink()))
    }

    /// "Show 30 older messages" above the first shown, when some are left out: a link that
    /// shows a page more and comes back to the message that was first (the script loads it in place).
    private func olderLink() -> Markup {
        guard olderCount > 0, let first = messages.first else { return .empty }
        struct Model { var href: String; var page: Int; var rest: Int; var plural: Bool }
        let page = min(Self.pageSize, olderCount)
        return Self.olderTemplate.render(Model(href: "\(here)&shown=\(messages.count + page)#m-\(first.email.id)",
                                               page: page, rest: olderCount, plural: page != 1))
    }

    private static let olderTemplate = Template("""
        <li class="msg-older"><a class="older-link" href="{{href}}">Show {{page}} older message{{#plural}}s{{/plural}}</a>\
        <span class="older-rest">{{rest}} not shown yet</span></li>
        """)

    private static let template = Template("""
        <article class="conversation" id="conversation" aria-labelledby="conv-title" data-thread="{{id}}" data-version="{{version}}"{{#latest}} data-latest="{{latest}}"{{/latest}}{{#shown}} data-shown="{{shown}}"{{/shown}}>\
        <form id="conv-form" method="post" action="/actions">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="t[]" value="{{id}}">\
        <input type="hidden" name="return" value="{{here}}">\
        <input type="hidden" name="leave" value="{{leave}}">\
        <header class="conv-head"><a class="back" href="{{leave}}">{{{backIcon}}}<span>Back to the list</span></a>\
        <div class="conv-title-line"><h2 id="conv-title" tabindex="-1">{{subject}}</h2><p class="conv-meta">{{meta}}</p></div>\
        {{{actions}}}</header><ol class="messages">{{{older}}}{{{messages}}}</ol>{{{replies}}}{{{replyBar}}}</form>{{{draftForms}}}</article>
        """)

    /// The message Reply, Reply all and Forward answer: the latest one that is not a draft.
    var answerable: Email? {
        messages.last { !$0.email.isDraft && ($0.email.sendState == .none || $0.email.sendState == .sent) }?.email
    }

    /// Where the composer goes back to: this conversation.
    var here: String { mailbox.url(category: category, thread: thread.id) }

    static func composeURL(_ kind: ComposeKind, email: String, returnTo: String) -> String {
        "/compose?kind=\(kind.rawValue)&email=\(WebForm.escape(email))&return=\(WebForm.escape(returnTo))"
    }

    static let answers: [(kind: ComposeKind, label: String, icon: Icon, key: String)] = [
        (.reply, "Reply", .reply, "r"), (.replyAll, "Reply all", .replyAll, "a"), (.forward, "Forward", .forward, "f"),
    ]

    /// A link of Reply, Reply all or Forward.
    private struct Answer {
        var href: String
        var label: String
        var key: String
        var kind: String
        var icon: Markup
    }

    private func answerLinks(_ email: Email) -> [Answer] {
        Self.answers.map { Answer(href: Self.composeURL($0.kind, email: email.id, returnTo: here), label: $0.label, key: $0.key,
                                  kind: $0.kind.rawValue, icon: $0.icon.svg()) }
    }

    /// Reply, Reply all and Forward for the latest message, at the end of the conversation.
    private func replyBar() -> Markup {
        guard let email = answerable else { return .empty }
        struct Model { var answers: [Answer] }
        return Self.replyBarTemplate.render(Model(answers: answerLinks(email)))
    }

    private static let replyBarTemplate = Template("""
        <nav class="reply-bar" id="reply-bar" aria-label="Answer the latest message">\
        {{#answers}}<a class="tool" href="{{href}}" title="{{label}} ({{key}})" data-compose="{{kind}}">{{{icon}}}<span>{{label}}</span></a>{{/answers}}\
        </nav>
        """)

    /// Suggested replies to the latest message, above the reply bar.
    private func suggestedReplies() -> Markup {
        guard offersReplies, let email = answerable else { return .empty }
        // The user wrote last: nothing to answer, unless they asked.
        if case .loading = replies, me.contains(email.fromAddress.lowercased()) { return .empty }
        return ReplySuggestionsView(threadId: thread.id, emailId: email.id, state: replies, here: here).render()
    }

    /// One row of labelled icon buttons (the labels hide on a phone, the names stay): the
    /// frequent actions, the one Move menu, the summary behind a small button (it opens over
    /// the mail rather than pushing it down), and the rarer actions (mute, the category, why
    /// it is there) behind "More". The menus are `<details>`, so they open without the script,
    /// and their buttons belong to the conversation's form.
    private func actions() -> Markup {
        struct Model { var buttons: Markup; var snooze: Markup; var move: Markup; var summary: Markup?; var sparkle: Markup; var moreIcon: Markup; var mute: Markup; var watch: Markup; var followUp: Markup; var category: Markup; var unsubscribe: Markup }
        return Self.actionsTemplate.render(Model(buttons: [
            ToolButton(action: "archive", label: "Archive", icon: .archive, key: "e"), ToolButton(action: "delete", label: "Delete", icon: .trash, key: "#"),
            ToolButton(action: "unread", label: "Mark unread", icon: .unread, key: "Shift+U"),
            ToolButton(action: thread.isStarred ? "unstar" : "star", label: thread.isStarred ? "Unstar" : "Star", icon: .star, key: "s", on: thread.isStarred),
        ].map { $0.render() }.joined(), snooze: snoozeControls(), move: ToolButton.move(to: moveTargets, label: "Move conversation to"),
        summary: summary?.render(), sparkle: Icon.sparkle.svg(), moreIcon: Icon.more.svg(),
        mute: ToolButton(action: isMuted ? "unmute" : "mute", label: isMuted ? "Unmute" : "Mute", icon: .mute, on: isMuted).render(),
        watch: ToolButton(action: isWatched ? "unwatch" : "watch", label: isWatched ? "Stop notifying me first" : "Notify me about replies",
                          icon: .bell, on: isWatched).render(), followUp: followUpItems(),
        category: CategoryBar(threadId: thread.id, decision: categoryDecision).render(), unsubscribe: unsubscribeItem()))
    }

    private static let actionsTemplate = Template("""
        <div class="toolbar conv-actions" role="toolbar" aria-label="Conversation actions">{{{buttons}}}{{{snooze}}}{{{move}}}\
        {{#summary}}<details class="menu ai-menu"><summary class="tool" title="The conversation's summary, written on this device">{{{sparkle}}}<span class="tool-label">Summary</span></summary>\
        <div class="menu-panel summary-pop">{{{summary}}}</div></details>{{/summary}}\
        <details class="menu more-menu"><summary class="tool" title="More actions">{{{moreIcon}}}<span class="tool-label">More</span></summary>\
        <div class="menu-panel">{{{mute}}}{{{watch}}}{{{followUp}}}{{{unsubscribe}}}{{{category}}}</div></details></div>
        """)

    /// A participant: the name with the address beside it, or the address alone.
    private struct Person {
        var name: String?
        var address: String
        var last: Bool

        init(_ participant: Participant, last: Bool = true) {
            let name = participant.name ?? ""
            self.name = name.isEmpty || name == participant.email ? nil : name
            address = participant.email
            self.last = last
        }

        static func list(_ participants: [Participant]) -> [Person] {
            participants.enumerated().map { Person($1, last: $0 == participants.count - 1) }
        }
    }

    /// Named by `child(named:)`: some 35 look-ups for each message of a conversation.
    private struct MessageModel: TemplateModel {
        var id: String
        var unread: Bool
        var expanded: Bool
        var bucket: Int
        var initials: String
        var from: String
        var snippet: String
        var date: String
        var time: String
        var answers: [Answer]
        var hasAnswers: Bool
        var answerSender: String
        var sender: Person
        var showVIP: Bool
        var isVIP: Bool
        var fromAddress: String
        var to: [Person]
        var hasTo: Bool
        var cc: [Person]
        var hasCc: Bool
        var fullDate: String
        var why: String?
        var body: Markup
        var attachments: Markup
        var clipIcon: Markup?

        func child(named name: String) -> Any? {
            switch name {
            case "id": id
            case "unread": unread
            case "expanded": expanded
            case "bucket": bucket
            case "initials": initials
            case "from": from
            case "snippet": snippet
            case "date": date
            case "time": time
            case "answers": answers
            case "hasAnswers": hasAnswers
            case "answerSender": answerSender
            case "sender": sender
            case "showVIP": showVIP
            case "isVIP": isVIP
            case "fromAddress": fromAddress
            case "to": to
            case "hasTo": hasTo
            case "cc": cc
            case "hasCc": hasCc
            case "fullDate": fullDate
            case "why": why
            case "body": body
            case "attachments": attachments
            case "clipIcon": clipIcon
            default: nil
            }
        }
    }

    /// The messages, a long conversation's earlier read ones folded into one line ("9 earlier
    /// messages", a `<details>`, so it opens without the script) between the first and the
    /// latest: what is new is on screen, not below a column of headers (issue 29). Not once
    /// older pages were asked for (E-06): the reader is going back through them.
    private func renderedMessages() -> Markup {
        let parts = messages.map(render)
        guard messages.count <= Self.pageSize,
              let run = Self.foldedRun(messages.map { $0.expanded || $0.email.isUnsentDraft }) else { return parts.joined() }
        struct Model { var count: Int; var inner: Markup }
        let group = Self.foldTemplate.render(Model(count: run.count, inner: parts[run].joined()))
        return parts[..<run.lowerBound].joined() + group + parts[run.upperBound...].joined()
    }

    /// The messages folded into one line: from the second, the read ones before the first
    /// open one (or before the last two), when there are at least three of them.
    static func foldedRun(_ shown: [Bool]) -> Range<Int>? {
        guard shown.count >= 6 else { return nil }
        let end = shown[1..<(shown.count - 2)].firstIndex(of: true) ?? shown.count - 2
        return end - 1 >= 3 ? 1..<end : nil
    }

    private static let foldTemplate = Template("""
        <li class="msg-group"><details class="msg-fold"><summary><span class="fold-count">{{count}} earlier messages</span></summary>\
        <ol class="messages">{{{inner}}}</ol></details></li>
        """)

    private func render(_ message: Message) -> Markup {
        let email = message.email
        if email.isUnsentDraft { return draft(message) }
        let sender = email.fromName.flatMap { $0.isEmpty ? nil : $0 } ?? (email.fromAddress.isEmpty ? "Unknown sender" : email.fromAddress)
        let isMe = me.contains(email.fromAddress.lowercased())
        let answers = answerLinks(email)
        return Self.messageTemplate.render(MessageModel(
            id: email.id, unread: !email.isRead, expanded: message.expanded, bucket: StableHash.bucket(email.fromAddress.lowercased(), 8),
            initials: ThreadListView.initials(email.from), from: isMe ? "me" : sender, snippet: String((email.snippet ?? "").prefix(120)),
            date: email.dateReceived.formatted(.iso8601), time: dates.string(for: email.dateReceived),
            answers: answers, hasAnswers: !answers.isEmpty,
            answerSender: isMe ? "me" : sender, sender: Person(email.from),
            showVIP: !isMe && !email.fromAddress.isEmpty, isVIP: vips.contains(email.fromAddress.lowercased()), fromAddress: email.fromAddress,
            to: Person.list(email.toAddresses), hasTo: !email.toAddresses.isEmpty,
            cc: Person.list(email.ccAddresses), hasCc: !email.ccAddresses.isEmpty, fullDate: dates.full(email.dateSent ?? email.dateReceived),
            why: isMe ? nil : "/settings?why=\(WebForm.escape(email.id))#why", body: cryptoBadge(message) + body(message) + setupImport(message), attachments: attachments(message),
            clipIcon: listedAttachments(message).isEmpty ? nil : Icon.paperclip.svg()))
    }

    private static let messageTemplate = Template("""
        <li class="message{{#unread}} unread{{/unread}}" id="m-{{id}}"><details class="msg"{{#expanded}} open{{/expanded}}>\
        <summary><span class="avatar av{{bucket}}" aria-hidden="true">{{initials}}</span>\
        <span class="from">{{from}}</span>\
        {{#unread}}<span class="visually-hidden">, unread</span>{{/unread}}\
        <span class="msg-snippet">{{snippet}}</span>\
        {{#clipIcon}}<span class="msg-clip" title="Has attachments">{{{clipIcon}}}<span class="visually-hidden">, has attachments</span></span>{{/clipIcon}}\
        <time datetime="{{date}}">{{time}}</time></summary>\
        <div class="msg-body"><div class="msg-line">\
        <details class="msg-details"><summary>{{#hasTo}}to {{#to}}{{#name}}{{name}}{{/name}}{{^name}}{{address}}{{/name}}{{^last}}, {{/last}}{{/to}}{{/hasTo}}{{^hasTo}}Details{{/hasTo}}<span class="visually-hidden">: sender, recipients and date</span></summary>\
        <dl class="headers"><dt>From</dt><dd>{{#sender}}{{#name}}{{name}} <span class="address">&lt;{{address}}&gt;</span>{{/name}}{{^name}}{{address}}{{/name}}{{/sender}}\
        {{#showVIP}}{{#isVIP}} <span class="pill vip">VIP</span>{{/isVIP}}{{^isVIP}} <button class="link-button" name="one" value="vip:{{fromAddress}}">Mark sender VIP</button>{{/isVIP}}{{/showVIP}}\
        </dd>\
        {{#hasTo}}<dt>To</dt><dd>{{/hasTo}}{{#to}}{{#name}}{{name}} <span class="address">&lt;{{address}}&gt;</span>{{/name}}{{^name}}{{address}}{{/name}}{{^last}}, {{/last}}{{/to}}{{#hasTo}}</dd>{{/hasTo}}\
        {{#hasCc}}<dt>Cc</dt><dd>{{/hasCc}}{{#cc}}{{#name}}{{name}} <span class="address">&lt;{{address}}&gt;</span>{{/name}}{{^name}}{{address}}{{/name}}{{^last}}, {{/last}}{{/cc}}{{#hasCc}}</dd>{{/hasCc}}\
        <dt>Date</dt><dd>{{fullDate}}\
        {{#why}} <a class="link-button" href="{{why}}">Why (not) notified?</a>{{/why}}\
        </dd></dl></details>\
        {{#hasAnswers}}<nav class="msg-actions" aria-label="Answer this message from {{answerSender}}">{{/hasAnswers}}\
        {{#answers}}<a class="link-button" href="{{href}}" data-compose-message="{{kind}}">{{label}}</a>{{/answers}}\
        {{#hasAnswers}}</nav>{{/hasAnswers}}</div>\
        {{{body}}}{{{attachments}}}</div>\
        </details></li>
        """)

    // MARK: OpenPGP (issue 32)

    /// The message's OpenPGP state in words above its text: a quiet line when it is fine
    /// ("Encrypted · Signed by Alice <alice@example.org>"), an alert when it is not (a signature
    /// that does not match, a message that could not be decrypted).
    private func cryptoBadge(_ message: Message) -> Markup {
        guard let crypto = message.crypto else { return .empty }
        struct Model { var words: String; var warning: Bool }
        return Self.cryptoTemplate.render(Model(words: crypto.summary, warning: crypto.isWarning))
    }

    private static let cryptoTemplate = Template("""
        {{#warning}}<div class="notice error crypto-state" role="alert"><p>{{words}}</p></div>{{/warning}}\
        {{^warning}}<p class="crypto-state"><span class="pill crypto">{{words}}</span></p>{{/warning}}
        """)

    /// A received Autocrypt Setup Message: the setup code's field and "Import this key", which
    /// belong to a form of their own outside the conversation's actions (`setupForms`), so Enter
    /// in the field imports, and the script leaves them alone.
    private func setupImport(_ message: Message) -> Markup {
        guard let setup = message.setupMessage else { return .empty }
        struct Model { var id: String; var begin: String? }
        return Self.setupImportTemplate.render(Model(id: message.email.id, begin: setup.passphraseBegin))
    }

    private static let setupImportTemplate = Template("""
        <section class="setup-import" aria-labelledby="su-{{id}}"><h3 id="su-{{id}}">Autocrypt Setup Message</h3>\
        <p>One of your mail apps sent this account its encryption key. Import it to read and send encrypted mail here with the same key; \
        the key VaultMail made for this account stays, so older mail still opens.</p>\
        <label for="sc-{{id}}">Setup code{{#begin}} (it begins with {{begin}}){{/begin}}</label> \
        <input id="sc-{{id}}" class="setup-code-input" name="setupCode" form="import-setup-{{id}}" autocomplete="off" spellcheck="false" \
        inputmode="numeric" aria-describedby="sch-{{id}}"> <button class="primary" form="import-setup-{{id}}">Import this key</button>\
        <p class="hint-text" id="sch-{{id}}">The 36 digits the other app showed when it made this message; dashes and spaces are fine.</p>\
        </section>
        """)

    /// The form each received setup message's "Import this key" posts.
    private func setupForms() -> Markup {
        struct Model { var id: String; var csrf: String; var here: String }
        return messages.filter { $0.setupMessage != nil }
            .map { Self.setupFormTemplate.render(Model(id: $0.email.id, csrf: csrf, here: here)) }.joined()
    }

    private static let setupFormTemplate = Template("""
        <form id="import-setup-{{id}}" method="post" action="/openpgp/import-setup" hidden>\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="email" value="{{id}}">\
        <input type="hidden" name="return" value="{{here}}"></form>
        """)

    // MARK: Drafts (issue 29)

    /// " · 1 draft" after the message count (drafts are not among the messages).
    private var draftNote: String {
        let drafts = messages.filter { $0.email.isUnsentDraft }.count
        return drafts == 0 ? "" : " · \(drafts) draft\(drafts == 1 ? "" : "s")"
    }

    /// A draft: a card of its own, labelled "Draft", with its recipients, its text, Edit
    /// (the composer, in place with the script) and Discard — never shown like a sent message.
    private func draft(_ message: Message) -> Markup {
        let email = message.email
        struct Model {
            var id: String
            var to: String
            var date: String
            var time: String
            var text: String
            var editURL: String
            var editIcon: Markup
            var trashIcon: Markup
        }
        let to = (email.toAddresses + email.ccAddresses).map { $0.name.flatMap { $0.isEmpty ? nil : $0 } ?? $0.email }
        let text = (email.bodyPlain ?? email.snippet ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return Self.draftTemplate.render(Model(
            id: email.id, to: to.isEmpty ? "no recipient yet" : to.joined(separator: ", "),
            date: email.dateReceived.formatted(.iso8601), time: dates.string(for: email.dateReceived),
            text: String(Self.ownText(text).prefix(600)),
            editURL: "/compose?kind=draft&draft=\(WebForm.escape(email.id))&return=\(WebForm.escape(here))",
            editIcon: Icon.compose.svg(), trashIcon: Icon.trash.svg()))
    }

    /// Each draft's Discard posts a form of its own, outside the conversation's actions.
    private func draftForms() -> Markup {
        struct Model { var id: String; var csrf: String; var here: String }
        return messages.filter { $0.email.isUnsentDraft }
            .map { Self.draftFormTemplate.render(Model(id: $0.email.id, csrf: csrf, here: here)) }.joined()
    }

    private static let draftFormTemplate = Template("""
        <form id="discard-{{id}}" method="post" action="/compose/discard" hidden>\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="draft" value="{{id}}">\
        <input type="hidden" name="return" value="{{here}}"></form>
        """)

    /// What the user wrote of a draft: its text above the quoted original or forwarded message.
    static func ownText(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(">") || line.hasPrefix("---------- Forwarded message") || line == "-- " { break }
            if line.hasPrefix("On "), line.hasSuffix("wrote:") { break }
            lines.append(line)
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let draftTemplate = Template("""
        <li class="message draft-card" id="m-{{id}}" aria-labelledby="draft-{{id}}-label">\
        <div class="draft-head"><span class="pill draft-pill" id="draft-{{id}}-label">Draft</span>\
        <span class="draft-to">To {{to}}</span><span class="visually-hidden">, not sent</span>\
        <time datetime="{{date}}">{{time}}</time></div>\
        <p class="draft-text">{{text}}</p>\
        <p class="draft-bar"><a class="tool" href="{{editURL}}" data-edit-draft="{{id}}">{{{editIcon}}}<span>Edit</span></a>\
        <button class="tool danger" type="submit" form="discard-{{id}}" data-discard-draft="{{id}}">{{{trashIcon}}}<span>Discard</span></button></p>\
        </li>
        """)

    private func body(_ message: Message) -> Markup {
        let email = message.email
        if let html = message.html {
            struct Model {
                var never: Bool
                var hidden: Bool
                var icon: Markup
                var showURL: String
                var id: String
                var fromAddress: String?
                var height: Int
                var src: String
                var sender: String
                var sandbox = SecurityHeaders.frameSandbox
                var shield: ShieldNote?
            }
            return Self.frameTemplate.render(Model(
                never: html.blockedRemoteContent > 0 && imagesNever,
                hidden: html.blockedRemoteContent > 0 && !imagesNever && !message.imagesAllowed, icon: Icon.offline.svg(),
                showURL: mailbox.url(category: category, thread: thread.id) + "&images=\(email.id)#m-\(email.id)", id: email.id,
                fromAddress: email.fromAddress.isEmpty ? nil : email.fromAddress, height: Self.heightClass(html.html),
                src: "/message/\(email.id)/body" + (message.imagesAllowed ? "?images=1" : ""), sender: email.fromName ?? email.fromAddress,
                shield: ShieldNote(html.trackers, id: email.id)))
        }
        if let plain = email.bodyPlain, !plain.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return PlainTextRenderer.render(plain)
        }
        return Self.noTextTemplate.render()
    }

    private static let frameTemplate = Template("""
        {{#never}}<div class="images-bar" role="note">{{{icon}}}<span>Remote images are never loaded (<a href="/settings#general">Settings</a>).</span></div>{{/never}}\
        {{#hidden}}<div class="images-bar" role="note">{{{icon}}}<span>Remote images are hidden to keep senders from tracking you.</span>\
        <a href="{{showURL}}" data-images="{{id}}">Show images</a>\
        {{#fromAddress}}<button class="link-button" name="one" value="images:{{fromAddress}}">Always show from {{fromAddress}}</button>{{/fromAddress}}\
        </div>{{/hidden}}\
        {{#shield}}<details class="shield-note" id="shield-{{id}}"><summary>{{{shieldIcon}}}<span>{{words}}</span></summary>\
        <p>Removed before anything was fetched, so the sender cannot tell you opened this message or which link you followed:</p>\
        <ul>{{#rows}}<li><span class="shield-host">{{host}}</span> · {{kind}}{{#times}} ×{{times}}{{/times}}</li>{{/rows}}</ul></details>{{/shield}}\
        <iframe class="mail-frame h{{height}}" src="{{src}}" sandbox="{{sandbox}}" referrerpolicy="no-referrer" title="Message from {{sender}}"></iframe>
        """)

    /// "3 trackers removed" over a message's frame, with the list of what they were (issue 30);
    /// nil when the shield removed nothing.
    struct ShieldNote {
        struct Row {
            var host: String
            var kind: String
            var times: Int?
        }
        var id: String
        var words: String
        var rows: [Row]
        var shieldIcon = Icon.shield.svg()

        init?(_ trackers: [TrackerFinding], id: String) {
            guard !trackers.isEmpty else { return nil }
            self.id = id
            words = "\(trackers.count) tracker\(trackers.count == 1 ? "" : "s") removed"
            rows = Privacy.grouped(trackers).map { group in
                Row(host: group.finding.host.isEmpty ? "(no host)" : group.finding.host, kind: group.finding.kind.words,
                    times: group.count > 1 ? group.count : nil)
            }
        }
    }

    private static let noTextTemplate = Template("""
        <p class="hint">This message has no text.</p>
        """)

    /// The attachments the message lists (not the images its HTML shows inline).
    private func listedAttachments(_ message: Message) -> [Attachment] {
        AttachmentsView.listed(message.attachments, referenced: message.html?.contentIds ?? [])
    }

    private func attachments(_ message: Message) -> Markup {
        AttachmentsView(emailId: message.email.id, attachments: listedAttachments(message), events: message.events).render()
    }

    /// What the reading pane shows for a conversation that cannot be shown.
    static func missing(_ message: String) -> Markup {
        struct Model { var message: String }
        return missingTemplate.render(Model(message: message))
    }

    private static let missingTemplate = Template("""
        <div class="empty" role="alert"><p class="empty-title">{{message}}</p></div>
        """)

    /// A height class for the message frame until its script reports the real height (and when
    /// the page runs no script): an estimate from the amount of text and images, in steps of
    /// 160 px (h1 … h12).
    static func heightClass(_ html: String) -> Int {
        var text = 0, images = 0, blocks = 0
        var inTag = false
        var tag = ""
        for scalar in html.unicodeScalars {
            if inTag {
                if scalar == ">" {
                    inTag = false
                    if tag.hasPrefix("img") { images += 1 } else if tag.hasPrefix("p") || tag.hasPrefix("br") || tag.hasPrefix("tr") || tag.hasPrefix("div") || tag.hasPrefix("li") { blocks += 1 }
                } else if tag.count < 4 {
                    tag.unicodeScalars.append(scalar)
                }
            } else if scalar == "<" {
                inTag = true
                tag = ""
            } else {
                text += 1
            }
        }
        let estimate = 60 + text / 70 * 22 + blocks * 10 + images * 110
        return min(12, max(1, (estimate + 159) / 160))
    }
}
