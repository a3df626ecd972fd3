import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// Onboarding (`/welcome`), "Test connection", adding an account, and one account's
    /// settings and removal. Passwords are posted once, go to the Secret Service, and are never
    /// written into a page.
    func addAccountRoutes(to router: Router<WebRequestContext>) {
        router.get("/welcome") { request, context -> Response in
            let accounts = (try? await self.mail.accountService.all()) ?? []
            let failures = await self.mail.administration.unseenOAuthFailures()
            return await self.onboarding(.welcome(firstAccount: accounts.isEmpty), context, oauth: OAuthFields(problems: failures))
        }
        // "Sign in with Google / Microsoft": the daemon starts the sign-in and hands the browser
        // on to the consent page; the provider sends it to the loopback listener, whose page leads
        // back to GET /welcome/oauth.
        router.post("/welcome/oauth") { request, context -> Response in
            let form = try context.form(OAuthFields.Posted.self)
            var fields = OAuthFields(name: (form.name ?? "").trimmingCharacters(in: .whitespaces),
                                     email: (form.email ?? "").trimmingCharacters(in: .whitespaces),
                                     clientID: (form.clientId ?? "").trimmingCharacters(in: .whitespaces))
            let provider = form.provider ?? ""
            do {
                let started = try await self.mail.administration.startOAuthSignIn(
                    OAuthAccountRequest(name: fields.name, email: fields.email, provider: provider,
                                        clientID: fields.clientID.isEmpty ? nil : fields.clientID),
                    returnTo: self.oauthReturn(request))
                return Pages.consentHandoff(started.consentURL)
            } catch {
                fields.problems = [PlainProblem(error)]
                let accounts = (try? await self.mail.accountService.all()) ?? []
                return await self.onboarding(.welcome(firstAccount: accounts.isEmpty), context, oauth: fields)
            }
        }
        router.get("/welcome/oauth") { request, context -> Response in
            let id = try request.query(AccountQuery.self).signin ?? ""
            let accounts = (try? await self.mail.accountService.all()) ?? []
            switch await self.mail.administration.oauthSignInOutcome(id: id, wait: .seconds(30)) {
            case .signedIn(let accountId, let reauthorized, let message)?:
                await self.mail.contacts.invalidate()
                await self.events.publish(.changed)
                if !reauthorized, let account = try? await self.mail.accountService.account(id: accountId) {
                    return await self.onboarding(.done(account), context)
                }
                return Pages.redirect("/settings?notice=\(WebForm.escape(message))#accounts")
            case .failed(let message)?:
                return await self.onboarding(.welcome(firstAccount: accounts.isEmpty), context, oauth: OAuthFields(problems: [message]))
            case nil:
                return await self.onboarding(.welcome(firstAccount: accounts.isEmpty), context, oauth: OAuthFields(problems: [
                    PlainProblem(words: "VaultMail does not know that sign-in (it may still be waiting for your provider, or it ended long ago): try again."),
                ]))
            }
        }
        addAccountServerRoutes(to: router)
    }

    /// The onboarding's servers screen: filled in, tested, added.
    private func addAccountServerRoutes(to router: Router<WebRequestContext>) {
        router.get("/welcome/servers") { request, context -> Response in
            let query = try request.query(AccountQuery.self)
            var form = AccountForm(address: (query.email ?? "").trimmingCharacters(in: .whitespaces), displayName: query.displayName ?? "")
            _ = form.account()
            form.problems = form.problems.filter { !$0.words.contains("password") }
            return await self.onboarding(.servers(form, check: nil), context)
        }
        router.post("/welcome/check") { request, context -> Response in
            var form = AccountForm(try context.form(AccountForm.Posted.self))
            let account = form.account(), secret = form.secret()
            let check: ConnectionCheck
            if let account, let secret {
                check = await self.mail.administration.check(account, secret: secret)
            } else {
                check = ConnectionCheck(steps: form.problems.map { .init(name: "Settings", problem: $0) })
            }
            if request.headers[.accept]?.contains("application/json") == true {
                return Pages.json(JSONReply.ConnectionCheck(passed: check.passed, html: OnboardingView.checkReport(check).html))
            }
            form.problems = []
            return await self.onboarding(.servers(form, check: check), context)
        }
        router.post("/welcome/add") { _, context -> Response in
            var form = AccountForm(try context.form(AccountForm.Posted.self))
            guard let account = form.account(), let secret = form.secret() else {
                return await self.onboarding(.servers(form, check: nil), context)
            }
            let check = await self.mail.administration.check(account, secret: secret)
            guard check.passed else { return await self.onboarding(.servers(form, check: check), context) }
            do {
                try await self.mail.accountService.add(account, secret: secret)
            } catch {
                form.problems = [PlainProblem(error)]
                return await self.onboarding(.servers(form, check: nil), context)
            }
            await self.mail.contacts.invalidate()
            await self.events.publish(.changed)
            return await self.onboarding(.done(account), context)
        }
        addAccountSettingsRoutes(to: router)
    }

    /// One account's settings page: saved, signed in again, removed (asked first).
    private func addAccountSettingsRoutes(to router: Router<WebRequestContext>) {
        router.get("/settings/account") { request, context -> Response in
            await self.accountPage(try request.query(AccountQuery.self).id, problems: [], confirm: false, context)
        }
        router.get("/settings/account/remove") { request, context -> Response in
            await self.accountPage(try request.query(AccountQuery.self).id, problems: [], confirm: true, context)
        }
        router.post("/settings/account") { _, context -> Response in
            let form = try context.form(AccountSettingsForm.self)
            guard let id = form.id, var account = try? await self.mail.accountService.account(id: id) else {
                return Pages.redirect("/settings#accounts")
            }
            var problems: [PlainProblem] = []
            account.name = form.name ?? ""
            let displayName = (form.displayName ?? "").trimmingCharacters(in: .whitespaces)
            account.displayName = displayName.isEmpty ? nil : displayName
            if let days = Int(form.syncWindow ?? "") { account.syncWindowDays = days }
            do {
                try await self.mail.accountService.update(account)
            } catch {
                problems.append(PlainProblem(error))
            }
            do {
                try await self.mail.accountService.setSignature((form.signature ?? "").replacingOccurrences(of: "\r\n", with: "\n"), for: id)
                try await self.mail.notificationSettings.setNotifications(form.notifications == "1", accountId: id)
            } catch {
                problems.append(PlainProblem(error))
            }
            if !problems.isEmpty { return await self.accountPage(id, problems: problems, confirm: false, context) }
            await self.events.publish(.changed)
            return Pages.redirect("/settings?notice=\(WebForm.escape("Saved \(account.name)."))#accounts")
        }
        router.post("/settings/account/reauth") { request, context -> Response in
            guard let id = try context.form(AccountSettingsForm.self).id, (try? await self.mail.accountService.account(id: id)) != nil else {
                return Pages.redirect("/settings#accounts")
            }
            do {
                let started = try await self.mail.administration.reauthorize(accountId: id, returnTo: self.oauthReturn(request))
                return Pages.consentHandoff(started.consentURL)
            } catch {
                return await self.accountPage(id, problems: [PlainProblem(error)], confirm: false, context)
            }
        }
        router.post("/settings/account/remove") { _, context -> Response in
            guard let id = try context.form(AccountSettingsForm.self).id, let account = try? await self.mail.accountService.account(id: id) else {
                return Pages.redirect("/settings#accounts")
            }
            let message: String
            do {
                message = try await self.mail.accountService.remove(accountId: id).summary
            } catch {
                message = "\(account.name) could not be removed. \(PlainWords.of(error))"
            }
            await self.mail.contacts.invalidate()
            await self.events.publish(.changed)
            return Pages.redirect("/settings?notice=\(WebForm.escape(message))#accounts")
        }
    }

    /// The account pages' queries: an account (`id=`), the OAuth2 sign-in to report
    /// (`signin=`), the address and name the welcome screen fills the servers from.
    private struct AccountQuery: Decodable {
        var id: String?
        var signin: String?
        var email: String?
        var displayName: String?
    }

    /// An account's settings page posts (save, sign in again, remove: `id` alone).
    private struct AccountSettingsForm: Decodable {
        var id: String?
        var name: String?
        var displayName: String?
        var syncWindow: String?
        var signature: String?
        var notifications: String?
    }

    private func onboarding(_ screen: OnboardingView.Screen, _ context: WebRequestContext, oauth: OAuthFields = OAuthFields()) async -> Response {
        Pages.html(OnboardingView(screen: screen, csrf: csrf(context: context), display: await display(), oauth: oauth).render())
    }

    /// Where the loopback listener's page sends the browser back to: this app, at the address
    /// the browser uses (the guard allowed only 127.0.0.1:PORT and localhost:PORT).
    private func oauthReturn(_ request: Request) -> URL {
        URL(string: "http://\(request.head.authority ?? "127.0.0.1")/welcome/oauth") ?? URL(string: "http://127.0.0.1/welcome/oauth")!
    }

    private func accountPage(_ id: String?, problems: [PlainProblem], confirm: Bool, _ context: WebRequestContext) async -> Response {
        guard let id, let account = try? await mail.accountService.account(id: id) else {
            return Pages.redirect("/settings?notice=\(WebForm.escape(AccountError.notFound(id: id ?? "").plainWords))#accounts")
        }
        let signature = await mail.accountService.signature(of: id) ?? ""
        let notifications = await mail.notificationSettings.notificationsOn(accountId: id)
        var view = AccountSettingsView(account: account, signature: signature, notifications: notifications, problems: problems,
                                       confirmRemoval: confirm, csrf: csrf(context: context), display: await display())
        view.connectionProblem = await events.connectionProblem(account: account.name)
        return Pages.html(view.render())
    }
}
