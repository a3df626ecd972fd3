/// The whole page: top bar (search, connection state, shortcuts), the three panes, and the
/// live regions for toasts and new-mail banners. Below 700 px one pane shows at a time.
struct MailPage {
    var title: String
    var unread: Int
    var sidebar: SidebarView
    var list: ThreadListView
    var conversation: ConversationView?
    /// Why the conversation could not be shown (a thread that no longer exists).
    var conversationProblem: String?
    var connectionProblem: String?
    /// The technical detail behind `connectionProblem`, shown on demand.
    var connectionDetail: String?
    var csrf: String
    var display = Pages.Display()
    /// The list's share of the width beside the sidebar, in percent, as the user dragged the
    /// splitter (the `vaultmail_split` cookie); nil for the default.
    var split: Int?

    /// The splitter's range, in percent of the width beside the sidebar.
    static let splitRange = 25...75
    /// The cookie the splitter's position is kept in (read by the server, so the page is drawn
    /// that way before any script runs).
    static let splitCookie = "vaultmail_split"

    /// The share a cookie's value asks for, when it is a whole number in range.
    static func split(cookie: String?) -> Int? {
        cookie.flatMap { Int($0) }.flatMap { splitRange.contains($0) ? $0 : nil }
    }

    func render() -> Markup {
        struct Model {
            var settingsIcon: Markup
            var keyboardIcon: Markup
            var menuIcon: Markup
            var composeIcon: Markup
            var composeURL: String
            var split: Int?
            var connection: Markup
            var open: Bool
            var sidebar: Markup
            var list: Markup
            var conversation: Markup
            var problem: String?
            var backURL: String
            var shortcuts: [Shortcut]
        }
        let open = conversation != nil || conversationProblem != nil
        let pageTitle = Self.documentTitle(title, unread: unread)
        let body = Self.template.render(Model(
            settingsIcon: Icon.settings.svg(), keyboardIcon: Icon.keyboard.svg(), menuIcon: Icon.menu.svg(), composeIcon: Icon.compose.svg(),
            composeURL: "/compose?return=\(WebForm.escape(list.mailbox.url(category: list.category)))", split: split, connection: Self.connection(connectionProblem, detail: connectionDetail), open: open,
            sidebar: sidebar.render(), list: list.render(), conversation: conversation?.render() ?? .empty,
            problem: conversation == nil ? conversationProblem : nil, backURL: list.mailbox.url(category: list.category),
            shortcuts: Self.shortcuts))
        return Pages.document(title: pageTitle, bodyClass: "app", csrf: csrf, body: body, display: display)
    }

    private static let template = Template("""
        <a class="skip" href="#list-pane">Skip to the conversations</a>\
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a><a class="mailboxes-link icon-button" href="#sidebar" title="Mailboxes">{{{menuIcon}}}<span class="visually-hidden">Mailboxes</span></a>\
        <form class="search" role="search" action="/mail/search" method="get"><label class="visually-hidden" for="q">Search mail</label><input id="q" name="q" type="search" placeholder="Search mail" autocomplete="off"><kbd class="hint-key" aria-hidden="true">/</kbd></form>\
        {{{connection}}}\
        <a class="icon-button" href="/settings" title="Settings">{{{settingsIcon}}}<span class="visually-hidden">Settings</span></a>\
        <button type="button" class="icon-button" id="shortcuts-button" aria-haspopup="dialog" aria-controls="shortcuts" title="Keyboard shortcuts (?)">{{{keyboardIcon}}}<span class="visually-hidden">Keyboard shortcuts</span></button>\
        </header>\
        <main class="panes{{#open}} thread-open{{/open}}" id="main"{{#split}} data-split="{{split}}"{{/split}}>{{{sidebar}}}{{{list}}}\
        <div class="splitter" id="list-splitter" role="separator" tabindex="0" aria-orientation="vertical" aria-controls="list-pane" aria-label="Width of the list" aria-valuemin="25" aria-valuemax="75" aria-valuenow="{{#split}}{{split}}{{/split}}{{^split}}50{{/split}}" title="Drag, or use the arrow keys, to widen or narrow the list"></div>\
        <section class="reading-pane" id="reading-pane" aria-label="Conversation">\
        {{{conversation}}}\
        {{#problem}}<div class="empty" role="alert"><p class="empty-title">{{problem}}</p><p><a href="{{backURL}}">Back to the list</a></p></div>{{/problem}}\
        {{^open}}<div class="empty reading-empty"><p class="empty-title">No conversation selected</p><p>Pick one from the list, or press <kbd>j</kbd> and <kbd>Enter</kbd>.</p></div>{{/open}}\
        </section></main>\
        <a class="compose-fab" href="{{composeURL}}" title="New message (c)">{{{composeIcon}}}<span>Compose</span></a>\
        <div class="toasts" id="toasts" role="status" aria-live="polite"></div>\
        <div class="banners" id="banners" aria-live="polite"></div>\
        <dialog id="shortcuts" aria-labelledby="shortcuts-title"><h2 id="shortcuts-title">Keyboard shortcuts</h2><table><thead><tr><th scope="col">Key</th><th scope="col">Does</th></tr></thead><tbody>\
        {{#shortcuts}}<tr><td><kbd>{{key}}</kbd></td><td>{{does}}</td></tr>{{/shortcuts}}\
        </tbody></table><form method="dialog"><button class="primary">Close</button></form></dialog>
        """)

    /// The window title: the list's name, its unread conversations (the folder or box shown,
    /// all its categories: the number beside it in the sidebar where the sidebar shows one),
    /// the app ("Inbox (31) — VaultMail", "Archive (2) — VaultMail"); the page's and the live
    /// one's (`/mail/counts`).
    static func documentTitle(_ title: String, unread: Int) -> String {
        (unread > 0 ? "\(title) (\(unread))" : title) + " — VaultMail"
    }

    /// The offline notice in the top bar, hidden while the servers answer: what is wrong in a
    /// person's words on demand, the technical detail behind a second disclosure (issue 29).
    static func connection(_ problem: String?, detail: String? = nil) -> Markup {
        struct Model { var hidden: Bool; var icon: Markup; var problem: String; var detail: String; var noDetail: Bool }
        return connectionTemplate.render(Model(hidden: problem == nil, icon: Icon.offline.svg(), problem: problem ?? "",
                                               detail: detail ?? "", noDetail: detail == nil))
    }

    private static let connectionTemplate = Template("""
        <div class="connection" id="connection" role="status"{{#hidden}} hidden{{/hidden}}><details class="connection-more"><summary>{{{icon}}}<span class="connection-short" aria-hidden="true">Offline</span><span class="connection-long">Offline — showing the mail on this computer.</span></summary>\
        <div class="connection-panel"><p class="connection-detail">{{problem}}</p>\
        <details class="connection-tech"{{#noDetail}} hidden{{/noDetail}}><summary>Technical details</summary><pre>{{detail}}</pre></details></div></details></div>
        """)

    struct Shortcut { var key: String; var does: String }

    static let shortcuts: [Shortcut] = [
        .init(key: "j / k", does: "Next / previous conversation (while reading, it opens)"), .init(key: "Enter or o", does: "Open the conversation"),
        .init(key: "u", does: "Back to the list"), .init(key: "e", does: "Archive"), .init(key: "#", does: "Delete"),
        .init(key: "s", does: "Star or unstar"), .init(key: "b", does: "Snooze (a menu of times and a picker)"), .init(key: "Shift+I", does: "Mark read"), .init(key: "Shift+U", does: "Mark unread"),
        .init(key: "Shift+C", does: "Mark all as read (the list shown)"),
        .init(key: "x", does: "Select the conversation"), .init(key: "c", does: "New message"),
        .init(key: "r / a / f", does: "Reply / Reply all / Forward, under the conversation"), .init(key: "Ctrl+Enter", does: "Send (in the composer)"),
        .init(key: "Escape", does: "Close the reply; the draft is kept"),
        .init(key: "z", does: "Undo"), .init(key: "/", does: "Search"), .init(key: "?", does: "Show these shortcuts"),
    ]
}
