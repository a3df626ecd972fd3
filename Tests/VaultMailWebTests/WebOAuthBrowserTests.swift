import Foundation
import Testing
import VaultMailCore
import VaultMailOAuth
import VaultMailTesting
@testable import VaultMailWeb

/// "Sign in with Google" in a real headless Chromium (Debian's chromium and chromium-driver
/// through `scripts/browser_driver.py`): the welcome page's form, the page handing the browser on
/// to the provider (the post's redirects would be bound by the page's `form-action 'self'`), the
/// provider's consent, the loopback listener's page, and the way back into the app with the
/// session cookie the browser holds; axe-core 4.x on the pages.
@Suite("Web app in a browser: Sign in with Google (issue 19)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct WebOAuthBrowserTests {
    let email = "ada@gmail.com"

    @Test("AC-F-04: in Chromium, Sign in with Google reaches the provider and the loopback page within the app's CSP, and comes back signed in to the new account")
    func signInInBrowser() async throws {
        try #require(FileManager.default.fileExists(atPath: WebWritingBrowserTests.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        try await WebFixture.with(oauth: WebOAuthSignInTests().configuration(oauth)) { web in
            let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver)
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: nil)
            try await browser.get(signIn.absoluteString)
            try await browser.wait("return location.pathname === '/mail'", timeout: 60)

            try await browser.get("\(web.origin)/welcome")
            try await browser.wait("return document.querySelector('#oauth-google') !== null", timeout: 30)
            try await expectNoAxeViolations(browser, page: "welcome")
            try await browser.js("""
                document.querySelector('#oauth-name').value = 'gmail';
                document.querySelector('#oauth-email').value = arguments[0];
                """, [email])
            try await browser.click("#oauth-google")

            // The provider consents at once (as Microsoft does for a returning user) and sends the
            // browser to VaultMail's loopback listener, whose page sends it straight back to the
            // app; no step is blocked by the app's policy.
            do {
                try await browser.wait("return location.origin === '\(web.origin)' && document.body.innerText.includes('gmail is ready')", timeout: 60)
            } catch {
                try await oauth.settle()
                Issue.record("the browser is at \(try await browser.string("return location.href")); provider events: \(oauth.events); console: \(try await browser.console())")
                throw error
            }
            // Back in the app with the same session (the cookie went along): the account is ready.
            #expect(try await browser.string("return location.pathname") == "/welcome/oauth")
            let account = try #require(try await web.app.accountRepository.getAccount(named: "gmail"))
            #expect(account.authMethod == .oauth2)
            #expect(OAuthGrant.decode(Secret(await web.keyring.secrets[account.id] ?? "")) != nil)
            let cookies = try await browser.cookies()
            #expect(cookies.contains { ($0["httpOnly"] as? Bool) == true && ($0["sameSite"] as? String) == "Strict" })
            // No token of the provider reached a page the browser kept.
            let page = try await browser.string("return document.documentElement.outerHTML")
            for token in try await oauth.issuedTokens() { #expect(!page.contains(token)) }
            try FileManager.default.createDirectory(at: WebWritingBrowserTests.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(WebWritingBrowserTests.screenshots.appendingPathComponent("oauth-done.png").path)
        }
    }

    @Test("the loopback listener's page, as the command line's sign-in leaves it in the browser, is accessible and says what happened")
    func listenerPage() async throws {
        try #require(FileManager.default.fileExists(atPath: WebWritingBrowserTests.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        let listener = try LoopbackRedirectListener()
        let answered = Task.detached { try await listener.waitForRedirect(timeout: .seconds(60)) }
        let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver)
        defer { browser.stop() }
        try await browser.get("\(listener.redirectURI.absoluteString)?code=one-time&state=s")
        #expect(try await browser.string("return document.querySelector('main h1').innerText") == "VaultMail")
        #expect(try await browser.string("return document.body.innerText").contains("You can close this tab"))
        try await expectNoAxeViolations(browser, page: "listener")
        let query = try await answered.value
        #expect(query["code"] == "one-time" && query["state"] == "s")
    }

    private func expectNoAxeViolations(_ browser: BrowserSession, page: String) async throws {
        let violations = try await browser.axe(script: WebWritingBrowserTests.axeScript)
        #expect(violations.isEmpty, "axe (\(page)): \(violations.map { "\($0["id"] ?? "?") (\($0["impact"] ?? "?")): \($0["help"] ?? "")" })")
    }
}
