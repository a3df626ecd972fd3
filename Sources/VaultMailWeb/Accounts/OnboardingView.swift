import VaultMailCore

/// Setting up an account as a newcomer does (AC-U-13, at most three screens): the address
/// first, then the servers filled in from the provider list with the password and "Test
/// connection", then done. Also what "Add an account" in the settings opens.
struct OnboardingView {
    enum Screen {
        case welcome(firstAccount: Bool)
        case servers(AccountForm, check: ConnectionCheck?)
        case done(Account)
    }

    var screen: Screen
    var csrf: String
    var display: Pages.Display
    /// "Sign in with Google / Microsoft" on the welcome screen: what was typed, what went wrong.
    var oauth = OAuthFields()

    func render() -> Markup {
        struct Model { var screen: Markup }
        let screen: Markup = switch self.screen {
        case .welcome(let first): welcome(first: first)
        case .servers(let form, let check): servers(form, check: check)
        case .done(let account): done(account)
        }
        return Pages.document(title: "Add an account — VaultMail", bodyClass: "app onboarding-page", csrf: csrf,
                              body: Self.template.render(Model(screen: screen)), scripts: [Assets.onboardingScript], display: display)
    }

    private static let template = Template("""
        <main class="onboarding" id="main"><div class="onboarding-card">{{{screen}}}</div></main>
        """)

    private func welcome(first: Bool) -> Markup {
        struct Model { var first: Bool; var oauth: Markup }
        return Self.welcomeTemplate.render(Model(first: first, oauth: oauthForm()))
    }

    private static let welcomeTemplate = Template("""
        {{#first}}<h1>Welcome to VaultMail</h1><p class="lead">Your mail, on this computer. VaultMail talks only to your own mail servers: no account of ours, no cloud, nothing about your mail sent anywhere else.</p>{{/first}}\
        {{^first}}<h1>Add an account</h1>{{/first}}\
        <form method="get" action="/welcome/servers" class="stack">\
        <label for="email">Your email address</label><input type="email" id="email" name="email" autocomplete="email" required autofocus placeholder="name@example.com">\
        <label for="displayName">Your name <span class="hint-text">(shown to the people you write to)</span></label><input type="text" id="displayName" name="displayName" autocomplete="name">\
        <button class="primary">Continue</button></form>{{{oauth}}}\
        {{^first}}<p><a href="/settings#accounts">Back to the settings</a></p>{{/first}}
        """)

    /// Gmail and Outlook without an app password: the provider's own sign-in page, then back here.
    private func oauthForm() -> Markup {
        struct Model { var problems: Markup; var csrf: String; var name: Markup; var email: Markup; var ownClient: Bool; var client: Markup }
        return Self.oauthTemplate.render(Model(
            problems: ProblemView.list(oauth.problems, id: "oauth-problems"), csrf: csrf,
            name: field("oauth-name", "Account name", oauth.name, hint: "A short name for the sidebar and the command line, such as gmail or work.", formName: "name"),
            email: field("oauth-email", "Email address", oauth.email, type: "email", autocomplete: "email", formName: "email"),
            ownClient: !oauth.clientID.isEmpty,
            client: field("oauth-client", "Client ID (optional)", oauth.clientID, hint: "Only if VaultMail has none configured; docs/oauth.md says how to register one.", formName: "clientId")))
    }

    private static let oauthTemplate = Template("""
        <section class="oauth-signin" aria-labelledby="oauth-title"><h2 id="oauth-title">Or sign in with Google or Microsoft</h2>\
        {{{problems}}}\
        <p class="hint-text">Your provider's page asks you to allow VaultMail; VaultMail never sees your password, and keeps the sign-in in your keyring.</p>\
        <form method="post" action="/welcome/oauth" class="stack" id="oauth-form"><input type="hidden" name="csrf" value="{{csrf}}">{{{name}}}{{{email}}}\
        <details{{#ownClient}} open{{/ownClient}}><summary>Use your own OAuth client</summary>{{{client}}}\
        </details><div class="compose-actions">\
        <button class="primary" type="submit" name="provider" value="gmail" id="oauth-google">Sign in with Google</button>\
        <button class="primary" type="submit" name="provider" value="outlook" id="oauth-microsoft">Sign in with Microsoft</button>\
        </div></form></section>
        """)

    private func servers(_ form: AccountForm, check: ConnectionCheck?) -> Markup {
        struct Security { var value: String; var checked: Bool; var label: String }
        struct Model {
            var generic: Bool
            var provider: String
            var note: String?
            var problems: Markup
            var csrf: String
            var fields: Markup
            var usesCommand: Bool
            var command: Markup
            var serversOpen: Bool
            var servers: Markup
            var security: [Security]
            var caFile: Markup
            var syncWindow: Markup
            var check: Markup
        }
        let provider = MailProvider.forAddress(form.email)
        let servers = field("name", "Account name", form.name, hint: "A short name for the sidebar and the command line.")
            + field("username", "User name", form.username)
            + Self.pairTemplate.render(Pair(first: field("imapHost", "IMAP server", form.imapHost), second: field("imapPort", "Port", form.imapPort, type: "number")))
            + Self.pairTemplate.render(Pair(first: field("smtpHost", "SMTP server", form.smtpHost), second: field("smtpPort", "Port", form.smtpPort, type: "number")))
        return Self.serversTemplate.render(Model(
            generic: provider.isGeneric, provider: provider.name, note: provider.note, problems: ProblemView.list(form.problems),
            csrf: csrf, fields: field("email", "Email address", form.email, type: "email", autocomplete: "email")
                + field("displayName", "Your name", form.displayName, autocomplete: "name"),
            usesCommand: !form.passwordCommand.isEmpty,
            command: field("passwordCommand", "Command that prints the password", form.passwordCommand, hint: "Run with /bin/sh each time VaultMail signs in, such as pass show mail/work."),
            serversOpen: !(form.problems.isEmpty && provider.isGeneric == false), servers: servers,
            security: [(ConnectionSecurity.tls, "TLS (ports 993 and 465; 587 upgrades with STARTTLS)"), (.starttls, "STARTTLS (ports 143 and 587)")].map {
                Security(value: $0.0.rawValue, checked: form.security == $0.0, label: $0.1)
            },
            caFile: field("caFile", "CA certificate file (optional)", form.caFile, hint: "For a server whose certificate your system does not trust: the PEM file of its authority."),
            syncWindow: SyncWindow.select(form.syncWindowDays), check: check.map(Self.checkReport) ?? .empty))
    }

    private struct Pair { var first: Markup; var second: Markup }

    private static let pairTemplate = Template("""
        <div class="pair">{{{first}}}{{{second}}}</div>
        """)

    private static let serversTemplate = Template("""
        {{#generic}}<h1>Your mail servers</h1><p class="hint-text">These are guesses from your address; your provider's help pages give the right ones.</p>{{/generic}}\
        {{^generic}}<h1>Sign in to {{provider}}</h1><p class="hint-text">The servers are filled in from VaultMail's list; nothing was looked up.</p>{{/generic}}\
        {{#note}}<p class="notice" role="note">{{note}}</p>{{/note}}\
        {{{problems}}}\
        <form method="post" action="/welcome/add" class="stack" id="account-form"><input type="hidden" name="csrf" value="{{csrf}}">{{{fields}}}\
        <label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" aria-describedby="password-hint">\
        <p class="hint-text" id="password-hint">Kept in your desktop's keyring (Secret Service), never in VaultMail's files, and never shown again.</p>\
        <details{{#usesCommand}} open{{/usesCommand}}><summary>Use a password command instead</summary>{{{command}}}\
        </details><details{{#serversOpen}} open{{/serversOpen}}><summary>Servers and account name</summary><div class="stack">{{{servers}}}\
        <fieldset><legend>Security</legend>\
        {{#security}}<label class="radio"><input type="radio" name="security" value="{{value}}"{{#checked}} checked{{/checked}}> {{label}}</label>{{/security}}\
        </fieldset>{{{caFile}}}{{{syncWindow}}}\
        </div></details>\
        <div id="check-result" aria-live="polite">{{{check}}}</div>\
        <div class="compose-actions"><button class="tool" type="submit" formaction="/welcome/check" id="check">Test connection</button>\
        <button class="primary" type="submit" id="add">Add account</button></div></form>
        """)

    private func done(_ account: Account) -> Markup {
        struct Model { var name: String }
        return Self.doneTemplate.render(Model(name: account.name))
    }

    private static let doneTemplate = Template("""
        <h1>{{name}} is ready</h1><p class="lead">VaultMail is fetching your mail now; the newest arrives first.</p>\
        <p>One more step, if you like: <a href="/welcome/ai" id="to-ai">sort and search your mail by meaning</a>, with a model that runs on this computer.</p>\
        <p><a class="primary button-link" href="/mail" id="to-mail">Go to your mail</a> <a href="/welcome?add=1">Add another account</a></p>
        """)

    private func field(_ name: String, _ label: String, _ value: String, type: String = "text", autocomplete: String = "off", hint: String? = nil,
                       formName: String? = nil) -> Markup {
        struct Model { var id: String; var label: String; var type: String; var name: String; var value: String; var autocomplete: String; var hint: String? }
        return Self.fieldTemplate.render(Model(id: name, label: label, type: type, name: formName ?? name, value: value, autocomplete: autocomplete, hint: hint))
    }

    private static let fieldTemplate = Template("""
        <div class="stack-field"><label for="{{id}}">{{label}}</label><input type="{{type}}" id="{{id}}" name="{{name}}" value="{{value}}" autocomplete="{{autocomplete}}"\
        {{#hint}} aria-describedby="{{id}}-hint"{{/hint}}>{{#hint}}<p class="hint-text" id="{{id}}-hint">{{hint}}</p>{{/hint}}</div>
        """)

    /// The steps of a connection test, the failed one with what to do.
    /// The steps of "Test connection": a failed one says what happened and what to do, its
    /// technical detail (the server, the port, its words) behind "Details" (issue 29).
    static func checkReport(_ check: ConnectionCheck) -> Markup {
        struct Step { var passed: Bool; var name: String; var words: String; var detail: Markup }
        struct Model { var passed: Bool; var steps: [Step] }
        return checkTemplate.render(Model(passed: check.passed, steps: check.steps.map {
            Step(passed: $0.passed, name: $0.name, words: $0.problem?.words ?? "", detail: ProblemView.details($0.problem?.detail))
        }))
    }

    private static let checkTemplate = Template("""
        <div class="conn-check {{#passed}}passed{{/passed}}{{^passed}}failed{{/passed}}" role="{{#passed}}status{{/passed}}{{^passed}}alert{{/passed}}">\
        <p><strong>{{#passed}}Everything works: VaultMail can read and send your mail.{{/passed}}{{^passed}}The connection test failed.{{/passed}}</strong></p><ol>\
        {{#steps}}<li class="{{#passed}}ok{{/passed}}{{^passed}}bad{{/passed}}"><span class="visually-hidden">{{#passed}}Passed{{/passed}}{{^passed}}Failed{{/passed}}: </span>{{name}}\
        {{^passed}}<br><span class="detail">{{words}}</span>{{{detail}}}{{/passed}}</li>{{/steps}}\
        </ol></div>
        """)
}

/// How much mail is kept here: the account's sync window (AC-U-14).
enum SyncWindow {
    static let choices: [(Int, String)] = [
        (7, "The last week"), (30, "The last 30 days"), (90, "The last 3 months"), (365, "The last year"),
        (AppConstants.allMailSyncWindowDays, "All mail"),
    ]

    static func select(_ days: Int) -> Markup {
        struct Option { var value: Int; var selected: Bool; var label: String }
        struct Model { var options: [Option] }
        let all = choices + (choices.contains { $0.0 == days } ? [] : [(days, "The last \(days) days")])
        return template.render(Model(options: all.map { Option(value: $0.0, selected: $0.0 == days, label: $0.1) }))
    }

    private static let template = Template("""
        <div class="stack-field"><label for="syncWindow">Mail kept on this computer</label><select id="syncWindow" name="syncWindow">\
        {{#options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/options}}\
        </select></div>
        """)
}
