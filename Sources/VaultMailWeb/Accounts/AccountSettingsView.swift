import VaultMailCore

/// One account's settings (AC-U-12, AC-U-14): its name, your name, signature, how much mail
/// is kept here, notifications; and removal, which asks first (AC-SEC-03).
struct AccountSettingsView {
    var account: Account
    var signature: String
    var notifications: Bool
    var problems: [PlainProblem]
    var confirmRemoval: Bool
    var csrf: String
    var display: Pages.Display
    /// What the daemon says is wrong with the account's connection (`PlainWords.signInAgain`).
    var connectionProblem: String?

    func render() -> Markup {
        struct Model {
            var backIcon: Markup
            var csrf: String
            var id: String
            var name: String
            var email: String
            var confirmRemoval: Bool
            var keepURL: String
            var servers: String
            var problems: Markup
            var signInAgain: Markup
            var displayName: String
            var signature: String
            var syncWindow: Markup
            var notifications: Bool
        }
        let body = Self.template.render(Model(
            backIcon: Icon.back.svg(), csrf: csrf, id: account.id, name: account.name, email: account.email, confirmRemoval: confirmRemoval,
            keepURL: "/settings/account?id=\(WebForm.escape(account.id))",
            servers: "IMAP \(account.imapHost):\(account.imapPort) · SMTP \(account.smtpHost):\(account.smtpPort)",
            problems: ProblemView.list(problems), signInAgain: signInAgain(), displayName: account.displayName ?? "",
            signature: signature, syncWindow: SyncWindow.select(account.syncWindowDays), notifications: notifications))
        return Pages.document(title: "\(account.name) — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body, scripts: [], display: display)
    }

    /// The account's hidden fields in each of its forms.
    private static let hidden = """
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}">
        """

    private static let template = Template("""
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a><a class="tool" href="/settings#accounts">{{{backIcon}}}<span>Back to the settings</span></a></header>\
        <main class="onboarding" id="main"><div class="onboarding-card">\
        {{#confirmRemoval}}<h1>Remove {{name}}?</h1><p class="lead">This deletes everything VaultMail keeps for {{email}} on this computer: its mail, drafts, settings and its password in the keyring. The mail on the server is not touched.</p>\
        <form method="post" action="/settings/account/remove" class="compose-actions">\(hidden)<button class="primary danger-button" id="confirm-remove">Remove {{name}}</button>\
        <a class="tool" href="{{keepURL}}">Keep it</a></form>{{/confirmRemoval}}\
        {{^confirmRemoval}}<h1>{{name}}</h1><p class="hint-text">{{email}} · {{servers}}</p>\
        {{{problems}}}\
        {{{signInAgain}}}\
        <form method="post" action="/settings/account" class="stack">\(hidden)\
        <div class="stack-field"><label for="name">Account name</label><input type="text" id="name" name="name" value="{{name}}" required></div>\
        <div class="stack-field"><label for="displayName">Your name</label><input type="text" id="displayName" name="displayName" value="{{displayName}}"></div>\
        <div class="stack-field"><label for="signature">Signature</label><textarea id="signature" name="signature" rows="4" aria-describedby="signature-hint">{{signature}}</textarea>\
        <p class="hint-text" id="signature-hint">Placed below what you write, after “-- ”.</p></div>{{{syncWindow}}}\
        <div class="setting"><label class="switch" for="sw-notify"><input type="checkbox" role="switch" id="sw-notify" name="notifications" value="1"{{#notifications}} checked{{/notifications}}><span class="switch-track" aria-hidden="true"></span><span>Notifications for {{name}} ({{email}})</span></label></div>\
        <div class="compose-actions"><button class="primary">Save</button></div></form>\
        <form method="get" action="/settings/account/remove" class="danger-zone"><input type="hidden" name="id" value="{{id}}"><button class="tool danger">Remove this account…</button></form>{{/confirmRemoval}}\
        </div></main>
        """)

    /// An account that signs in with its provider: "Sign in again" runs the sign-in once more
    /// (its mail stays); an alert says so when the provider revoked the sign-in.
    private func signInAgain() -> Markup {
        guard account.authMethod == .oauth2, account.credentialCommand == nil else { return .empty }
        struct Model { var revoked: Bool; var name: String; var csrf: String; var id: String }
        return Self.signInAgainTemplate.render(Model(revoked: connectionProblem == PlainWords.signInAgain, name: account.name, csrf: csrf, id: account.id))
    }

    private static let signInAgainTemplate = Template("""
        <section class="oauth-signin" aria-labelledby="signin-again-title">\
        {{#revoked}}<div class="notice error" role="alert" id="signin-again-alert"><p><strong id="signin-again-title">Sign in again to {{name}}</strong></p>\
        <p>Your provider no longer accepts VaultMail's sign-in. Sign in again; all your mail stays on this computer.</p></div>{{/revoked}}\
        {{^revoked}}<h2 id="signin-again-title">Sign-in</h2><p class="hint-text">{{name}} signs in with its provider; the sign-in is kept in your keyring.</p>{{/revoked}}\
        <form method="post" action="/settings/account/reauth">\(hidden)<button class="primary" id="sign-in-again">Sign in again</button></form>\
        </section>
        """)
}
