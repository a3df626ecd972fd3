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
    var csrf: String
    var display = Pages.Display()

    func render() -> String {
        let open = conversation != nil || conversationProblem != nil
        let pageTitle = (unread > 0 ? "\(title) (\(unread))" : title) + " — VaultMail"
        var body = "<a class=\"skip\" href=\"#list-pane\">Skip to the conversations</a>"
        body += "<header class=\"topbar\"><a class=\"brand\" href=\"/mail\">VaultMail</a><a class=\"mailboxes-link\" href=\"#sidebar\">Mailboxes</a>"
        body += "<form class=\"search\" role=\"search\" action=\"/mail/search\" method=\"get\"><label class=\"visually-hidden\" for=\"q\">Search mail</label><input id=\"q\" name=\"q\" type=\"search\" placeholder=\"Search mail\" autocomplete=\"off\"><kbd class=\"hint-key\" aria-hidden=\"true\">/</kbd></form>"
        body += Self.connection(connectionProblem)
        body += "<a class=\"icon-button\" href=\"/settings\" title=\"Settings\">\(Icon.settings.svg())<span class=\"visually-hidden\">Settings</span></a>"
        body += "<button type=\"button\" class=\"icon-button\" id=\"shortcuts-button\" aria-haspopup=\"dialog\" aria-controls=\"shortcuts\" title=\"Keyboard shortcuts (?)\">\(Icon.keyboard.svg())<span class=\"visually-hidden\">Keyboard shortcuts</span></button>"
        body += "</header>"
        body += "<main class=\"panes\(open ? " thread-open" : "")\" id=\"main\">"
        body += sidebar.render()
        body += list.render()
        body += "<section class=\"reading-pane\" id=\"reading-pane\" aria-label=\"Conversation\">"
        if let conversation {
            body += conversation.render()
        } else if let conversationProblem {
            body += "<div class=\"empty\" role=\"alert\"><p class=\"empty-title\">\(HTML.escape(conversationProblem))</p><p><a href=\"\(HTML.escape(list.mailbox.url(category: list.category)))\">Back to the list</a></p></div>"
        } else {
            body += "<div class=\"empty reading-empty\"><p class=\"empty-title\">No conversation selected</p><p>Pick one from the list, or press <kbd>j</kbd> and <kbd>Enter</kbd>.</p></div>"
        }
        body += "</section></main>"
        body += "<div class=\"toasts\" id=\"toasts\" role=\"status\" aria-live=\"polite\"></div>"
        body += "<div class=\"banners\" id=\"banners\" aria-live=\"polite\"></div>"
        body += Self.shortcutsDialog
        return Pages.document(title: pageTitle, bodyClass: "app", csrf: csrf, body: body, display: display)
    }

    static func connection(_ problem: String?) -> String {
        let hidden = problem == nil ? " hidden" : ""
        return "<p class=\"connection\" id=\"connection\" role=\"status\"\(hidden)>\(Icon.offline.svg())<span>Offline — showing the mail on this computer.</span><span class=\"connection-detail\">\(HTML.escape(problem ?? ""))</span></p>"
    }

    static let shortcuts: [(String, String)] = [
        ("j / k", "Next / previous conversation"), ("Enter or o", "Open the conversation"), ("u", "Back to the list"),
        ("e", "Archive"), ("#", "Delete"), ("s", "Star or unstar"), ("Shift+I", "Mark read"), ("Shift+U", "Mark unread"),
        ("x", "Select the conversation"), ("c", "New message"), ("r / a / f", "Reply / Reply all / Forward"),
        ("Ctrl+Enter", "Send (in the composer)"), ("z", "Undo"), ("/", "Search"), ("?", "Show these shortcuts"),
    ]

    static let shortcutsDialog: String = {
        var out = "<dialog id=\"shortcuts\" aria-labelledby=\"shortcuts-title\"><h2 id=\"shortcuts-title\">Keyboard shortcuts</h2><table><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Does</th></tr></thead><tbody>"
        for (key, does) in shortcuts { out += "<tr><td><kbd>\(HTML.escape(key))</kbd></td><td>\(does)</td></tr>" }
        return out + "</tbody></table><form method=\"dialog\"><button class=\"primary\">Close</button></form></dialog>"
    }()
}
