import Foundation
import VaultMailCore

extension SettingsView {
    /// Settings → Encryption (issue 32): per account, "Send Autocrypt Setup Message", and once
    /// sent, the setup code — on this page only, which is never kept or sent anywhere.
    struct Encryption {
        var accounts: [Account]
        /// The message just sent and its code, shown this once.
        var sent: SentCode?
        /// Why it could not be sent, in words.
        var failure: String?
    }

    struct SentCode {
        var address: String
        var lines: [String]
        var waiting: String?
    }

    func encryptionSection() -> Markup {
        guard let encryption else { return .empty }
        struct Row { var id: String; var name: String; var email: String; var csrf: String }
        struct Model {
            var rows: [Row]
            var sent: SentCode?
            var failure: String?
        }
        let rows = encryption.accounts.map { Row(id: $0.id, name: $0.name, email: $0.email, csrf: csrf) }
        return Self.encryptionTemplate.render(Model(rows: rows, sent: encryption.sent, failure: encryption.failure))
    }

    private static let encryptionTemplate = Template("""
        <section class="settings-section" id="encryption" aria-labelledby="encryption-title"><h2 id="encryption-title">Encryption</h2>\
        <p class="hint">Each account has its own encryption key, made when first needed. An Autocrypt Setup Message sends that key, \
        locked with a setup code, to the account itself, so another mail app (Thunderbird, K-9 Mail, another VaultMail) can import it \
        and read and write the same encrypted mail.</p>\
        {{#failure}}<p class="notice error" role="alert">{{failure}}</p>{{/failure}}\
        {{#sent}}<div class="notice setup-code" role="alert"><p>The setup message was sent to {{address}}{{#waiting}} \
        (it waits in the outbox: {{waiting}}){{/waiting}}. Write this setup code down now: it is shown only this once, and \
        VaultMail keeps it nowhere.</p><p class="setup-code-digits" aria-label="Setup code">{{#lines}}<code>{{.}}</code><br>{{/lines}}</p>\
        <p>In your other app, open the message “Autocrypt Setup Message” and type this code.</p></div>{{/sent}}\
        <ul class="plain-list">{{#rows}}<li><form method="post" action="/settings/encryption/setup-message#encryption">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="account" value="{{id}}">\
        <span>{{name}} <span class="address">{{email}}</span></span> \
        <button class="tool">Send Autocrypt Setup Message<span class="visually-hidden"> for {{email}}</span></button></form></li>{{/rows}}</ul>\
        </section>
        """)
}
