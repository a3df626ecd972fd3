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

    func render() -> String {
        var body = "<main class=\"onboarding\" id=\"main\"><div class=\"onboarding-card\">"
        switch screen {
        case .welcome(let first): body += welcome(first: first)
        case .servers(let form, let check): body += servers(form, check: check)
        case .done(let account): body += done(account)
        }
        body += "</div></main>"
        return Pages.document(title: "Add an account — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body,
                              scripts: [Assets.onboardingScript], display: display)
    }

    private func welcome(first: Bool) -> String {
        var out = first
            ? "<h1>Welcome to VaultMail</h1><p class=\"lead\">Your mail, on this computer. VaultMail talks only to your own mail servers: no account of ours, no cloud, nothing about your mail sent anywhere else.</p>"
            : "<h1>Add an account</h1>"
        out += "<form method=\"get\" action=\"/welcome/servers\" class=\"stack\">"
        out += "<label for=\"email\">Your email address</label><input type=\"email\" id=\"email\" name=\"email\" autocomplete=\"email\" required autofocus placeholder=\"name@example.com\">"
        out += "<label for=\"displayName\">Your name <span class=\"hint-text\">(shown to the people you write to)</span></label><input type=\"text\" id=\"displayName\" name=\"displayName\" autocomplete=\"name\">"
        out += "<button class=\"primary\">Continue</button></form>"
        out += oauthForm()
        if !first { out += "<p><a href=\"/settings#accounts\">Back to the settings</a></p>" }
        return out
    }

    /// Gmail and Outlook without an app password: the provider's own sign-in page, then back here.
    private func oauthForm() -> String {
        var out = "<section class=\"oauth-signin\" aria-labelledby=\"oauth-title\"><h2 id=\"oauth-title\">Or sign in with Google or Microsoft</h2>"
        if !oauth.problems.isEmpty {
            out += "<div class=\"notice error\" role=\"alert\" id=\"oauth-problems\"><ul>" + oauth.problems.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
        }
        out += "<p class=\"hint-text\">Your provider's page asks you to allow VaultMail; VaultMail never sees your password, and keeps the sign-in in your keyring.</p>"
        out += "<form method=\"post\" action=\"/welcome/oauth\" class=\"stack\" id=\"oauth-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        out += field("oauth-name", "Account name", oauth.name, hint: "A short name for the sidebar and the command line, such as gmail or work.", formName: "name")
        out += field("oauth-email", "Email address", oauth.email, type: "email", autocomplete: "email", formName: "email")
        out += "<details\(oauth.clientID.isEmpty ? "" : " open")><summary>Use your own OAuth client</summary>"
        out += field("oauth-client", "Client ID (optional)", oauth.clientID, hint: "Only if VaultMail has none configured; docs/oauth.md says how to register one.", formName: "clientId")
        out += "</details><div class=\"compose-actions\">"
        out += "<button class=\"primary\" type=\"submit\" name=\"provider\" value=\"gmail\" id=\"oauth-google\">Sign in with Google</button>"
        out += "<button class=\"primary\" type=\"submit\" name=\"provider\" value=\"outlook\" id=\"oauth-microsoft\">Sign in with Microsoft</button>"
        return out + "</div></form></section>"
    }

    private func servers(_ form: AccountForm, check: ConnectionCheck?) -> String {
        let provider = MailProvider.forAddress(form.email)
        var out = "<h1>\(provider.isGeneric ? "Your mail servers" : "Sign in to \(HTML.escape(provider.name))")</h1>"
        out += provider.isGeneric
            ? "<p class=\"hint-text\">These are guesses from your address; your provider's help pages give the right ones.</p>"
            : "<p class=\"hint-text\">The servers are filled in from VaultMail's list; nothing was looked up.</p>"
        if let note = provider.note { out += "<p class=\"notice\" role=\"note\">\(HTML.escape(note))</p>" }
        if !form.problems.isEmpty {
            out += "<div class=\"notice error\" role=\"alert\"><ul>" + form.problems.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
        }
        out += "<form method=\"post\" action=\"/welcome/add\" class=\"stack\" id=\"account-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        out += field("email", "Email address", form.email, type: "email", autocomplete: "email")
        out += field("displayName", "Your name", form.displayName, autocomplete: "name")
        out += "<label for=\"password\">Password</label><input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" aria-describedby=\"password-hint\">"
        out += "<p class=\"hint-text\" id=\"password-hint\">Kept in your desktop's keyring (Secret Service), never in VaultMail's files, and never shown again.</p>"
        out += "<details\(form.passwordCommand.isEmpty ? "" : " open")><summary>Use a password command instead</summary>"
        out += field("passwordCommand", "Command that prints the password", form.passwordCommand, hint: "Run with /bin/sh each time VaultMail signs in, such as pass show mail/work.")
        out += "</details><details\(form.problems.isEmpty && provider.isGeneric == false ? "" : " open")><summary>Servers and account name</summary><div class=\"stack\">"
        out += field("name", "Account name", form.name, hint: "A short name for the sidebar and the command line.")
        out += field("username", "User name", form.username)
        out += "<div class=\"pair\">" + field("imapHost", "IMAP server", form.imapHost) + field("imapPort", "Port", form.imapPort, type: "number") + "</div>"
        out += "<div class=\"pair\">" + field("smtpHost", "SMTP server", form.smtpHost) + field("smtpPort", "Port", form.smtpPort, type: "number") + "</div>"
        out += "<fieldset><legend>Security</legend>"
        for (value, label) in [(ConnectionSecurity.tls, "TLS (ports 993 and 465; 587 upgrades with STARTTLS)"), (.starttls, "STARTTLS (ports 143 and 587)")] {
            out += "<label class=\"radio\"><input type=\"radio\" name=\"security\" value=\"\(value.rawValue)\"\(form.security == value ? " checked" : "")> \(label)</label>"
        }
        out += "</fieldset>"
        out += field("caFile", "CA certificate file (optional)", form.caFile, hint: "For a server whose certificate your system does not trust: the PEM file of its authority.")
        out += SyncWindow.select(form.syncWindowDays)
        out += "</div></details>"
        out += "<div id=\"check-result\" aria-live=\"polite\">" + (check.map(Self.checkReport) ?? "") + "</div>"
        out += "<div class=\"compose-actions\"><button class=\"tool\" type=\"submit\" formaction=\"/welcome/check\" id=\"check\">Test connection</button>"
        out += "<button class=\"primary\" type=\"submit\" id=\"add\">Add account</button></div></form>"
        return out
    }

    private func done(_ account: Account) -> String {
        "<h1>\(HTML.escape(account.name)) is ready</h1><p class=\"lead\">VaultMail is fetching your mail now; the newest arrives first.</p>"
            + "<p>One more step, if you like: <a href=\"/welcome/ai\" id=\"to-ai\">sort and search your mail by meaning</a>, with a model that runs on this computer.</p>"
            + "<p><a class=\"primary button-link\" href=\"/mail\" id=\"to-mail\">Go to your mail</a> <a href=\"/welcome?add=1\">Add another account</a></p>"
    }

    private func field(_ name: String, _ label: String, _ value: String, type: String = "text", autocomplete: String = "off", hint: String? = nil,
                       formName: String? = nil) -> String {
        var out = "<div class=\"stack-field\"><label for=\"\(name)\">\(label)</label><input type=\"\(type)\" id=\"\(name)\" name=\"\(formName ?? name)\" value=\"\(HTML.escape(value))\" autocomplete=\"\(autocomplete)\""
        if hint != nil { out += " aria-describedby=\"\(name)-hint\"" }
        out += ">"
        if let hint { out += "<p class=\"hint-text\" id=\"\(name)-hint\">\(HTML.escape(hint))</p>" }
        return out + "</div>"
    }

    /// The steps of a connection test, the failed one with what to do.
    static func checkReport(_ check: ConnectionCheck) -> String {
        var out = "<div class=\"conn-check \(check.passed ? "passed" : "failed")\" role=\"\(check.passed ? "status" : "alert")\">"
        out += "<p><strong>\(check.passed ? "Everything works: VaultMail can read and send your mail." : "The connection test failed.")</strong></p><ol>"
        for step in check.steps {
            out += "<li class=\"\(step.passed ? "ok" : "bad")\"><span class=\"visually-hidden\">\(step.passed ? "Passed" : "Failed"): </span>\(HTML.escape(step.name))"
            if !step.passed { out += "<br><span class=\"detail\">\(HTML.escape(step.detail))</span>" }
            out += "</li>"
        }
        return out + "</ol></div>"
    }
}

/// How much mail is kept here: the account's sync window (AC-U-14).
enum SyncWindow {
    static let choices: [(Int, String)] = [
        (7, "The last week"), (30, "The last 30 days"), (90, "The last 3 months"), (365, "The last year"),
        (AppConstants.allMailSyncWindowDays, "All mail"),
    ]

    static func select(_ days: Int) -> String {
        var out = "<div class=\"stack-field\"><label for=\"syncWindow\">Mail kept on this computer</label><select id=\"syncWindow\" name=\"syncWindow\">"
        for (value, label) in choices + (choices.contains { $0.0 == days } ? [] : [(days, "The last \(days) days")]) {
            out += "<option value=\"\(value)\"\(value == days ? " selected" : "")>\(label)</option>"
        }
        return out + "</select></div>"
    }
}
