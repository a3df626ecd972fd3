import Foundation
import VaultMailCore

/// The middle pane (AC-U-02/03): the list's title, category tabs, the action bar for selected
/// conversations, and the rows, 25 at a time with a link to the next page (endless scrolling
/// with JavaScript). It is one form, so every action works without JavaScript.
struct ThreadListView {
    var mailbox: Mailbox
    var title: String
    var category: AICategory?
    /// Unread per category; tabs are shown only when some mail is categorized (E-02).
    var categoryCounts: [AICategory?: Int]
    var page: ThreadPage
    /// The thread open beside the list, marked in it.
    var openThread: String?
    var dates: RelativeDate
    /// The user's own addresses, shown as "me".
    var me: Set<String>
    /// Account id → name, when several accounts share the list (a dot says whose).
    var accountNames: [String: String]
    var csrf: String
    /// Folders the selection can be moved to (one account's), empty in unified lists.
    var moveTargets: [Folder]
    var notice: String?
    /// The technical detail behind a failed notice, shown on demand (issue 29).
    var noticeDetail: String?
    /// The list could not be read: the notice offers to try again.
    var failed = false
    /// The Outbox's messages (queued, sending, failed), when the Outbox is shown.
    var outbox: [OutboxEntry] = []
    /// Search results (issue 14): the query, the matching text per thread, a query that could
    /// not be read. Rows and pages then link to `/mail/search`.
    var search: SearchListState?
    /// Rows grouped under date headings (`Preferences.dateHeadings`, issue 29); never in
    /// search results (sorted by relevance, or a selection across time).
    var dateHeadings = false
    /// The date of the row just above this page (a later page's cursor): its group's heading
    /// is not repeated.
    var headingsAfter: Date?
    /// The Snooze menu of the toolbar (issue 33); nil where snoozing is not offered.
    var snoozeMenu: SnoozeMenu?
    /// When each snoozed conversation of the page comes back (the Snoozed box's rows show it).
    var wakeTimes: [String: SnoozeTime] = [:]
    /// The list is a Snoozed folder: its toolbar offers Unsnooze.
    var snoozedBox = false
    /// The conversations muted for notifications (NOTIF-11): their rows carry the mark.
    var muted: Set<String> = []
    /// Conversations of list mail that can be unsubscribed from, with the email that says how
    /// (issue 33): their rows offer Unsubscribe.
    var unsubscribable: [String: String] = [:]

    func render() -> Markup {
        struct Model {
            var box: String
            var category: String?
            var title: String
            var head: Markup
            var notice: String?
            var noticeDetail: Markup
            var failed: Bool
            var retryURL: String
            var csrf: String
            var returnTo: String
            var toolbar: Markup
            var outbox: Bool
            var rows: Markup
            var empty: Markup
        }
        let head = search.map { $0.modeSwitch() + $0.problemNotice() } ?? tabs()
        var rows = Markup.empty, empty = Markup.empty
        if mailbox == .outbox {
            if outbox.isEmpty { empty = emptyState() } else { rows = outboxRows() }
        } else if page.threads.isEmpty {
            empty = search?.emptyState() ?? emptyState()
        } else {
            rows = self.rows(page)
        }
        return Self.template.render(Model(
            box: mailbox.parameter, category: category?.rawValue, title: title, head: head, notice: notice,
            noticeDetail: ProblemView.details(noticeDetail), failed: failed,
            retryURL: mailbox.url(category: category), csrf: csrf, returnTo: search?.url() ?? mailbox.url(category: category),
            toolbar: mailbox == .outbox ? .empty : toolbar(), outbox: mailbox == .outbox, rows: rows, empty: empty))
    }

    private static let template = Template("""
        <section class="list-pane" id="list-pane" aria-labelledby="list-title" data-box="{{box}}"{{#category}} data-cat="{{category}}"{{/category}}>\
        <div class="list-head"><h1 id="list-title">{{title}}</h1></div>{{{head}}}\
        {{#notice}}<p class="notice{{#failed}} error{{/failed}}" role="{{#failed}}alert{{/failed}}{{^failed}}status{{/failed}}">{{notice}}{{#failed}} <a href="{{retryURL}}">Try again</a>{{/failed}}</p>{{{noticeDetail}}}{{/notice}}\
        <form id="list-form" method="post" action="/actions">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="return" value="{{returnTo}}">{{{toolbar}}}\
        {{#rows}}{{#outbox}}<ul class="threads outbox" id="threads" aria-label="Messages waiting to be sent">{{/outbox}}{{^outbox}}<ul class="threads" id="threads" aria-label="Conversations">{{/outbox}}{{{rows}}}</ul>{{/rows}}\
        {{{empty}}}\
        </form></section>
        """)

    /// The rows of a page and, when there is more, the link to the next page.
    func rows(_ page: ThreadPage) -> Markup {
        struct More { var fullPage: String; var url: String }
        struct Model { var rows: [Row]; var more: More? }
        var more: More?
        if let next = search.map({ $0.nextCursor?.encoded }) ?? page.nextCursor?.encoded {
            var url = "/mail/list?box=\(WebForm.escape(mailbox.parameter))\(category.map { "&cat=\($0.rawValue)" } ?? "")&cursor=\(WebForm.escape(next))"
            var fullPage = mailbox.url(category: category) + "&cursor=\(WebForm.escape(next))"
            if let search {
                url = "/mail/list?q=\(WebForm.escape(search.query))\(search.byMeaning ? "&meaning=1" : "")&cursor=\(WebForm.escape(next))"
                fullPage = search.url() + "&cursor=\(WebForm.escape(next))"
            }
            more = More(fullPage: fullPage, url: url)
        }
        var rows = page.threads.map(row)
        if dateHeadings, search == nil {
            var previous = headingsAfter.map(dates.heading(for:))
            for (index, thread) in page.threads.enumerated() {
                let heading = dates.heading(for: thread.latestDate)
                if heading != previous { rows[index].heading = heading }
                previous = heading
            }
        }
        return Self.rowsTemplate.render(Model(rows: rows, more: more))
    }

    /// What one row of the list shows. Its values are named for the template by `child(named:)`
    /// rather than found by reflection: a page has 25 rows of some 35 look-ups each.
    private struct Row: TemplateModel {
        var id: String
        var unread: Bool
        var open: Bool
        var version: String
        var sender: String
        var subject: String
        var href: String
        var label: String
        var avatars: Markup
        var account: String?
        var accountColour: String
        var date: String
        var time: String
        var highlight: Markup
        var snippet: String?
        var category: String?
        var categoryTitle: String
        var attachments: Bool
        var clipIcon: Markup
        var rowActions: RowActions
        var starred: Bool
        var starLabel: String
        var starIcon: Markup
        /// The latest message's time in milliseconds: the newest row's bounds "Mark all as read".
        var at: String
        /// The date heading above this row, when it starts a group.
        var heading: String?
        /// "Until Tue 8:00 AM" in the Snoozed box.
        var wake: String?
        /// Muted for notifications (NOTIF-11): the bell struck through.
        var muted = false
        /// The email whose list headers say how to unsubscribe, and the confirmation's address (issue 33).
        var unsubscribe: String?
        var unsubscribeURL = ""

        func child(named name: String) -> Any? {
            switch name {
            case "wake": wake
            case "muted": muted
            case "unsubscribe": unsubscribe
            case "unsubscribeURL": unsubscribeURL
            case "muteIcon": muted ? Icon.mute.svg() : nil
            case "id": id
            case "at": at
            case "heading": heading
            case "unread": unread
            case "open": open
            case "version": version
            case "sender": sender
            case "subject": subject
            case "href": href
            case "label": label
            case "avatars": avatars
            case "account": account
            case "accountColour": accountColour
            case "date": date
            case "time": time
            case "highlight": highlight
            case "snippet": snippet
            case "category": category
            case "categoryTitle": categoryTitle
            case "attachments": attachments
            case "clipIcon": clipIcon
            case "rowActions": rowActions
            case "starred": starred
            case "starLabel": starLabel
            case "starIcon": starIcon
            default: nil
            }
        }
    }

    /// A row: who, the subject and its preview, the attachment and the date, on two lines, or
    /// on one when the list is wide (the stylesheet's container query). Unread is bold with one
    /// mark; the account, when several share the list, is a coloured bar down the row's edge.
    /// A date heading, when the list has them, is an item of its own before the first row of
    /// its group: a heading (reached with a screen reader's heading keys), never a row, so `j`/`k`,
    /// selection and ranges pass over it.
    private static let rowsTemplate = Template("""
        {{#rows}}{{#heading}}<li class="date-heading"><h2>{{heading}}</h2></li>{{/heading}}\
        <li class="row{{#unread}} unread{{/unread}}{{#open}} open{{/open}}" data-id="{{id}}" data-version="{{version}}" data-at="{{at}}">\
        <input type="checkbox" class="select" name="t[]" value="{{id}}" aria-label="Select: {{sender}}, {{subject}}">\
        <a class="row-link" href="{{href}}" aria-label="{{label}}">\
        {{#account}}<span class="acct-mark {{accountColour}}" title="{{account}}" aria-hidden="true"></span>{{/account}}{{{avatars}}}\
        <span class="row-top">{{#unread}}<span class="unread-mark" aria-hidden="true"></span>{{/unread}}<span class="sender">{{sender}}</span></span>\
        <span class="row-bottom"><span class="subject">{{subject}}</span>\
        {{#highlight}}<span class="snippet"> — {{{highlight}}}</span>{{/highlight}}\
        {{#snippet}}<span class="snippet"> — {{snippet}}</span>{{/snippet}}\
        </span><span class="marks" aria-hidden="true">{{#wake}}<span class="wake">{{wake}}</span>{{/wake}}\
        {{#category}}<span class="pill cat-{{category}}">{{categoryTitle}}</span>{{/category}}\
        {{#muted}}<span class="muted-mark" title="Muted: never notifies">{{{muteIcon}}}</span>{{/muted}}\
        {{#attachments}}<span class="clip" title="Has attachments">{{{clipIcon}}}</span>{{/attachments}}\
        </span><time datetime="{{date}}">{{time}}</time></a>\
        {{#rowActions}}<span class="row-actions">\
        <button class="row-action" name="one" value="archive:{{id}}" aria-label="Archive: {{subject}}" title="Archive (e)">{{{archive}}}</button>\
        <button class="row-action" name="one" value="delete:{{id}}" aria-label="Delete: {{subject}}" title="Delete (#)">{{{delete}}}</button>\
        {{#unread}}<button class="row-action" name="one" value="read:{{id}}" aria-label="Mark read: {{subject}}" title="Mark read (Shift+I)">{{{read}}}</button>{{/unread}}\
        {{^unread}}<button class="row-action" name="one" value="unread:{{id}}" aria-label="Mark unread: {{subject}}" title="Mark unread (Shift+U)">{{{unreadIcon}}}</button>{{/unread}}\
        {{#unsubscribe}}<a class="row-action unsubscribe-row" href="{{unsubscribeURL}}" aria-label="Unsubscribe from {{sender}}" title="Unsubscribe">{{{unsubscribeIcon}}}</a>{{/unsubscribe}}\
        </span>{{/rowActions}}\
        <button class="star{{#starred}} on{{/starred}}" name="one" value="{{#starred}}unstar{{/starred}}{{^starred}}star{{/starred}}:{{id}}" aria-label="{{starLabel}}: {{subject}}" aria-pressed="{{starred}}" title="{{starLabel}} (s)">{{{starIcon}}}</button>\
        </li>{{/rows}}\
        {{#more}}<li class="more"><a href="{{fullPage}}" data-next="{{url}}">Older conversations</a></li>{{/more}}
        """)

    /// The buttons a row shows while pointed at or focused (archive, delete, read or unread;
    /// the star is always there): buttons of the list's form, `one=VERB:THREAD-ID`.
    private struct RowActions: TemplateModel {
        static let shared = RowActions()
        let archive = Icon.archive.svg(), delete = Icon.trash.svg(), read = Icon.read.svg(), unreadIcon = Icon.unread.svg()
        let unsubscribeIcon = Icon.unsubscribe.svg()

        func child(named name: String) -> Any? {
            switch name {
            case "archive": archive
            case "delete": delete
            case "read": read
            case "unreadIcon": unreadIcon
            case "unsubscribeIcon": unsubscribeIcon
            default: nil
            }
        }
    }

    private func row(_ thread: EmailThread) -> Row {
        let sender = thread.senderSummary(me: me)
        let time = dates.string(for: thread.latestDate)
        let highlight = search?.highlights[thread.id]
        let snippet = (highlight?.text ?? thread.snippet ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let subject = thread.subject.isEmpty ? "(no subject)" : thread.subject
        let category = thread.category.flatMap { $0 == .uncategorized ? nil : $0 }
        // In a category's tab every row is of that category: no pill says so again. Primary is
        // where mail is unless sorted out of it: only the others are marked.
        let pill = self.category == nil && category != .primary ? category : nil
        let account = accountNames.count > 1 ? accountNames[thread.accountId] : nil
        var label = "From \(sender), \(subject)"
        if !snippet.isEmpty { label += ", \(snippet.prefix(100))" }
        label += ", \(time), \(thread.isUnread ? "unread" : "read"), \(thread.isStarred ? "starred" : "not starred")"
        if thread.hasAttachments { label += ", has attachments" }
        if let category { label += ", \(category.title)" }
        if let account { label += ", account \(account)" }
        let wake = wakeTimes[thread.id].map { time in time.date.map { "Until \(dates.wakeTime($0))" } ?? "Someday" }
        if let wake { label += ", snoozed: \(wake.lowercased())" }
        let muted = self.muted.contains(thread.id)
        if muted { label += ", muted" }
        let marked = highlight.flatMap { $0.hasMatch ? SearchListState.marked($0, limit: 140) : nil }
        var row = Row(
            id: thread.id, unread: thread.isUnread, open: thread.id == openThread,
            version: "\(thread.messageCount).\(Int(thread.latestDate.timeIntervalSince1970))", sender: sender, subject: subject,
            href: search?.url(thread: thread.id) ?? mailbox.url(category: self.category, thread: thread.id), label: label,
            avatars: avatar(thread), account: account, accountColour: SidebarView.accountColour(thread.accountId, among: accountNames.keys),
            date: thread.latestDate.formatted(.iso8601), time: time, highlight: marked ?? .empty,
            snippet: marked == nil && !snippet.isEmpty ? String(snippet.prefix(140)) : nil,
            category: pill?.rawValue, categoryTitle: pill?.title ?? "", attachments: thread.hasAttachments,
            clipIcon: Icon.paperclip.svg(), rowActions: .shared, starred: thread.isStarred, starLabel: thread.isStarred ? "Unstar" : "Star",
            starIcon: Icon.star.svg(filled: thread.isStarred), at: Self.millis(thread.latestDate))
        row.wake = wake
        row.muted = muted
        if let emailId = unsubscribable[thread.id] {
            row.unsubscribe = emailId
            row.unsubscribeURL = "/unsubscribe?id=\(WebForm.escape(emailId))&return=\(WebForm.escape(mailbox.url(category: self.category)))"
        }
        return row
    }

    /// A date as the list's `data-at` and the form's `upto` write it: whole milliseconds since 1970.
    static func millis(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// The Outbox's rows (also what a live page reads again).
    func outboxRows() -> Markup {
        struct Entry {
            var id: String
            var state: String
            var stateName: String
            var to: String
            var date: String
            var time: String
            var subject: String
            var reason: String?
            var detail: Markup
            var actions: Bool
            var scheduled: Bool
        }
        struct Model { var entries: [Entry] }
        // Scheduled messages (send later, issue 33) apart, first, soonest first; then the rest.
        let waiting = outbox.filter { $0.state == .queued && $0.sendAt != nil && $0.attemptCount == 0 }
            .sorted { ($0.sendAt ?? .distantPast, $0.id) < ($1.sendAt ?? .distantPast, $1.id) }
        let ordered = waiting + outbox.filter { entry in !waiting.contains { $0.id == entry.id } }
        return Self.outboxTemplate.render(Model(entries: ordered.map { entry in
            let email = entry.email
            let scheduled = waiting.contains { $0.id == entry.id }
            if scheduled, let at = entry.sendAt {
                let to = (email.toAddresses + email.ccAddresses + email.bccAddresses).map { $0.name ?? $0.email }.joined(separator: ", ")
                return Entry(
                    id: email.id, state: "Scheduled", stateName: "scheduled", to: to.isEmpty ? "no one yet" : to,
                    date: at.formatted(.iso8601), time: "Sends " + dates.wakeTime(at),
                    subject: email.subject.isEmpty ? "(no subject)" : email.subject,
                    reason: entry.draftSyncError.map { _ in "Scheduled on this device only: the server's Drafts could not be updated, so only this device sends it." },
                    detail: ProblemView.details(entry.draftSyncError), actions: false, scheduled: true)
            }
            let state: String = switch email.sendState {
            case .queued: entry.attemptCount > 0 ? "Waiting to retry" : "Queued"
            case .sending: "Sending"
            case .failed: "Failed"
            default: email.sendState.rawValue.capitalized
            }
            let to = (email.toAddresses + email.ccAddresses + email.bccAddresses).map { $0.name ?? $0.email }.joined(separator: ", ")
            // "Not sent" and why in words, the detail (the server and port) behind a disclosure (issue 29).
            let said = entry.lastError.map { PlainProblem(lines: $0) }
            // Whether anything retries it, in Core's words (issue 34).
            var why = entry.lastError.map { NotSentAdvice.words(email.sendState, reason: $0) }
            if email.sendState == .queued, let next = entry.nextAttemptAt { why = why.map { $0 + " Next try \(dates.string(for: next))." } }
            return Entry(
                id: email.id, state: state, stateName: email.sendState.rawValue, to: to.isEmpty ? "no one yet" : to,
                date: email.dateReceived.formatted(.iso8601), time: dates.string(for: email.dateReceived),
                subject: email.subject.isEmpty ? "(no subject)" : email.subject, reason: why, detail: ProblemView.details(said?.detail),
                actions: email.sendState == .queued || email.sendState == .failed, scheduled: false)
        }))
    }

    /// A message waiting in the Outbox: its state in words, why it has not gone, recipients,
    /// subject, when; Send now and Cancel (back to a draft) while it has not started going. A
    /// scheduled one: "Scheduled", when it goes, Send now, Edit (back to a draft) and Cancel.
    private static let outboxTemplate = Template("""
        {{#entries}}<li class="row outbox-row" data-id="{{id}}"><span class="row-link"><span class="row-main"><span class="row-top"><span class="pill state-{{stateName}}">{{state}}</span>\
        <span class="sender">To {{to}}</span><time datetime="{{date}}">{{time}}</time></span>\
        <span class="row-bottom"><span class="subject">{{subject}}</span></span>\
        {{#reason}}<span class="outbox-reason">{{reason}}</span>{{/reason}}\
        </span></span>{{{detail}}}\
        {{#actions}}<span class="outbox-actions"><button class="tool" formaction="/outbox/retry" name="draft" value="{{id}}" aria-label="Send now: {{subject}}">Send now</button>\
        <button class="tool" formaction="/outbox/cancel" name="draft" value="{{id}}" aria-label="Cancel sending and edit: {{subject}}">Cancel</button></span>{{/actions}}\
        {{#scheduled}}<span class="outbox-actions"><button class="tool" formaction="/outbox/retry" name="draft" value="{{id}}" aria-label="Send now: {{subject}}">Send now</button>\
        <button class="tool" formaction="/outbox/cancel" name="draft" value="{{id}}" aria-label="Edit (back to a draft): {{subject}}">Edit</button>\
        <button class="tool" formaction="/outbox/unschedule" name="draft" value="{{id}}" aria-label="Cancel sending: {{subject}}">Cancel</button></span>{{/scheduled}}\
        </li>{{/entries}}
        """)

    private func avatar(_ thread: EmailThread) -> Markup {
        struct Face { var bucket: Int; var initials: String }
        struct Model { var stacked: Bool; var faces: [Face] }
        let people = thread.participantList.filter { !me.contains($0.email.lowercased()) }
        let shown = Array((people.isEmpty ? thread.participantList : people).prefix(2))
        let faces = shown.isEmpty
            ? [Face(bucket: 0, initials: "?")]
            : shown.map { Face(bucket: StableHash.bucket($0.email.lowercased(), 8), initials: Self.initials($0)) }
        return Self.avatarTemplate.render(Model(stacked: shown.count > 1, faces: faces))
    }

    private static let avatarTemplate = Template("""
        <span class="avatars{{#stacked}} stacked{{/stacked}}" aria-hidden="true">{{#faces}}<span class="avatar av{{bucket}}">{{initials}}</span>{{/faces}}</span>
        """)

    static func initials(_ person: Participant) -> String {
        let words = person.displayName.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let letters = words.prefix(2).compactMap(\.first).map { String($0).uppercased() }
        return letters.isEmpty ? "?" : letters.joined()
    }

    /// The category tabs with their unread counts (also swapped in live: `/mail/counts`).
    func tabs() -> Markup {
        let categorized = categoryCounts.keys.contains { $0 != nil && $0 != .uncategorized }
        guard mailbox != .outbox, categorized || category != nil else { return .empty }
        struct Tab { var url: String; var current: Bool; var title: String; var count: Int? }
        struct Model { var tabs: [Tab] }
        let all: [AICategory?] = [nil, .primary, .social, .promotions, .updates, .forums]
        return Self.tabsTemplate.render(Model(tabs: all.map { tab in
            let count = categoryCounts[tab] ?? 0
            return Tab(url: mailbox.url(category: tab), current: tab == category, title: tab?.title ?? "All", count: count > 0 ? count : nil)
        }))
    }

    private static let tabsTemplate = Template("""
        <nav class="tabs" aria-label="Categories"><ul>\
        {{#tabs}}<li><a href="{{url}}"{{#current}} aria-current="page"{{/current}}>{{title}}{{#count}} <span class="count">{{count}}<span class="visually-hidden"> unread</span></span>{{/count}}</a></li>{{/tabs}}\
        </ul></nav>
        """)

    private func toolbar() -> Markup {
        struct Model { var markAll: Markup; var buttons: Markup; var snooze: Markup; var move: Markup }
        return Self.toolbarTemplate.render(Model(markAll: markAll(), buttons: [
            ToolButton(action: "archive", label: "Archive", icon: .archive, key: "e"), ToolButton(action: "delete", label: "Delete", icon: .trash, key: "#"),
            ToolButton(action: "read", label: "Mark read", icon: .read, key: "Shift+I"), ToolButton(action: "unread", label: "Mark unread", icon: .unread, key: "Shift+U"),
            ToolButton(action: "star", label: "Star", icon: .star, key: "s"), ToolButton(action: "mute", label: "Mute", icon: .mute),
        ].map { $0.render() }.joined(), snooze: snoozeTools(), move: ToolButton.move(to: moveTargets, label: "Move selected to")))
    }

    private static let toolbarTemplate = Template("""
        <div class="toolbar" role="toolbar" aria-label="Actions on conversations">\
        <label class="select-all"><input type="checkbox" id="select-all"> <span>Select all</span></label>{{{markAll}}}{{{buttons}}}{{{snooze}}}{{{move}}}\
        <span class="selection-count" aria-live="polite"></span></div>
        """)

    /// The list's Snooze menu, and Unsnooze in the Snoozed box (issue 33).
    private func snoozeTools() -> Markup {
        guard let snoozeMenu else { return .empty }
        guard snoozedBox else { return snoozeMenu.render() }
        return ToolButton(action: "unsnooze", label: "Unsnooze", icon: .unread).render() + snoozeMenu.render()
    }

    /// "Mark all as read" (issue 29): every unread conversation of this list — the folder or
    /// box, in the tab shown — whose latest mail is no newer than the newest row drawn (`upto`;
    /// the script sends the newest row on screen after live refreshes). Hidden while the tab has
    /// no unread mail (the script follows `/mail/counts`); not offered on search results or the
    /// Outbox. Without the script it posts the list's form (`read=all`).
    private func markAll() -> Markup {
        guard search == nil, mailbox != .outbox else { return .empty }
        struct Model { var none: Bool; var icon: Markup; var box: String; var category: String?; var upto: String? }
        return Self.markAllTemplate.render(Model(
            none: (categoryCounts[category] ?? 0) == 0, icon: Icon.read.svg(), box: mailbox.parameter, category: category?.rawValue,
            upto: page.threads.first.map { Self.millis($0.latestDate) }))
    }

    private static let markAllTemplate = Template("""
        <button class="tool mark-all" id="mark-all" name="read" value="all" title="Mark every unread conversation of this list read (Shift+C)"{{#none}} hidden{{/none}}>{{{icon}}}<span>Mark all as read</span></button>\
        <input type="hidden" name="box" value="{{box}}">{{#category}}<input type="hidden" name="cat" value="{{category}}">{{/category}}\
        {{#upto}}<input type="hidden" name="upto" value="{{upto}}">{{/upto}}
        """)

    private func emptyState() -> Markup {
        struct Model { var title: String; var hint: String }
        if mailbox == .outbox {
            return Self.emptyTemplate.render(Model(title: "The Outbox is empty.", hint: "Everything you wrote has been sent."))
        }
        return Self.emptyTemplate.render(Model(
            title: category.map { "No \($0.title.lowercased()) conversations here." } ?? "No conversations here.",
            hint: mailbox == .allInboxes ? "New mail appears here as it arrives." : "Mail moved here will show up in this list."))
    }

    private static let emptyTemplate = Template("""
        <div class="empty" role="status"><p class="empty-title">{{title}}</p><p>{{hint}}</p></div>
        """)
}

extension AICategory {
    var title: String {
        switch self {
        case .primary: "Primary"
        case .social: "Social"
        case .promotions: "Promotions"
        case .updates: "Updates"
        case .forums: "Forums"
        case .uncategorized: "Other"
        }
    }
}
