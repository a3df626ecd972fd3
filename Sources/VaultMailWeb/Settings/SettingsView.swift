import Foundation
import VaultMailCore
import VaultMailNotifications

/// The settings page (AC-U-14, NOTIF-22): general preferences, every notification rule, the
/// desktop's notification server, the VIP and muted lists, "why did it (not) notify", and the
/// accounts. Each section is a form that works without the script; the script saves a switch
/// the moment it changes and says so (AC-N-22: real switches with labels, announced).
struct SettingsView {
    struct Values {
        var undoDelay: Int
        var markReadOnOpen: Bool
        var remoteImages: RemoteImagePolicy
        var theme: Theme
        var density: ListDensity
        var notificationsOn: Bool
        var sound: Bool
        var accountNotifications: [String: Bool]
        var categories: [String: Bool]
        var vips: [String]
        var quietHoursOn: Bool
        var quietStart: Int
        var quietEnd: Int
    }

    struct Muted {
        var id: String
        var subject: String
    }

    var values: Values
    var accounts: [Account]
    var muted: [Muted]
    var server: NotificationServerStatus
    var decisions: [NotificationDecision]
    /// The decision asked about (`why=`), shown first.
    var asked: NotificationDecision?
    var askedMissing: String?
    var notice: String?
    var csrf: String
    var dates: RelativeDate

    static let undoChoices = [0, 5, 10, 20, 30]
    static let categories: [AICategory] = [.primary, .social, .promotions, .updates, .forums]

    func render() -> String {
        var body = "<a class=\"skip\" href=\"#settings-title\">Skip to the settings</a>"
        body += "<header class=\"topbar\"><a class=\"brand\" href=\"/mail\">VaultMail</a><a class=\"tool\" href=\"/mail\">\(Icon.back.svg())<span>Back to the mail</span></a></header>"
        body += "<main class=\"settings-main\" id=\"main\"><nav class=\"settings-nav\" aria-label=\"Settings sections\"><ul>"
        for (id, name) in [("general", "General"), ("notifications", "Notifications"), ("why", "Why it notified"), ("accounts", "Accounts")] {
            body += "<li><a href=\"#\(id)\">\(name)</a></li>"
        }
        body += "<li><a href=\"/settings/ai\">On-device AI</a></li>"
        body += "</ul></nav><div class=\"settings-content\"><h1 id=\"settings-title\" tabindex=\"-1\">Settings</h1>"
        body += "<p class=\"notice\" id=\"settings-status\" role=\"status\"\(notice == nil ? " hidden" : "")>\(HTML.escape(notice ?? ""))</p>"
        body += general() + notifications() + vipList() + mutedList() + desktop() + why() + accountList()
        body += "</div></main>"
        return Pages.document(title: "Settings — VaultMail", bodyClass: "app settings-page", csrf: csrf, body: body,
                              scripts: [Assets.settingsScript], display: .init(theme: values.theme, density: values.density))
    }

    private func form(_ action: String, _ inner: String) -> String {
        "<form method=\"post\" action=\"\(action)\" class=\"settings-form\" data-autosave><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
            + inner + "<button class=\"primary save-button\">Save</button></form>"
    }

    /// A switch: a checkbox with the switch role, its label the whole sentence.
    private func toggle(_ name: String, _ label: String, _ on: Bool, hint: String? = nil) -> String {
        let id = "sw-" + name.replacingOccurrences(of: ":", with: "-")
        let hintId = hint.map { _ in id + "-hint" }
        var out = "<div class=\"setting\"><label class=\"switch\" for=\"\(id)\"><input type=\"checkbox\" role=\"switch\" id=\"\(id)\" name=\"\(HTML.escape(name))\" value=\"1\"\(on ? " checked" : "")"
        if let hintId { out += " aria-describedby=\"\(hintId)\"" }
        out += "><span class=\"switch-track\" aria-hidden=\"true\"></span><span>\(HTML.escape(label))</span></label>"
        if let hint, let hintId { out += "<p class=\"hint-text\" id=\"\(hintId)\">\(HTML.escape(hint))</p>" }
        return out + "</div>"
    }

    private func radios<T: RawRepresentable & CaseIterable>(_ name: String, _ legend: String, _ current: T, _ label: (T) -> String) -> String where T.RawValue == String {
        var out = "<fieldset class=\"setting\"><legend>\(legend)</legend>"
        for choice in T.allCases {
            let id = "\(name)-\(choice.rawValue)"
            out += "<label class=\"radio\" for=\"\(id)\"><input type=\"radio\" id=\"\(id)\" name=\"\(name)\" value=\"\(choice.rawValue)\"\(choice == current ? " checked" : "")> \(HTML.escape(label(choice)))</label>"
        }
        return out + "</fieldset>"
    }

    private func general() -> String {
        var inner = "<div class=\"setting\"><label for=\"undo-delay\">Undo send</label> <select id=\"undo-delay\" name=\"undoDelay\" aria-describedby=\"undo-hint\">"
        for seconds in Set(Self.undoChoices + [values.undoDelay]).sorted() {
            inner += "<option value=\"\(seconds)\"\(seconds == values.undoDelay ? " selected" : "")>\(seconds == 0 ? "Off: send at once" : "\(seconds) seconds")</option>"
        }
        inner += "</select><p class=\"hint-text\" id=\"undo-hint\">How long after Send you can still take a message back.</p></div>"
        inner += toggle("markReadOnOpen", "Mark a conversation read when I open it", values.markReadOnOpen)
        inner += radios("remoteImages", "Remote images in mail", values.remoteImages) {
            switch $0 {
            case .never: "Never load them"
            case .ask: "Ask for each message"
            case .knownSenders: "Load them for people I have written to; ask for others"
            }
        }
        inner += radios("theme", "Theme", values.theme) { $0 == .system ? "Same as the system" : $0.rawValue.capitalized }
        inner += radios("density", "Conversation list", values.density) { $0 == .comfortable ? "Comfortable" : "Compact" }
        return "<section class=\"settings-section\" id=\"general\" aria-labelledby=\"general-title\"><h2 id=\"general-title\">General</h2>"
            + form("/settings/general", inner) + "</section>"
    }

    private func notifications() -> String {
        var inner = toggle("notifications", "Desktop notifications for new mail", values.notificationsOn,
                           hint: "When off, new mail is still synced and counted on the badge.")
        inner += toggle("sound", "Play a sound with each notification", values.sound)
        inner += "<fieldset class=\"setting\"><legend>Accounts</legend>"
        for account in accounts {
            inner += toggle("account:\(account.id)", "Notifications for \(account.name) (\(account.email))", values.accountNotifications[account.id] ?? true)
        }
        if accounts.isEmpty { inner += "<p class=\"hint-text\">No account yet.</p>" }
        inner += "</fieldset><fieldset class=\"setting\"><legend>Categories</legend>"
        for category in Self.categories {
            inner += toggle("category:\(category.rawValue)", "Notify for \(category.rawValue.capitalized)", values.categories[category.rawValue] ?? true)
        }
        inner += "</fieldset><fieldset class=\"setting\"><legend>Quiet hours</legend>"
        inner += toggle("quietHours", "Silence notifications during quiet hours", values.quietHoursOn,
                        hint: "Except for VIP contacts. Overnight ranges (22:00 to 07:00) work.")
        inner += "<div class=\"times\"><label for=\"quiet-start\">Quiet hours start time</label><input type=\"time\" id=\"quiet-start\" name=\"quietStart\" value=\"\(Self.clock(values.quietStart))\" required>"
        inner += "<label for=\"quiet-end\">Quiet hours end time</label><input type=\"time\" id=\"quiet-end\" name=\"quietEnd\" value=\"\(Self.clock(values.quietEnd))\" required></div></fieldset>"
        return "<section class=\"settings-section\" id=\"notifications\" aria-labelledby=\"notifications-title\"><h2 id=\"notifications-title\">Notifications</h2>"
            + form("/settings/notifications", inner) + "</section>"
    }

    private func vipList() -> String {
        var out = "<section class=\"settings-section\" aria-labelledby=\"vip-title\"><h3 id=\"vip-title\">VIP contacts</h3>"
        out += "<p class=\"hint-text\">VIP contacts always trigger notifications, even during quiet hours or when their category is off.</p><ul class=\"plain-list\" id=\"vip-list\">"
        for address in values.vips {
            out += "<li aria-label=\"VIP: \(HTML.escape(address))\"><span>\(HTML.escape(address))</span>" + listAction("/settings/vip", "remove", address, "Remove", "Remove VIP \(address)") + "</li>"
        }
        if values.vips.isEmpty { out += "<li class=\"hint-text\">No VIP yet. Add one here or with “Mark sender VIP” on a message.</li>" }
        out += "</ul><form method=\"post\" action=\"/settings/vip\" class=\"inline-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        out += "<label for=\"vip-add\">Add a VIP</label><input type=\"email\" id=\"vip-add\" name=\"add\" placeholder=\"name@example.com\" required><button class=\"tool\">Add</button></form>"
        return out + "</section>"
    }

    private func mutedList() -> String {
        var out = "<section class=\"settings-section\" aria-labelledby=\"muted-title\"><h3 id=\"muted-title\">Muted conversations</h3>"
        out += "<p class=\"hint-text\">Muted conversations never trigger notifications.</p><ul class=\"plain-list\" id=\"muted-list\">"
        for thread in muted {
            out += "<li aria-label=\"Muted thread: \(HTML.escape(thread.subject))\"><span>\(HTML.escape(thread.subject))</span>"
                + listAction("/settings/unmute", "t", thread.id, "Unmute", "Unmute \(thread.subject)") + "</li>"
        }
        if muted.isEmpty { out += "<li class=\"hint-text\">No muted conversation.</li>" }
        return out + "</ul></section>"
    }

    private func listAction(_ action: String, _ name: String, _ value: String, _ label: String, _ aria: String) -> String {
        "<form method=\"post\" action=\"\(action)\" class=\"inline-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
            + "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTML.escape(value))\"><button class=\"link-button\" aria-label=\"\(HTML.escape(aria))\">\(label)</button></form>"
    }

    private func desktop() -> String {
        var out = "<section class=\"settings-section\" aria-labelledby=\"desktop-title\"><h3 id=\"desktop-title\">The desktop's notification server</h3><dl class=\"facts\">"
        if let server = server.server {
            out += "<dt>Server</dt><dd>\(HTML.escape(server))</dd><dt>Can do</dt><dd>\(HTML.escape(self.server.capabilities.joined(separator: ", ")))</dd>"
            out += "<dt>Reply from the banner</dt><dd>\(self.server.inlineReply ? "Yes" : "No: Reply opens the conversation here")</dd>"
        } else {
            out += "<dt>Server</dt><dd>None answered</dd>"
        }
        out += "<dt>Banners</dt><dd>\(server.authorized ? "Shown" : "Not shown")</dd></dl>"
        if let problem = server.problem {
            out += "<p class=\"notice error\" role=\"note\">\(HTML.escape(problem)). Mail is still synced and counted. Start a notification daemon (your desktop's, or dunst/mako on a bare window manager), then reload this page.</p>"
        }
        return out + "</section>"
    }

    private func why() -> String {
        var out = "<section class=\"settings-section\" id=\"why\" aria-labelledby=\"why-title\"><h2 id=\"why-title\">Why did a message notify, or not?</h2>"
        if let askedMissing { out += "<p class=\"notice\" role=\"status\">\(HTML.escape(askedMissing))</p>" }
        if let asked { out += "<div class=\"why-answer\" role=\"status\">\(HTML.escape(Self.sentence(asked)))</div>" }
        out += "<p class=\"hint-text\">The latest decisions, newest first. A message's “Why (not) notified?” link asks about that one.</p>"
        out += "<table class=\"decisions\"><thead><tr><th scope=\"col\">Message</th><th scope=\"col\">Outcome</th><th scope=\"col\">Because</th><th scope=\"col\">When</th></tr></thead><tbody>"
        for decision in decisions {
            out += "<tr><td>\(HTML.escape(decision.subject.isEmpty ? "(no subject)" : decision.subject))<span class=\"hint-text\"> from \(HTML.escape(decision.fromAddress))</span></td>"
            out += "<td>\(Self.outcome(decision.outcome))</td><td>\(HTML.escape(decision.rule.explanation))\(decision.detail.map { " (\(HTML.escape($0)))" } ?? "")</td>"
            out += "<td>\(HTML.escape(dates.string(for: decision.decidedAt)))</td></tr>"
        }
        if decisions.isEmpty { out += "<tr><td colspan=\"4\" class=\"hint-text\">No decision yet: new mail has not arrived since the first sync.</td></tr>" }
        return out + "</tbody></table></section>"
    }

    private func accountList() -> String {
        var out = "<section class=\"settings-section\" id=\"accounts\" aria-labelledby=\"accounts-title\"><h2 id=\"accounts-title\">Accounts</h2><ul class=\"plain-list\">"
        for account in accounts {
            out += "<li><span><strong>\(HTML.escape(account.name))</strong> \(HTML.escape(account.email))</span>"
                + "<a class=\"tool\" href=\"/settings/account?id=\(FormFields.encode(account.id))\" aria-label=\"Settings of \(HTML.escape(account.name))\">Settings</a></li>"
        }
        if accounts.isEmpty { out += "<li class=\"hint-text\">No account yet.</li>" }
        return out + "</ul><p><a class=\"tool\" href=\"/welcome?add=1\">Add an account</a></p></section>"
    }

    static func sentence(_ decision: NotificationDecision) -> String {
        let subject = decision.subject.isEmpty ? "(no subject)" : decision.subject
        return "“\(subject)” from \(decision.fromAddress): \(outcome(decision.outcome).lowercased()), because \(decision.rule.explanation)\(decision.detail.map { " (\($0))" } ?? "")."
    }

    static func outcome(_ outcome: NotificationOutcome) -> String {
        switch outcome {
        case .notified: "Notified"
        case .badgeOnly: "Counted on the badge, no banner"
        case .suppressed: "Not notified"
        case .failed: "Banner failed"
        }
    }

    /// Minutes since midnight as `HH:MM`.
    static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
