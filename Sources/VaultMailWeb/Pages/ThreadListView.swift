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
    /// The list could not be read: the notice offers to try again.
    var failed = false
    /// The Outbox's messages (queued, sending, failed), when the Outbox is shown.
    var outbox: [OutboxEntry] = []
    /// Search results (issue 14): the query, the matching text per thread, a query that could
    /// not be read. Rows and pages then link to `/mail/search`.
    var search: SearchListState?

    func render() -> String {
        var out = "<section class=\"list-pane\" id=\"list-pane\" aria-labelledby=\"list-title\" data-box=\"\(HTML.escape(mailbox.parameter))\"\(category.map { " data-cat=\"\($0.rawValue)\"" } ?? "")>"
        out += "<div class=\"list-head\"><h1 id=\"list-title\">\(HTML.escape(title))</h1></div>"
        if let search {
            out += search.modeSwitch() + search.problemNotice()
        } else {
            out += tabs()
        }
        if let notice {
            let retry = failed ? " <a href=\"\(HTML.escape(mailbox.url(category: category)))\">Try again</a>" : ""
            out += "<p class=\"notice\(failed ? " error" : "")\" role=\"\(failed ? "alert" : "status")\">\(HTML.escape(notice))\(retry)</p>"
        }
        out += "<form id=\"list-form\" method=\"post\" action=\"/actions\">"
        out += "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\"><input type=\"hidden\" name=\"return\" value=\"\(HTML.escape(search?.url() ?? mailbox.url(category: category)))\">"
        if mailbox != .outbox { out += toolbar() }
        if mailbox == .outbox {
            out += outbox.isEmpty ? emptyState() : "<ul class=\"threads outbox\" id=\"threads\" aria-label=\"Messages waiting to be sent\">" + outboxRows() + "</ul>"
        } else if page.threads.isEmpty {
            out += search?.emptyState() ?? emptyState()
        } else {
            out += "<ul class=\"threads\" id=\"threads\" aria-label=\"Conversations\">" + rows(page) + "</ul>"
        }
        out += "</form></section>"
        return out
    }

    /// The rows of a page and, when there is more, the link to the next page.
    func rows(_ page: ThreadPage) -> String {
        var out = ""
        out.reserveCapacity(page.threads.count * 1200)
        for thread in page.threads { out += row(thread) }
        if let next = search.map({ $0.nextCursor?.encoded }) ?? page.nextCursor?.encoded {
            var url = "/mail/list?box=\(FormFields.encode(mailbox.parameter))\(category.map { "&cat=\($0.rawValue)" } ?? "")&cursor=\(FormFields.encode(next))"
            var fullPage = mailbox.url(category: category) + "&cursor=\(FormFields.encode(next))"
            if let search {
                url = "/mail/list?q=\(FormFields.encode(search.query))\(search.byMeaning ? "&meaning=1" : "")&cursor=\(FormFields.encode(next))"
                fullPage = search.url() + "&cursor=\(FormFields.encode(next))"
            }
            out += "<li class=\"more\"><a href=\"\(HTML.escape(fullPage))\" data-next=\"\(HTML.escape(url))\">Older conversations</a></li>"
        }
        return out
    }

    private func row(_ thread: EmailThread) -> String {
        let sender = thread.senderSummary(me: me)
        let time = dates.string(for: thread.latestDate)
        let highlight = search?.highlights[thread.id]
        let snippet = (highlight?.text ?? thread.snippet ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let subject = thread.subject.isEmpty ? "(no subject)" : thread.subject
        let category = thread.category.flatMap { $0 == .uncategorized ? nil : $0 }
        var label = "From \(sender), \(subject)"
        if !snippet.isEmpty { label += ", \(snippet.prefix(100))" }
        label += ", \(time), \(thread.isUnread ? "unread" : "read"), \(thread.isStarred ? "starred" : "not starred")"
        if thread.hasAttachments { label += ", has attachments" }
        if let category { label += ", \(category.title)" }
        if let account = accountNames[thread.accountId], accountNames.count > 1 { label += ", account \(account)" }

        let id = HTML.escape(thread.id)
        var classes = "row"
        if thread.isUnread { classes += " unread" }
        if thread.id == openThread { classes += " open" }
        var out = "<li class=\"\(classes)\" data-id=\"\(id)\" data-version=\"\(thread.messageCount).\(Int(thread.latestDate.timeIntervalSince1970))\">"
        out += "<input type=\"checkbox\" class=\"select\" name=\"t\" value=\"\(id)\" aria-label=\"Select: \(HTML.escape(sender)), \(HTML.escape(subject))\">"
        out += "<a class=\"row-link\" href=\"\(HTML.escape(search?.url(thread: thread.id) ?? mailbox.url(category: self.category, thread: thread.id)))\" aria-label=\"\(HTML.escape(label))\">"
        out += avatar(thread)
        out += "<span class=\"row-main\"><span class=\"row-top\">"
        if thread.isUnread { out += "<span class=\"dot\" aria-hidden=\"true\"></span>" }
        if let account = accountNames[thread.accountId], accountNames.count > 1 {
            out += "<span class=\"acct-dot \(SidebarView.accountColour(thread.accountId))\" title=\"\(HTML.escape(account))\" aria-hidden=\"true\"></span>"
        }
        out += "<span class=\"sender\">\(HTML.escape(sender))</span>"
        out += "<time datetime=\"\(thread.latestDate.formatted(.iso8601))\">\(HTML.escape(time))</time></span>"
        out += "<span class=\"row-bottom\"><span class=\"subject\">\(HTML.escape(subject))</span>"
        if let highlight, highlight.hasMatch {
            out += "<span class=\"snippet\"> — \(SearchListState.marked(highlight, limit: 140))</span>"
        } else if !snippet.isEmpty {
            out += "<span class=\"snippet\"> — \(HTML.escape(String(snippet.prefix(140))))</span>"
        }
        out += "</span></span><span class=\"marks\" aria-hidden=\"true\">"
        if let category { out += "<span class=\"pill cat-\(category.rawValue)\">\(category.title)</span>" }
        if thread.hasAttachments { out += "<span class=\"clip\" title=\"Has attachments\">\(Icon.paperclip.svg())</span>" }
        out += "</span></a>"
        let starLabel = thread.isStarred ? "Unstar" : "Star"
        out += "<button class=\"star\(thread.isStarred ? " on" : "")\" name=\"one\" value=\"\(thread.isStarred ? "unstar" : "star"):\(id)\" aria-label=\"\(starLabel): \(HTML.escape(subject))\" aria-pressed=\"\(thread.isStarred)\" title=\"\(starLabel) (s)\">\(Icon.star.svg(filled: thread.isStarred))</button>"
        out += "</li>"
        return out
    }

    /// The Outbox's rows (also what a live page reads again).
    func outboxRows() -> String { outbox.map(outboxRow).joined() }

    /// A message waiting in the Outbox: its state in words, why it has not gone, recipients,
    /// subject, when; Send now and Cancel (back to a draft) while it has not started going.
    private func outboxRow(_ entry: OutboxEntry) -> String {
        let email = entry.email
        let state: String = switch email.sendState {
        case .queued: entry.attemptCount > 0 ? "Waiting to retry" : "Queued"
        case .sending: "Sending"
        case .failed: "Failed"
        default: email.sendState.rawValue.capitalized
        }
        let to = (email.toAddresses + email.ccAddresses + email.bccAddresses).map { $0.name ?? $0.email }.joined(separator: ", ")
        let subject = email.subject.isEmpty ? "(no subject)" : email.subject
        let id = HTML.escape(email.id)
        var out = "<li class=\"row outbox-row\" data-id=\"\(id)\"><span class=\"row-link\"><span class=\"row-main\"><span class=\"row-top\"><span class=\"pill state-\(email.sendState.rawValue)\">\(state)</span>"
            + "<span class=\"sender\">To \(HTML.escape(to.isEmpty ? "no one yet" : to))</span><time datetime=\"\(email.dateReceived.formatted(.iso8601))\">\(HTML.escape(dates.string(for: email.dateReceived)))</time></span>"
            + "<span class=\"row-bottom\"><span class=\"subject\">\(HTML.escape(subject))</span></span>"
        if let reason = entry.lastError {
            var why = reason
            if email.sendState == .queued, let next = entry.nextAttemptAt { why += " Next try \(dates.string(for: next))." }
            out += "<span class=\"outbox-reason\">\(HTML.escape(why))</span>"
        }
        out += "</span></span>"
        if email.sendState == .queued || email.sendState == .failed {
            out += "<span class=\"outbox-actions\"><button class=\"tool\" formaction=\"/outbox/retry\" name=\"draft\" value=\"\(id)\" aria-label=\"Send now: \(HTML.escape(subject))\">Send now</button>"
                + "<button class=\"tool\" formaction=\"/outbox/cancel\" name=\"draft\" value=\"\(id)\" aria-label=\"Cancel sending and edit: \(HTML.escape(subject))\">Cancel</button></span>"
        }
        return out + "</li>"
    }

    private func avatar(_ thread: EmailThread) -> String {
        let people = thread.participantList.filter { !me.contains($0.email.lowercased()) }
        let shown = Array((people.isEmpty ? thread.participantList : people).prefix(2))
        guard !shown.isEmpty else { return "<span class=\"avatars\" aria-hidden=\"true\"><span class=\"avatar av0\">?</span></span>" }
        let faces = shown.map { person in
            "<span class=\"avatar av\(StableHash.bucket(person.email.lowercased(), 8))\">\(HTML.escape(Self.initials(person)))</span>"
        }.joined()
        return "<span class=\"avatars\(shown.count > 1 ? " stacked" : "")\" aria-hidden=\"true\">\(faces)</span>"
    }

    static func initials(_ person: Participant) -> String {
        let words = person.displayName.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let letters = words.prefix(2).compactMap(\.first).map { String($0).uppercased() }
        return letters.isEmpty ? "?" : letters.joined()
    }

    private func tabs() -> String {
        let categorized = categoryCounts.keys.contains { $0 != nil && $0 != .uncategorized }
        guard mailbox != .outbox, categorized || category != nil else { return "" }
        var out = "<nav class=\"tabs\" aria-label=\"Categories\"><ul>"
        let all: [AICategory?] = [nil, .primary, .social, .promotions, .updates, .forums]
        for tab in all {
            let current = tab == category ? " aria-current=\"page\"" : ""
            let count = categoryCounts[tab] ?? 0
            let badge = count > 0 ? " <span class=\"count\">\(count)<span class=\"visually-hidden\"> unread</span></span>" : ""
            out += "<li><a href=\"\(HTML.escape(mailbox.url(category: tab)))\"\(current)>\(tab?.title ?? "All")\(badge)</a></li>"
        }
        return out + "</ul></nav>"
    }

    private func toolbar() -> String {
        var out = "<div class=\"toolbar\" role=\"toolbar\" aria-label=\"Actions on selected conversations\">"
        out += "<label class=\"select-all\"><input type=\"checkbox\" id=\"select-all\"> <span>Select all</span></label>"
        out += [
            ToolButton(action: "archive", label: "Archive", icon: .archive, key: "e"), ToolButton(action: "delete", label: "Delete", icon: .trash, key: "#"),
            ToolButton(action: "read", label: "Mark read", icon: .read, key: "Shift+I"), ToolButton(action: "unread", label: "Mark unread", icon: .unread, key: "Shift+U"),
            ToolButton(action: "star", label: "Star", icon: .star, key: "s"), ToolButton(action: "mute", label: "Mute", icon: .mute),
        ].map { $0.render() }.joined()
        out += ToolButton.move(to: moveTargets, id: "move-to", label: "Move selected to")
        return out + "<span class=\"selection-count\" aria-live=\"polite\"></span></div>"
    }

    private func emptyState() -> String {
        if mailbox == .outbox {
            return "<div class=\"empty\" role=\"status\"><p class=\"empty-title\">The Outbox is empty.</p><p>Everything you wrote has been sent.</p></div>"
        }
        let what = category.map { "No \($0.title.lowercased()) conversations here." } ?? "No conversations here."
        let hint = mailbox == .allInboxes ? "New mail appears here as it arrives." : "Mail moved here will show up in this list."
        return "<div class=\"empty\" role=\"status\"><p class=\"empty-title\">\(what)</p><p>\(hint)</p></div>"
    }
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
