import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 19 with the built tool: `account add --provider` through `xdg-open` and a browser
/// that follows the consent redirect, the sign-in kept in a real Secret Service, the daemon
/// refreshing an expired token unnoticed, one "Sign in again" alert after a revocation, and
/// `account reauth` bringing the account back. The provider is `OAuthTestServer` on loopback.
@Suite("vaultmail OAuth2 sign-in end to end (issue 19, AC-F-04, AC-F-04b)", .serialized)
struct OAuthEndToEndTests {
    static let user = "ada"
    static let alertSummary = "Sign in again to gmail"

    @Test("account add --provider signs in through the browser; the daemon refreshes an expired token; a revocation alerts once; reauth recovers")
    func signInRefreshRevokeReauth() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: EndToEndWorld.binary), "build the tool first (`swift build`)")
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: Self.user)
        let dovecot = try await DovecotServer.start(users: [Self.user: "not-the-way-in"], oauth2Introspection: oauth.introspectionEndpoint)
        let smtp = try await SMTPTestServer.start(user: Self.user, introspection: oauth.introspectionEndpoint, certificates: dovecot.certificates)
        let bus = try await DBusDaemon.start()
        let notifications = try await RecordingNotificationServer.start(on: bus)
        let keyring = try await KeyringDaemon.start(on: bus)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-oauth-e2e-\(UUID().uuidString.prefix(8))")
        var daemon: ChildProcess?
        defer {
            daemon?.stop()
            keyring.stop()
            notifications.stop()
            smtp.stop()
            oauth.stop()
            bus.stop()
            try? FileManager.default.removeItem(at: scratch)
        }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // The "browser" xdg-open starts ($BROWSER): it asks for the consent page and follows its redirect.
        let browser = scratch.appendingPathComponent("browser")
        try """
            #!/bin/sh
            exec /usr/bin/python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=30).read()' "$1"

            """.write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o755)
        let home = scratch.appendingPathComponent("home")
        var environment = bus.environment()
        environment["VAULTMAIL_HOME"] = home.path
        environment["BROWSER"] = browser.path
        environment["VAULTMAIL_OAUTH_AUTHORIZATION_URL"] = oauth.authorizationEndpoint.absoluteString
        environment["VAULTMAIL_OAUTH_TOKEN_URL"] = oauth.tokenEndpoint.absoluteString
        environment["VAULTMAIL_GMAIL_CLIENT_SECRET"] = "packager-secret"
        environment["XDG_CONFIG_HOME"] = scratch.path
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION"] { environment[name] = nil }
        func vaultmail(_ arguments: [String]) async throws -> (status: Int32, text: String) {
            let result = try await ProcessCapture.run(EndToEndWorld.binary, arguments, environment: environment, timeout: .seconds(120))
            return (result.status, String(decoding: result.output, as: UTF8.self))
        }
        func alerts() -> [[String: Any]] {
            notifications.calls("Notify").filter { $0["summary"] as? String == Self.alertSummary }
        }

        try dovecot.deliver(EndToEndWorld.message("Before signing in"), to: Self.user)
        let added = try await vaultmail([
            "account", "add", "gmail", "--provider", "gmail", "--email", "ada@gmail.com", "--oauth-client-id", oauth.clientID,
            "--imap", "127.0.0.1:\(dovecot.imapsPort)", "--smtp", "127.0.0.1:\(smtp.tlsPort)", "--ca-file", dovecot.caFile, "--user", Self.user,
        ])
        try #require(added.status == 0, "\(added.text)")
        #expect(added.text.contains("If it does not open, visit:\nhttp://127.0.0.1:\(oauth.port)/authorize?"))
        #expect(added.text.contains("Signed in with Google and added account 'gmail'"))

        let process = try ChildProcess(EndToEndWorld.binary, ["daemon", "--web-port", "0", "--reconnect-max-seconds", "1"], environment: environment)
        daemon = process
        try await process.waitForOutput("first sync done", timeout: .seconds(90))
        try await process.waitForOutput("IDLE on the inbox", timeout: .seconds(90))

        // The access token expires at the provider; IDLE's next connection refreshes it unnoticed.
        try await oauth.expireAccessTokens()
        _ = try dovecot.doveadm(["kick", Self.user])
        try await process.waitForOutput("IDLE on the inbox", count: 2, timeout: .seconds(90))
        try dovecot.deliver(EndToEndWorld.message("After the token expired"), to: Self.user)
        try await notifications.waitForEvent(timeout: .seconds(90)) {
            $0["method"] as? String == "Notify" && (($0["body"] as? String ?? "") + ($0["summary"] as? String ?? "")).contains("After the token expired")
        }
        try await oauth.settle()
        #expect(oauth.refreshCount >= 1)
        #expect(alerts().isEmpty, "no alert for an expired access token")

        // The provider revokes the sign-in: one alert, however often the daemon retries.
        try await oauth.revokeTokens(of: Self.user)
        _ = try dovecot.doveadm(["kick", Self.user])
        let alert = try await notifications.waitForEvent(timeout: .seconds(90)) {
            $0["method"] as? String == "Notify" && $0["summary"] as? String == Self.alertSummary
        }
        #expect((alert["body"] as? String)?.contains("vaultmail account reauth gmail") == true, "\(alert)")
        // Logged as what it is (issue 34): a sign-in refused, not a lost connection.
        let failures = process.occurrences(of: "cannot sign in")
        try await process.waitForOutput("cannot sign in", count: failures + 2, timeout: .seconds(90))
        #expect(alerts().count == 1, "no repeats while the sign-in stays revoked")

        // Signing in again: the alert is withdrawn and mail flows, nothing was lost.
        let reauth = try await vaultmail(["account", "reauth", "gmail"])
        try #require(reauth.status == 0, "\(reauth.text)")
        // The daemon sees the tool's sign-in and tries the account at once, not after its backoff (issue 34).
        try await process.waitForOutput("signed in again by another process", timeout: .seconds(30))
        let id = try #require(alert["id"] as? Int)
        try await notifications.waitForEvent(timeout: .seconds(90)) { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id }
        try dovecot.deliver(EndToEndWorld.message("After signing in again"), to: Self.user)
        try await notifications.waitForEvent(timeout: .seconds(90)) {
            $0["method"] as? String == "Notify" && (($0["body"] as? String ?? "") + ($0["summary"] as? String ?? "")).contains("After signing in again")
        }
        let threads = try await vaultmail(["threads", "--account", "gmail"])
        #expect(threads.text.contains("Before signing in") && threads.text.contains("After the token expired"))

        // No token or client secret in any file of the home, nor in the daemon's log.
        await process.terminate(grace: .seconds(10))
        var stored = Data()
        let walker = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL { stored.append((try? Data(contentsOf: url)) ?? Data()) }
        #expect(!stored.isEmpty)
        for secret in try await oauth.issuedTokens() + ["packager-secret"] {
            #expect(stored.range(of: Data(secret.utf8)) == nil)
            #expect(!process.allOutput.contains(secret))
            #expect(!added.text.contains(secret) && !reauth.text.contains(secret))
        }
    }
}
