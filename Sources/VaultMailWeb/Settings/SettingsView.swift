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
        var afterTriage: AfterTriage = .older
        var dateHeadings = false
        var notificationsOn: Bool
        var sound: Bool
        var accountNotifications: [String: Bool]
        var categories: [String: Bool]
        var vips: [String]
        var quietHoursOn: Bool
        var quietStart: Int
        var quietEnd: Int
        /// What a notification shows (issue 33).
        var content: NotificationContentLevel = .full
        /// Which server vouches for each account's VIP senders, by account id (issue 33).
        var authserv: [String: AuthservTrust] = [:]
    }

    struct Muted {
        var id: String
        var subject: String
    }

    var values: Values
    var accounts: [Account]
    var muted: [Muted]
    /// The account new mail is written from when none is chosen (AC-U-12).
    var defaultAccountId: String?
    /// Conversations marked "notify me" (issue 33).
    var watched: [Muted] = []
    var server: NotificationServerStatus
    var decisions: [NotificationDecision]
    /// The decision asked about (`why=`), shown first.
    var asked: NotificationDecision?
    var askedMissing: String?
    var notice: String?
    var csrf: String
    var dates: RelativeDate
    /// The tracker shield's lists and counts (Settings → Privacy, issue 30); nil: no section.
    var privacy: PrivacyFacts? = nil
    /// What is kept on this machine (Settings → Storage, issue 31), or why it could not be
    /// measured; nil: no section.
    var storage: Result<Storage.Report, StorageFailure>? = nil
    /// Settings → Encryption (issue 32); nil: no section.
    var encryption: Encryption? = nil

    /// Why storage could not be measured, in words.
    struct StorageFailure: Error { var words: String }

    static let undoChoices = [0, 5, 10, 20, 30]
    static let categories: [AICategory] = [.primary, .social, .promotions, .updates, .forums]

    func render() -> Markup {
        struct Model {
            var backIcon: Markup
            var notice: String?
            var privacy: Bool
            var storage: Bool
            var encryption: Bool
            var sections: Markup
        }
        let body = Self.template.render(Model(
            backIcon: Icon.back.svg(), notice: notice, privacy: privacy != nil, storage: storage != nil,
            encryption: encryption != nil,
            sections: general() + privacySection() + notifications() + vipList() + mutedList() + watchedList() + desktop() + why() + accountList()
                + encryptionSection() + storageSection()))
        return Pages.document(title: "Settings — VaultMail", bodyClass: "app settings-page", csrf: csrf, body: body,
                              scripts: [Assets.settingsScript], display: .init(theme: values.theme, density: values.density))
    }

    private static let template = Template("""
        <a class="skip" href="#settings-title">Skip to the settings</a>\
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a><a class="tool" href="/mail">{{{backIcon}}}<span>Back to the mail</span></a></header>\
        <main class="settings-main" id="main"><nav class="settings-nav" aria-label="Settings sections"><ul>\
        <li><a href="#general">General</a></li>{{#privacy}}<li><a href="#privacy">Privacy</a></li>{{/privacy}}<li><a href="#notifications">Notifications</a></li><li><a href="#why">Why it notified</a></li><li><a href="#accounts">Accounts</a></li>\
        {{#encryption}}<li><a href="#encryption">Encryption</a></li>{{/encryption}}\
        {{#storage}}<li><a href="#storage">Storage</a></li>{{/storage}}\
        <li><a href="/settings/ai">On-device AI</a></li>\
        <li><a href="/subscriptions">Subscriptions</a></li>\
        </ul></nav><div class="settings-content"><h1 id="settings-title" tabindex="-1">Settings</h1>\
        <p class="notice" id="settings-status" role="status"{{^notice}} hidden{{/notice}}>{{notice}}</p>\
        {{{sections}}}\
        </div></main>
        """)

    /// A section of the page around one form: `inner` and the form's Save button.
    private func section(_ id: String, _ title: String, action: String, _ inner: Markup) -> Markup {
        struct Model { var id: String; var title: String; var action: String; var csrf: String; var inner: Markup }
        return Self.sectionTemplate.render(Model(id: id, title: title, action: action, csrf: csrf, inner: inner))
    }

    private static let sectionTemplate = Template("""
        <section class="settings-section" id="{{id}}" aria-labelledby="{{id}}-title"><h2 id="{{id}}-title">{{title}}</h2>\
        <form method="post" action="{{action}}" class="settings-form" data-autosave><input type="hidden" name="csrf" value="{{csrf}}">\
        {{{inner}}}<button class="primary save-button">Save</button></form></section>
        """)

    /// A switch: a checkbox with the switch role, its label the whole sentence.
    private func toggle(_ name: String, _ label: String, _ on: Bool, hint: String? = nil) -> Markup {
        struct Model { var id: String; var name: String; var label: String; var on: Bool; var hint: String? }
        return Self.toggleTemplate.render(Model(id: "sw-" + name.replacingOccurrences(of: ":", with: "-"), name: name, label: label, on: on, hint: hint))
    }

    private static let toggleTemplate = Template("""
        <div class="setting"><label class="switch" for="{{id}}"><input type="checkbox" role="switch" id="{{id}}" name="{{name}}" value="1"{{#on}} checked{{/on}}\
        {{#hint}} aria-describedby="{{id}}-hint"{{/hint}}><span class="switch-track" aria-hidden="true"></span><span>{{label}}</span></label>\
        {{#hint}}<p class="hint-text" id="{{id}}-hint">{{hint}}</p>{{/hint}}</div>
        """)

    private struct Choice { var id: String; var name: String; var value: String; var checked: Bool; var label: String }
    private struct Radios { var legend: String; var choices: [Choice] }

    private func radios<T: RawRepresentable & CaseIterable>(_ name: String, _ legend: String, _ current: T, _ label: (T) -> String) -> Markup where T.RawValue == String {
        Self.radiosTemplate.render(Radios(legend: legend, choices: T.allCases.map { choice in
            Choice(id: "\(name)-\(choice.rawValue)", name: name, value: choice.rawValue, checked: choice == current, label: label(choice))
        }))
    }

    private static let radiosTemplate = Template("""
        <fieldset class="setting"><legend>{{legend}}</legend>\
        {{#choices}}<label class="radio" for="{{id}}"><input type="radio" id="{{id}}" name="{{name}}" value="{{value}}"{{#checked}} checked{{/checked}}> {{label}}</label>{{/choices}}\
        </fieldset>
        """)

    private func general() -> Markup {
        struct Option { var seconds: Int; var selected: Bool; var label: String }
        struct Model { var options: [Option] }
        var inner = Self.undoTemplate.render(Model(options: Set(Self.undoChoices + [values.undoDelay]).sorted().map { seconds in
            Option(seconds: seconds, selected: seconds == values.undoDelay, label: seconds == 0 ? "Off: send at once" : "\(seconds) seconds")
        }))
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
        inner += toggle("dateHeadings", "Group the conversation list under date headings", values.dateHeadings,
                        hint: "Today, Yesterday, This week, Last week, Earlier this month, then each month.")
        inner += radios("afterTriage", "After archiving, deleting or moving a conversation, open", values.afterTriage) {
            switch $0 {
            case .newer: "The newer conversation"
            case .older: "The older conversation"
            case .list: "The list"
            }
        }
        return section("general", "General", action: "/settings/general", inner)
    }

    private static let undoTemplate = Template("""
        <div class="setting"><label for="undo-delay">Undo send</label> <select id="undo-delay" name="undoDelay" aria-describedby="undo-hint">\
        {{#options}}<option value="{{seconds}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/options}}\
        </select><p class="hint-text" id="undo-hint">How long after Send you can still take a message back.</p></div>
        """)

    private func notifications() -> Markup {
        struct Model { var accounts: Markup; var none: Bool; var categories: Markup; var quiet: Markup; var start: String; var end: String; var content: Markup; var servers: Markup }
        let inner = toggle("notifications", "Desktop notifications for new mail", values.notificationsOn,
                           hint: "When off, new mail is still synced and counted on the badge.")
            + toggle("sound", "Play a sound with each notification", values.sound)
            + Self.notificationsTemplate.render(Model(
                accounts: accounts.map { account in
                    toggle("account:\(account.id)", "Notifications for \(account.name) (\(account.email))", values.accountNotifications[account.id] ?? true)
                }.joined(),
                none: accounts.isEmpty,
                categories: Self.categories.map { category in
                    toggle("category:\(category.rawValue)", "Notify for \(category.rawValue.capitalized)", values.categories[category.rawValue] ?? true)
                }.joined(),
                quiet: toggle("quietHours", "Silence notifications during quiet hours", values.quietHoursOn,
                              hint: "Except for VIP contacts your mail server has authenticated. When they end, one notification sums up what waited. Overnight ranges (22:00 to 07:00) work."),
                start: Self.clock(values.quietStart), end: Self.clock(values.quietEnd),
                content: radios("content", "What notifications show", values.content) { $0.label },
                servers: accounts.map { account in
                    Self.serverTemplate.render(ServerField(
                        id: "authserv-\(account.id)", name: "authserv:\(account.id)", account: account.name,
                        value: values.authserv[account.id].map { $0.isConfigured ? $0.description : "" } ?? "",
                        auto: values.authserv[account.id].map { $0.isConfigured ? "" : "Now: \($0.description)." } ?? ""))
                }.joined()))
        return section("notifications", "Notifications", action: "/settings/notifications", inner)
    }

    private static let notificationsTemplate = Template("""
        <fieldset class="setting"><legend>Accounts</legend>{{{accounts}}}{{#none}}<p class="hint-text">No account yet.</p>{{/none}}\
        </fieldset><fieldset class="setting"><legend>Categories</legend>{{{categories}}}\
        </fieldset><fieldset class="setting"><legend>Quiet hours</legend>{{{quiet}}}\
        <div class="times"><label for="quiet-start">Quiet hours start time</label><input type="time" id="quiet-start" name="quietStart" value="{{start}}" required>\
        <label for="quiet-end">Quiet hours end time</label><input type="time" id="quiet-end" name="quietEnd" value="{{end}}" required></div></fieldset>\
        {{{content}}}\
        <fieldset class="setting"><legend>Servers that vouch for VIP senders</legend>\
        <p class="hint-text">A VIP's mail breaks through quiet hours only when the Authentication-Results your server adds say the sender passed, so a forged address cannot. Leave empty to use the names of your IMAP server's domain.</p>\
        {{{servers}}}</fieldset>
        """)

    private struct ServerField { var id: String; var name: String; var account: String; var value: String; var auto: String }

    private static let serverTemplate = Template("""
        <div class="setting"><label for="{{id}}">Server name for {{account}}</label> \
        <input type="text" id="{{id}}" name="{{name}}" value="{{value}}" placeholder="auto" spellcheck="false" autocomplete="off" aria-describedby="{{id}}-hint">\
        <p class="hint-text" id="{{id}}-hint">{{auto}} Such as mx.example.com; several separated by commas.</p></div>
        """)

    /// A one-button form of a list (remove a VIP, unmute).
    private struct ListItem {
        var label: String
        var text: String
        var action: String
        var name: String
        var value: String
        var button: String
        var aria: String
    }

    private func vipList() -> Markup {
        struct Model { var items: [ListItem]; var empty: Bool; var csrf: String }
        return Self.vipTemplate.render(Model(items: values.vips.map { address in
            ListItem(label: "VIP: \(address)", text: address, action: "/settings/vip", name: "remove", value: address, button: "Remove",
                     aria: "Remove VIP \(address)")
        }, empty: values.vips.isEmpty, csrf: csrf))
    }

    private static let listItem = """
        {{#items}}<li aria-label="{{label}}"><span>{{text}}</span>\
        <form method="post" action="{{action}}" class="inline-form"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="{{name}}" value="{{value}}"><button class="link-button" aria-label="{{aria}}">{{button}}</button></form></li>{{/items}}
        """

    private static let vipTemplate = Template("""
        <section class="settings-section" aria-labelledby="vip-title"><h3 id="vip-title">VIP contacts</h3>\
        <p class="hint-text">VIP contacts always trigger notifications, even during quiet hours or when their category is off, once your mail server has authenticated the sender.</p><ul class="plain-list" id="vip-list">\
        \(listItem)\
        {{#empty}}<li class="hint-text">No VIP yet. Add one here or with “Mark sender VIP” on a message.</li>{{/empty}}\
        </ul><form method="post" action="/settings/vip" class="inline-form"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label for="vip-add">Add a VIP</label><input type="email" id="vip-add" name="add" placeholder="name@example.com" required><button class="tool">Add</button></form>\
        </section>
        """)

    private func watchedList() -> Markup {
        struct Model { var items: [ListItem]; var empty: Bool; var csrf: String }
        return Self.watchedTemplate.render(Model(items: watched.map { thread in
            ListItem(label: "Notify me: \(thread.subject)", text: thread.subject, action: "/settings/unwatch", name: "t", value: thread.id,
                     button: "Stop", aria: "Stop notifying first for \(thread.subject)")
        }, empty: watched.isEmpty, csrf: csrf))
    }

    private static let watchedTemplate = Template("""
        <section class="settings-section" aria-labelledby="watched-title"><h3 id="watched-title">Notify me about replies</h3>\
        <p class="hint-text">New mail in these conversations comes before other mail when many arrive at once, whatever its category. Replies to mail you sent always do.</p><ul class="plain-list" id="watched-list">\
        \(listItem)\
        {{#empty}}<li class="hint-text">None. Choose “Notify me about replies” under More in a conversation.</li>{{/empty}}\
        </ul></section>
        """)

    private func mutedList() -> Markup {
        struct Model { var items: [ListItem]; var empty: Bool; var csrf: String }
        return Self.mutedTemplate.render(Model(items: muted.map { thread in
            ListItem(label: "Muted thread: \(thread.subject)", text: thread.subject, action: "/settings/unmute", name: "t", value: thread.id,
                     button: "Unmute", aria: "Unmute \(thread.subject)")
        }, empty: muted.isEmpty, csrf: csrf))
    }

    private static let mutedTemplate = Template("""
        <section class="settings-section" aria-labelledby="muted-title"><h3 id="muted-title">Muted conversations</h3>\
        <p class="hint-text">Muted conversations never trigger notifications.</p><ul class="plain-list" id="muted-list">\
        \(listItem)\
        {{#empty}}<li class="hint-text">No muted conversation.</li>{{/empty}}\
        </ul></section>
        """)

    private func desktop() -> Markup {
        struct Server { var name: String; var capabilities: String; var inlineReply: Bool }
        struct Problem { var words: String; var details: Markup }
        struct Model { var server: Server?; var authorized: Bool; var problem: Problem? }
        return Self.desktopTemplate.render(Model(
            server: server.server.map { Server(name: $0, capabilities: server.features.isEmpty ? "Plain text only" : Self.inWords(server.features),
                                                inlineReply: server.inlineReply) },
            authorized: server.authorized, problem: server.problem.map { Problem(words: $0.sentence, details: ProblemView.details($0.detail)) }))
    }

    private static let desktopTemplate = Template("""
        <section class="settings-section" aria-labelledby="desktop-title"><h3 id="desktop-title">The desktop's notification server</h3><dl class="facts">\
        {{#server}}<dt>Shown by</dt><dd>{{name}}</dd><dt>Banners can show</dt><dd>{{capabilities}}</dd>\
        <dt>Reply from the banner</dt><dd>{{#inlineReply}}Yes{{/inlineReply}}{{^inlineReply}}No: Reply opens the conversation here{{/inlineReply}}</dd>{{/server}}\
        {{^server}}<dt>Shown by</dt><dd>No notification program answered</dd>{{/server}}\
        <dt>Banners</dt><dd>{{#authorized}}Shown{{/authorized}}{{^authorized}}Not shown{{/authorized}}</dd></dl>\
        {{#problem}}<p class="notice error" role="note">{{words}} Then reload this page.</p>{{{details}}}{{/problem}}\
        </section>
        """)

    private func why() -> Markup {
        struct Row { var subject: String; var from: String; var outcome: String; var because: String; var detail: String?; var when: String }
        struct Model { var missing: String?; var asked: String?; var rows: [Row]; var empty: Bool }
        return Self.whyTemplate.render(Model(
            missing: askedMissing, asked: asked.map(Self.sentence),
            rows: decisions.map { decision in
                Row(subject: decision.subject.isEmpty ? "(no subject)" : decision.subject, from: decision.fromAddress,
                    outcome: Self.outcome(decision.outcome), because: decision.rule.explanation, detail: decision.detail,
                    when: dates.string(for: decision.decidedAt))
            },
            empty: decisions.isEmpty))
    }

    private static let whyTemplate = Template("""
        <section class="settings-section" id="why" aria-labelledby="why-title"><h2 id="why-title">Why did a message notify, or not?</h2>\
        {{#missing}}<p class="notice" role="status">{{missing}}</p>{{/missing}}\
        {{#asked}}<div class="why-answer" role="status">{{asked}}</div>{{/asked}}\
        <p class="hint-text">The latest decisions, newest first. A message's “Why (not) notified?” link asks about that one.</p>\
        <table class="decisions"><thead><tr><th scope="col">Message</th><th scope="col">Outcome</th><th scope="col">Because</th><th scope="col">When</th></tr></thead><tbody>\
        {{#rows}}<tr><td>{{subject}}<span class="hint-text"> from {{from}}</span></td>\
        <td>{{outcome}}</td><td>{{because}}{{#detail}} ({{detail}}){{/detail}}</td>\
        <td>{{when}}</td></tr>{{/rows}}\
        {{#empty}}<tr><td colspan="4" class="hint-text">No decision yet: new mail has not arrived since the first sync.</td></tr>{{/empty}}\
        </tbody></table></section>
        """)

    private func accountList() -> Markup {
        struct Item { var name: String; var email: String; var url: String; var id: String; var isDefault: Bool; var canBeDefault: Bool }
        struct Model { var accounts: [Item]; var empty: Bool; var csrf: String }
        return Self.accountsTemplate.render(Model(accounts: accounts.map { account in
            Item(name: account.name, email: account.email, url: "/settings/account?id=\(WebForm.escape(account.id))", id: account.id,
                 isDefault: accounts.count > 1 && account.id == defaultAccountId, canBeDefault: accounts.count > 1 && account.id != defaultAccountId)
        }, empty: accounts.isEmpty, csrf: csrf))
    }

    private static let accountsTemplate = Template("""
        <section class="settings-section" id="accounts" aria-labelledby="accounts-title"><h2 id="accounts-title">Accounts</h2><ul class="plain-list">\
        {{#accounts}}<li><span><strong>{{name}}</strong> {{email}}{{#isDefault}} <span class="pill">Default for new mail</span>{{/isDefault}}</span>\
        {{#canBeDefault}}<form method="post" action="/settings/default-account" class="inline-form"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="id" value="{{id}}"><button class="link-button" aria-label="Write new mail from {{name}} by default">Make default</button></form>{{/canBeDefault}}\
        <a class="tool" href="{{url}}" aria-label="Settings of {{name}}">Settings</a></li>{{/accounts}}\
        {{#empty}}<li class="hint-text">No account yet.</li>{{/empty}}\
        </ul><p><a class="tool" href="/welcome?add=1">Add an account</a></p></section>
        """)

    /// "Buttons, links and sounds".
    static func inWords(_ items: [String]) -> String {
        let list = items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        return list.prefix(1).uppercased() + list.dropFirst()
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
