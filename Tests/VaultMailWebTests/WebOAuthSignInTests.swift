import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// "Sign in with Google / Microsoft" and "Sign in again" in the web app (issue 19), against the
/// OAuth test server: the browser is an HTTP client following the consent redirect to the
/// loopback listener, then the listener's link back to the app with the session cookie.
@MainActor
@Suite("Web app OAuth2 sign-in: onboarding and sign in again (issue 19)", .serialized)
struct WebOAuthSignInTests {
    let email = "ada@gmail.com"

    func configuration(_ oauth: OAuthTestServer, clientID: Bool = true) -> OAuthConfiguration {
        var environment = [
            "VAULTMAIL_OAUTH_AUTHORIZATION_URL": oauth.authorizationEndpoint.absoluteString,
            "VAULTMAIL_OAUTH_TOKEN_URL": oauth.tokenEndpoint.absoluteString,
            "VAULTMAIL_OAUTH_REVOCATION_URL": oauth.revocationEndpoint.absoluteString,
            "VAULTMAIL_GMAIL_CLIENT_SECRET": "packager-secret",
        ]
        if clientID { environment["VAULTMAIL_GMAIL_CLIENT_ID"] = oauth.clientID }
        return OAuthConfiguration(environment: environment, files: [])
    }

    /// The consent page the browser is handed on to: the `Refresh` header of the page the
    /// sign-in form's post answers with (a 200, not a redirect: see `Pages.consentHandoff`).
    func consentLocation(_ response: HTTPTestClient.Reply) throws -> String {
        #expect(response.status == 200)
        let refresh = try #require(response.headers["refresh"], "no Refresh header: \(response.text.prefix(300))")
        let location = String(try #require(refresh.firstMatch(of: /^0; url=(.+)$/)?.1))
        #expect(response.text.contains("id=\"consent-link\""), "the page links to the consent page too")
        return location
    }

    /// Follows a 303 to the consent page as the browser does, to the listener's page; returns
    /// the app's address that page links back to.
    func consent(_ location: String, oauth: OAuthTestServer, web: WebFixture) async throws -> String {
        let browser = RedirectFollowingBrowser()
        try await browser.open(try #require(URL(string: location)))
        #expect(await browser.lastStatus == 200)
        let page = await browser.lastPage ?? ""
        let link = try #require(page.firstMatch(of: /href="([^"]+)"/)?.1, "no link back to the app: \(page)")
        let back = String(link).replacingOccurrences(of: "&amp;", with: "&")
        #expect(back.hasPrefix("\(web.origin)/welcome/oauth?signin="))
        return String(back.dropFirst(web.origin.count))
    }

    @Test("AC-F-04: Sign in with Google goes to the consent page with PKCE and state, adds the account with its sign-in in the keyring only; Sign in again works and keeps it")
    func signInAddsAndReauthorizes() async throws {
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        try await WebFixture.with(oauth: configuration(oauth)) { web in
            let (cookie, csrf) = try await web.signIn()
            let welcome = try await web.get("/welcome", cookie: cookie)
            #expect(welcome.text.contains("Sign in with Google") && welcome.text.contains("Sign in with Microsoft"))
            // The forms post to the app alone: the provider is reached by a handoff page, not a redirect.
            #expect(welcome.headers["content-security-policy"]?.contains("form-action 'self';") == true)

            // Without the CSRF token the post is refused.
            let forged = try await web.post("/welcome/oauth", "provider=gmail&name=gmail&email=\(email)", cookie: cookie)
            #expect(forged.status == 403)

            let started = try await web.post("/welcome/oauth", "csrf=\(csrf)&provider=gmail&name=gmail&email=\(email)&clientId=", cookie: cookie)
            let location = try consentLocation(started)
            #expect(location.hasPrefix(oauth.authorizationEndpoint.absoluteString + "?"))
            let query = try #require(URLComponents(string: location)?.queryItems)
            func item(_ name: String) -> String? { query.first { $0.name == name }?.value }
            #expect(item("code_challenge_method") == "S256" && (item("code_challenge")?.count ?? 0) >= 43)
            #expect((item("state")?.count ?? 0) >= 16 && item("client_id") == oauth.clientID && item("login_hint") == email)
            #expect(item("redirect_uri")?.hasPrefix("http://127.0.0.1:") == true && item("redirect_uri") != "http://127.0.0.1:\(web.port)/")

            let back = try await consent(location, oauth: oauth, web: web)
            let done = try await web.get(back, cookie: cookie)
            #expect(done.status == 200)
            #expect(done.text.contains("gmail is ready"))

            let account = try #require(try await web.app.accountRepository.getAccount(named: "gmail"))
            #expect(account.authMethod == .oauth2 && account.credentialCommand == nil && account.imapHost == "imap.gmail.com")
            let grant = try #require(OAuthGrant.decode(Secret(await web.keyring.secrets[account.id] ?? "")))
            #expect(grant.provider == "gmail" && grant.client == OAuthClient(id: oauth.clientID, secret: "packager-secret"))
            // Nothing secret in the store (the account row is all the sign-in writes) or on the page.
            let issued = try await oauth.issuedTokens()
            #expect(!issued.isEmpty)
            for secret in issued + ["packager-secret"] {
                #expect(!String(reflecting: account).contains(secret))
                #expect(!done.text.contains(secret))
            }

            // The provider revokes the sign-in: the account's page says so and offers "Sign in again".
            try await oauth.revokeTokens(of: email)
            await web.web.events.setConnectionProblem(PlainWords.signInAgain, account: "gmail")
            let settings = try await web.get("/settings/account?id=\(account.id)", cookie: cookie)
            #expect(settings.text.contains("Sign in again to gmail") && settings.text.contains("id=\"sign-in-again\""))
            #expect(try await web.post("/settings/account/reauth", "id=\(account.id)", cookie: cookie).status == 403)
            let again = try await web.post("/settings/account/reauth", "csrf=\(csrf)&id=\(account.id)", cookie: cookie)
            let againLocation = try consentLocation(again)
            #expect(againLocation.hasPrefix(oauth.authorizationEndpoint.absoluteString + "?"))
            let reauthorized = try await web.get(try await consent(againLocation, oauth: oauth, web: web), cookie: cookie)
            #expect(reauthorized.status == 303)
            #expect(reauthorized.headers["location"]?.removingPercentEncoding?.contains("all its mail stayed on this computer") == true)
            #expect(web.signedInAgain.value == [account.id], "the daemon is told, so it tries the account at once (issue 34)")
            let newGrant = try #require(OAuthGrant.decode(Secret(await web.keyring.secrets[account.id] ?? "")))
            #expect(newGrant.refreshToken != grant.refreshToken)
            // The account is the same one, with everything it kept.
            #expect(Set(try await web.app.accountRepository.getAccounts().map(\.id)) == [web.account.id, account.id])
        }
    }

    @Test("a redirect with another state is refused with a message and adds nothing")
    func wrongStateRefused() async throws {
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        try await oauth.setAnswersWithWrongState(true)
        try await WebFixture.with(oauth: configuration(oauth)) { web in
            let (cookie, csrf) = try await web.signIn()
            let started = try await web.post("/welcome/oauth", "csrf=\(csrf)&provider=gmail&name=gmail&email=\(email)", cookie: cookie)
            let back = try await consent(try consentLocation(started), oauth: oauth, web: web)
            let page = try await web.get(back, cookie: cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("its state does not match"))
            #expect(try await web.app.accountRepository.getAccount(named: "gmail") == nil)
            #expect(await web.keyring.secrets.isEmpty)
        }
    }

    @Test("without a client ID the form says so, and nothing starts")
    func noClientID() async throws {
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        try await WebFixture.with(oauth: configuration(oauth, clientID: false)) { web in
            let (cookie, csrf) = try await web.signIn()
            let page = try await web.post("/welcome/oauth", "csrf=\(csrf)&provider=gmail&name=gmail&email=\(email)", cookie: cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("no OAuth client ID for Google: give a client ID"))
            #expect(!page.text.contains("--oauth-client-id"))
            #expect(try await web.app.accountRepository.getAccount(named: "gmail") == nil)
        }
    }

    @Test("a consent nobody finishes ends after the time limit, and the welcome page says so")
    func timeoutShown() async throws {
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        try await WebFixture.with(oauth: configuration(oauth), oauthTimeout: .seconds(1)) { web in
            let (cookie, csrf) = try await web.signIn()
            let started = try await web.post("/welcome/oauth", "csrf=\(csrf)&provider=gmail&name=gmail&email=\(email)", cookie: cookie)
            _ = try consentLocation(started)
            // Nobody consents: the welcome page says so once the time limit has passed.
            try await waitUntil("the welcome page reports the unfinished sign-in", timeout: .seconds(30), every: .milliseconds(100)) {
                try await web.get("/welcome", cookie: cookie).text.contains("the sign-in with Google was not finished within 1 second; try again")
            }
            // Said once.
            #expect(!(try await web.get("/welcome", cookie: cookie)).text.contains("was not finished"))
            #expect(try await web.app.accountRepository.getAccount(named: "gmail") == nil)
        }
    }
}
