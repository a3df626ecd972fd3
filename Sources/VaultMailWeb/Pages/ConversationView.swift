import Foundation
import VaultMailCore

/// The right pane (AC-U-05/06): a conversation's messages oldest first, read ones folded,
/// HTML in a sandboxed frame, plain text with links and folded quotes, attachments with size
/// and a download. Its actions are one form, so they work without JavaScript.
struct ConversationView {
    struct Message {
        var email: Email
        var attachments: [Attachment]
        /// The sanitized HTML body, when the message has one.
        var html: SanitizedHTML?
        /// Remote images are shown (asked for this message, or the sender is trusted).
        var imagesAllowed: Bool
        var expanded: Bool
    }

    var thread: EmailThread
    var messages: [Message]
    var mailbox: Mailbox
    var category: AICategory?
    var isMuted: Bool
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

    /// The conversation's version, so a live page reloads it only when what it shows changed
    /// (new mail, star, mute, a VIP sender, images let in; not read state, which opening it changes).
    var version: String {
        let vip = messages.filter { vips.contains($0.email.fromAddress.lowercased()) }.count
        let images = messages.filter(\.imagesAllowed).count
        return "\(thread.messageCount).\(Int(thread.latestDate.timeIntervalSince1970)).\(thread.isStarred).\(isMuted).\(vip).\(images).\(categoryDecision?.category.rawValue ?? "")"
    }

    func render() -> String {
        let subject = thread.subject.isEmpty ? "(no subject)" : thread.subject
        let id = HTML.escape(thread.id)
        let latest = answerable.map { " data-latest=\"\(HTML.escape($0.id))\"" } ?? ""
        var out = "<article class=\"conversation\" id=\"conversation\" aria-labelledby=\"conv-title\" data-thread=\"\(id)\" data-version=\"\(version)\"\(latest)>"
        out += "<form id=\"conv-form\" method=\"post\" action=\"/actions\">"
        out += "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\"><input type=\"hidden\" name=\"t\" value=\"\(id)\">"
        out += "<input type=\"hidden\" name=\"return\" value=\"\(HTML.escape(mailbox.url(category: category, thread: thread.id)))\">"
        out += "<input type=\"hidden\" name=\"leave\" value=\"\(HTML.escape(mailbox.url(category: category)))\">"
        out += "<header class=\"conv-head\"><a class=\"back\" href=\"\(HTML.escape(mailbox.url(category: category)))\">\(Icon.back.svg())<span>Back to the list</span></a>"
        out += "<h2 id=\"conv-title\" tabindex=\"-1\">\(HTML.escape(subject))</h2>"
        out += "<p class=\"conv-meta\">\(thread.messageCount) message\(thread.messageCount == 1 ? "" : "s")\(isMuted ? " · muted" : "")</p>"
        out += actions()
        out += CategoryBar(threadId: thread.id, decision: categoryDecision).render()
        out += "</header>" + (summary?.render() ?? "") + "<ol class=\"messages\">"
        for message in messages { out += render(message) }
        out += "</ol>" + suggestedReplies() + replyBar() + "</form></article>"
        return out
    }

    /// The message Reply, Reply all and Forward answer: the latest one that is not a draft.
    var answerable: Email? {
        messages.last { !$0.email.isDraft && ($0.email.sendState == .none || $0.email.sendState == .sent) }?.email
    }

    /// Where the composer goes back to: this conversation.
    private var here: String { mailbox.url(category: category, thread: thread.id) }

    static func composeURL(_ kind: ComposeKind, email: String, returnTo: String) -> String {
        "/compose?kind=\(kind.rawValue)&email=\(FormFields.encode(email))&return=\(FormFields.encode(returnTo))"
    }

    static let answers: [(kind: ComposeKind, label: String, icon: Icon, key: String)] = [
        (.reply, "Reply", .reply, "r"), (.replyAll, "Reply all", .replyAll, "a"), (.forward, "Forward", .forward, "f"),
    ]

    /// Reply, Reply all and Forward for the latest message, at the end of the conversation.
    private func replyBar() -> String {
        guard let email = answerable else { return "" }
        return "<nav class=\"reply-bar\" aria-label=\"Answer the latest message\">" + Self.answers.map { answer in
            "<a class=\"tool\" href=\"\(HTML.escape(Self.composeURL(answer.kind, email: email.id, returnTo: here)))\" title=\"\(answer.label) (\(answer.key))\" data-compose=\"\(answer.kind.rawValue)\">\(answer.icon.svg())<span>\(answer.label)</span></a>"
        }.joined() + "</nav>"
    }

    /// Suggested replies to the latest message, above the reply bar.
    private func suggestedReplies() -> String {
        guard offersReplies, let email = answerable else { return "" }
        // The user wrote last: nothing to answer, unless they asked.
        if case .loading = replies, me.contains(email.fromAddress.lowercased()) { return "" }
        return ReplySuggestionsView(threadId: thread.id, emailId: email.id, state: replies, here: here).render()
    }

    /// The same for one message, in its header.
    private func messageAnswers(_ email: Email, sender: String) -> String {
        "<nav class=\"msg-actions\" aria-label=\"Answer this message from \(HTML.escape(sender))\">" + Self.answers.map { answer in
            "<a class=\"link-button\" href=\"\(HTML.escape(Self.composeURL(answer.kind, email: email.id, returnTo: here)))\" data-compose-message=\"\(answer.kind.rawValue)\">\(answer.label)</a>"
        }.joined() + "</nav>"
    }

    private func actions() -> String {
        var out = "<div class=\"toolbar conv-actions\" role=\"toolbar\" aria-label=\"Conversation actions\">"
        out += [
            ToolButton(action: "archive", label: "Archive", icon: .archive, key: "e"), ToolButton(action: "delete", label: "Delete", icon: .trash, key: "#"),
            ToolButton(action: "unread", label: "Mark unread", icon: .unread, key: "Shift+U"),
            ToolButton(action: thread.isStarred ? "unstar" : "star", label: thread.isStarred ? "Unstar" : "Star", icon: .star, key: "s", on: thread.isStarred),
            ToolButton(action: isMuted ? "unmute" : "mute", label: isMuted ? "Unmute" : "Mute", icon: .mute, on: isMuted),
        ].map { $0.render() }.joined()
        out += ToolButton.move(to: moveTargets, id: "conv-move", label: "Move conversation to")
        return out + "</div>"
    }

    private func render(_ message: Message) -> String {
        let email = message.email
        let id = HTML.escape(email.id)
        let sender = email.fromName.flatMap { $0.isEmpty ? nil : $0 } ?? (email.fromAddress.isEmpty ? "Unknown sender" : email.fromAddress)
        let isMe = me.contains(email.fromAddress.lowercased())
        var out = "<li class=\"message\(email.isRead ? "" : " unread")\" id=\"m-\(id)\"><details class=\"msg\"\(message.expanded ? " open" : "")>"
        out += "<summary><span class=\"avatar av\(StableHash.bucket(email.fromAddress.lowercased(), 8))\" aria-hidden=\"true\">\(HTML.escape(ThreadListView.initials(email.from)))</span>"
        out += "<span class=\"from\">\(HTML.escape(isMe ? "me" : sender))</span>"
        if !email.isRead { out += "<span class=\"visually-hidden\">, unread</span>" }
        out += "<span class=\"msg-snippet\">\(HTML.escape(String((email.snippet ?? "").prefix(120))))</span>"
        out += "<time datetime=\"\(email.dateReceived.formatted(.iso8601))\">\(HTML.escape(dates.string(for: email.dateReceived)))</time></summary>"
        var draftLink = ""
        if email.sendState == .draft || (email.isDraft && email.sendState == .none) {
            let url = "/compose?kind=draft&draft=\(FormFields.encode(email.id))&return=\(FormFields.encode(here))"
            draftLink = "<p class=\"draft-bar\"><span class=\"pill\">Draft</span> <a class=\"tool\" href=\"\(HTML.escape(url))\">\(Icon.compose.svg())<span>Continue writing</span></a></p>"
        }
        let answers = email.isDraft || email.sendState == .draft ? "" : messageAnswers(email, sender: isMe ? "me" : sender)
        out += "<div class=\"msg-body\">" + draftLink + answers + headers(email, isMe: isMe) + body(message) + attachments(message) + "</div>"
        return out + "</details></li>"
    }

    private func headers(_ email: Email, isMe: Bool) -> String {
        var out = "<dl class=\"headers\"><dt>From</dt><dd>\(person(email.from))"
        if !isMe, !email.fromAddress.isEmpty {
            if vips.contains(email.fromAddress.lowercased()) {
                out += " <span class=\"pill vip\">VIP</span>"
            } else {
                out += " <button class=\"link-button\" name=\"one\" value=\"vip:\(HTML.escape(email.fromAddress))\">Mark sender VIP</button>"
            }
        }
        out += "</dd>"
        if !email.toAddresses.isEmpty { out += "<dt>To</dt><dd>\(email.toAddresses.map(person).joined(separator: ", "))</dd>" }
        if !email.ccAddresses.isEmpty { out += "<dt>Cc</dt><dd>\(email.ccAddresses.map(person).joined(separator: ", "))</dd>" }
        out += "<dt>Date</dt><dd>\(HTML.escape(dates.full(email.dateSent ?? email.dateReceived)))"
        if !isMe { out += " <a class=\"link-button\" href=\"/settings?why=\(FormFields.encode(email.id))#why\">Why (not) notified?</a>" }
        out += "</dd></dl>"
        return out
    }

    private func person(_ participant: Participant) -> String {
        let address = HTML.escape(participant.email)
        guard let name = participant.name, !name.isEmpty, name != participant.email else { return address }
        return "\(HTML.escape(name)) <span class=\"address\">&lt;\(address)&gt;</span>"
    }

    private func body(_ message: Message) -> String {
        let email = message.email
        if let html = message.html {
            var out = ""
            if html.blockedRemoteContent > 0, imagesNever {
                out += "<div class=\"images-bar\" role=\"note\">\(Icon.offline.svg())<span>Remote images are never loaded (<a href=\"/settings#general\">Settings</a>).</span></div>"
            } else if html.blockedRemoteContent > 0, !message.imagesAllowed {
                let here = mailbox.url(category: category, thread: thread.id) + "&images=\(email.id)#m-\(email.id)"
                out += "<div class=\"images-bar\" role=\"note\">\(Icon.offline.svg())<span>Remote images are hidden to keep senders from tracking you.</span>"
                out += "<a href=\"\(HTML.escape(here))\" data-images=\"\(HTML.escape(email.id))\">Show images</a>"
                if !email.fromAddress.isEmpty {
                    out += "<button class=\"link-button\" name=\"one\" value=\"images:\(HTML.escape(email.fromAddress))\">Always show from \(HTML.escape(email.fromAddress))</button>"
                }
                out += "</div>"
            }
            let src = "/message/\(email.id)/body" + (message.imagesAllowed ? "?images=1" : "")
            let sender = email.fromName ?? email.fromAddress
            out += "<iframe class=\"mail-frame h\(Self.heightClass(html.html))\" src=\"\(HTML.escape(src))\" sandbox=\"allow-popups allow-popups-to-escape-sandbox\" referrerpolicy=\"no-referrer\" title=\"Message from \(HTML.escape(sender))\"></iframe>"
            return out
        }
        if let plain = email.bodyPlain, !plain.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return PlainTextRenderer.render(plain)
        }
        return "<p class=\"hint\">This message has no text.</p>"
    }

    private func attachments(_ message: Message) -> String {
        let referenced = Set(message.html?.contentIds ?? [])
        let listed = message.attachments.filter { attachment in
            !(attachment.contentId.map { referenced.contains($0) } ?? false)
        }
        guard !listed.isEmpty else { return "" }
        var out = "<section class=\"attachments\" aria-label=\"Attachments\"><h3>\(Icon.paperclip.svg())\(listed.count) attachment\(listed.count == 1 ? "" : "s")</h3><ul>"
        for attachment in listed {
            let href = "/message/\(message.email.id)/attachment/\(attachment.id)"
            let size = ByteSize.string(attachment.sizeBytes)
            out += "<li><a href=\"\(HTML.escape(href))\" download=\"\(HTML.escape(attachment.filename))\"><span class=\"att-name\">\(HTML.escape(attachment.filename))</span><span class=\"att-meta\">\(HTML.escape(attachment.mimeType)) · \(size)</span><span class=\"visually-hidden\">, download</span></a></li>"
        }
        return out + "</ul></section>"
    }

    /// A height class for the message frame (the sandbox keeps the page from measuring it):
    /// an estimate from the amount of text and images, in steps of 160 px (h1 … h12).
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
