import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// The Autocrypt Setup Message in the web app (issue 32), through Core's `AutocryptSetup`:
    /// - `POST /settings/encryption/setup-message` (`account`): sends one and answers with the
    ///   settings page showing its setup code, this once (the answer is not cached; the code is
    ///   never in an address, a log or the store).
    /// - `POST /openpgp/import-setup` (`email`, `setupCode`, `return`), from a received setup
    ///   message's "Import this key": back to the conversation with what happened.
    func addEncryptionRoutes(to router: Router<WebRequestContext>) {
        router.post("/settings/encryption/setup-message") { _, context -> Response in
            let form = try context.form(SetupMessageForm.self)
            var view = await self.settingsView(SettingsQuery(), csrf: self.csrf(context: context))
            guard let setup = self.mail.autocryptSetup, var encryption = view.encryption else {
                return Pages.plain(.notFound, "This VaultMail writes no encrypted mail.")
            }
            guard let account = encryption.accounts.first(where: { $0.id == form.account }) else {
                encryption.failure = "That account no longer exists."
                view.encryption = encryption
                return Pages.html(view.render(), status: .badRequest)
            }
            do {
                let sent = try await setup.sendSetupMessage(account: account)
                encryption.sent = SettingsView.SentCode(address: account.email, lines: sent.code.shown.split(separator: "\n").map(String.init),
                                                        waiting: sent.waiting)
            } catch {
                encryption.failure = "No setup message was sent: " + PlainWords.of(error)
            }
            view.encryption = encryption
            var response = Pages.html(view.render(), status: encryption.failure == nil ? .ok : .badGateway)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.post("/openpgp/import-setup") { _, context -> Response in
            let form = try context.form(ImportSetupForm.self)
            let target = Self.safeReturn(form.returnTo)
            guard let setup = self.mail.autocryptSetup else { return Pages.redirect(Self.withNotice(target, "This VaultMail writes no encrypted mail.")) }
            do {
                let (account, key) = try await setup.importSetupMessage(emailId: form.email ?? "", typedCode: form.setupCode ?? "")
                return Pages.redirect(Self.withNotice(target, "\(account.email) now uses the key from this setup message "
                                                      + "(fingerprint \(key.fingerprint)). Its earlier key stays, so older mail still opens."))
            } catch {
                return Pages.redirect(Self.withNotice(target, "Not imported: " + PlainWords.of(error)))
            }
        }
    }

    private struct SetupMessageForm: Decodable {
        var account: String?
    }

    private struct ImportSetupForm: Decodable {
        var email: String?
        var setupCode: String?
        var returnTo: String?

        private enum CodingKeys: String, CodingKey { case email, setupCode, returnTo = "return" }
    }
}
