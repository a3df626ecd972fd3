import VaultMailCore

/// One account's settings (AC-U-12, AC-U-14): its name, your name, signature, how much mail
/// is kept here, notifications; and removal, which asks first (AC-SEC-03).
struct AccountSettingsView {
    var account: Account
    var signature: String
    var notifications: Bool
    var problems: [String]
    var confirmRemoval: Bool
    var csrf: String
    var display: Pages.Display
    /// What the daemon says is wrong with the account's connection ("sign in again").
    var connectionProblem: String?

    func render() -> String {
        var body = "<header class=\"topbar\"><a class=\"brand\" href=\"/mail\">VaultMail</a><a class=\"tool\" href=\"/settings#accounts\">\(Icon.back.svg())<span>Back to the settings</span></a></header>"
        body += "<main class=\"onboarding\" id=\"main\"><div class=\"onboarding-card\">"
        let hidden = "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\"><input type=\"hidden\" name=\"id\" value=\"\(HTML.escape(account.id))\">"
        if confirmRemoval {
            body += "<h1>Remove \(HTML.escape(account.name))?</h1><p class=\"lead\">This deletes everything VaultMail keeps for \(HTML.escape(account.email)) on this computer: its mail, drafts, settings and its password in the keyring. The mail on the server is not touched.</p>"
            body += "<form method=\"post\" action=\"/settings/account/remove\" class=\"compose-actions\">\(hidden)<button class=\"primary danger-button\" id=\"confirm-remove\">Remove \(HTML.escape(account.name))</button>"
            body += "<a class=\"tool\" href=\"/settings/account?id=\(FormFields.encode(account.id))\">Keep it</a></form>"
        } else {
            body += "<h1>\(HTML.escape(account.name))</h1><p class=\"hint-text\">\(HTML.escape(account.email)) · IMAP \(HTML.escape(account.imapHost)):\(account.imapPort) · SMTP \(HTML.escape(account.smtpHost)):\(account.smtpPort)</p>"
            if !problems.isEmpty {
                body += "<div class=\"notice error\" role=\"alert\"><ul>" + problems.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
            }
            body += signInAgain(hidden)
            body += "<form method=\"post\" action=\"/settings/account\" class=\"stack\">\(hidden)"
            body += "<div class=\"stack-field\"><label for=\"name\">Account name</label><input type=\"text\" id=\"name\" name=\"name\" value=\"\(HTML.escape(account.name))\" required></div>"
            body += "<div class=\"stack-field\"><label for=\"displayName\">Your name</label><input type=\"text\" id=\"displayName\" name=\"displayName\" value=\"\(HTML.escape(account.displayName ?? ""))\"></div>"
            body += "<div class=\"stack-field\"><label for=\"signature\">Signature</label><textarea id=\"signature\" name=\"signature\" rows=\"4\" aria-describedby=\"signature-hint\">\(HTML.escape(signature))</textarea>"
            body += "<p class=\"hint-text\" id=\"signature-hint\">Placed below what you write, after “-- ”.</p></div>"
            body += SyncWindow.select(account.syncWindowDays)
            body += "<div class=\"setting\"><label class=\"switch\" for=\"sw-notify\"><input type=\"checkbox\" role=\"switch\" id=\"sw-notify\" name=\"notifications\" value=\"1\"\(notifications ? " checked" : "")><span class=\"switch-track\" aria-hidden=\"true\"></span><span>Notifications for \(HTML.escape(account.name)) (\(HTML.escape(account.email)))</span></label></div>"
            body += "<div class=\"compose-actions\"><button class=\"primary\">Save</button></div></form>"
            body += "<form method=\"get\" action=\"/settings/account/remove\" class=\"danger-zone\"><input type=\"hidden\" name=\"id\" value=\"\(HTML.escape(account.id))\"><button class=\"tool danger\">Remove this account…</button></form>"
        }
        body += "</div></main>"
        return Pages.document(title: "\(account.name) — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body, scripts: [], display: display)
    }

    /// An account that signs in with its provider: "Sign in again" runs the sign-in once more
    /// (its mail stays); an alert says so when the provider revoked the sign-in.
    private func signInAgain(_ hidden: String) -> String {
        guard account.authMethod == .oauth2, account.credentialCommand == nil else { return "" }
        var out = "<section class=\"oauth-signin\" aria-labelledby=\"signin-again-title\">"
        if connectionProblem == "sign in again" {
            out += "<div class=\"notice error\" role=\"alert\" id=\"signin-again-alert\"><p><strong id=\"signin-again-title\">Sign in again to \(HTML.escape(account.name))</strong></p>"
            out += "<p>Your provider no longer accepts VaultMail's sign-in. Sign in again; all your mail stays on this computer.</p></div>"
        } else {
            out += "<h2 id=\"signin-again-title\">Sign-in</h2><p class=\"hint-text\">\(HTML.escape(account.name)) signs in with its provider; the sign-in is kept in your keyring.</p>"
        }
        out += "<form method=\"post\" action=\"/settings/account/reauth\">\(hidden)<button class=\"primary\" id=\"sign-in-again\">Sign in again</button></form>"
        return out + "</section>"
    }
}
