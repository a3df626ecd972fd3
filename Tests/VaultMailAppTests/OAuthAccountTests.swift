import Foundation
import Testing
@testable import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailSync
import VaultMailTesting

/// Issue 19 (AC-F-04, AC-F-04b): an account signed in with OAuth2 in VaultMail syncs and sends
/// with XOAUTH2, its access token refreshed without the user noticing, and a sign-in the
/// provider revoked raises one alert.
@MainActor
@Suite("OAuth2 accounts: tokens, IMAP and SMTP (issue 19)", .serialized)
struct OAuthAccountTests {
    @Test("AC-F-04: an account signed in through the loopback redirect syncs with XOAUTH2, Dovecot checking the token with the provider")
    func signInAndSync() async throws {
        let fixture = try await OAuthAccountFixture()
        let new = try await fixture.syncOnNewConnection()
        #expect(new.map(\.subject) == ["Welcome to OAuth"])
        try await waitUntil("Dovecot logs the XOAUTH2 login", timeout: .seconds(30)) {
            fixture.dovecot.log().contains("Login: user=<ada>, method=XOAUTH2")
        }
        try await fixture.oauth.settle()
        #expect(fixture.oauth.events.contains { $0["event"] as? String == "introspect" && $0["active"] as? Bool == true })
        #expect(fixture.oauth.refreshCount == 0)  // the sign-in's access token was used
    }

    @Test("AC-F-04b: an access token the server no longer takes is refreshed and the sync succeeds with no error")
    func refusedTokenRefreshed() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.syncOnNewConnection()
        try await fixture.oauth.expireAccessTokens()
        try fixture.dovecot.deliver(OAuthAccountFixture.message(subject: "After the token expired"), to: "ada")
        let new = try await fixture.syncOnNewConnection()
        #expect(new.map(\.subject) == ["After the token expired"])
        try await fixture.oauth.settle()
        #expect(fixture.oauth.refreshCount == 1)
        #expect(fixture.oauth.events.contains { $0["event"] as? String == "introspect" && $0["active"] as? Bool == false })
    }

    @Test("AC-F-04b: a token about to expire is refreshed before it is used (no refused login)")
    func refreshedBeforeExpiry() async throws {
        // 30-second tokens: within the minute's margin, so the sign-in's token is not used.
        let fixture = try await OAuthAccountFixture(accessLifetime: 30)
        try await fixture.syncOnNewConnection()
        try await fixture.oauth.settle()
        #expect(fixture.oauth.refreshCount == 1)
        let introspections = fixture.oauth.events.filter { $0["event"] as? String == "introspect" }
        #expect(!introspections.isEmpty && introspections.allSatisfy { $0["active"] as? Bool == true })
    }

    @Test("AC-F-04b: a rotated refresh token replaces the old one in the keyring at once")
    func rotatedRefreshTokenStored() async throws {
        let fixture = try await OAuthAccountFixture()
        let before = try #require(OAuthGrant.decode(Secret(await fixture.keyring.secrets[fixture.account.id] ?? "")))
        try await fixture.oauth.setRotatesRefreshTokens(true)
        try await fixture.oauth.expireAccessTokens()
        try await fixture.syncOnNewConnection()
        let after = try #require(OAuthGrant.decode(Secret(await fixture.keyring.secrets[fixture.account.id] ?? "")))
        #expect(after.refreshToken != before.refreshToken)
        #expect(after.client == before.client)
        // The old one no longer works at the provider; the stored one does.
        try await fixture.oauth.expireAccessTokens()
        try await fixture.syncOnNewConnection()
        try await fixture.oauth.settle()
        #expect(fixture.oauth.refreshCount == 2)
    }

    @Test("AC-F-04b: a revoked refresh token raises one 'Sign in again to NAME' alert; signing in again recovers, keeping the mail")
    func revokedThenReauth() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.syncOnNewConnection()
        try await fixture.oauth.revokeTokens(of: "ada")
        let center = MockNotificationCenter()
        let health = AccountHealthMonitor(center: center, clock: FixedClock(MailFixtures.referenceDate))
        for _ in 0..<2 {
            do {
                try await fixture.syncOnNewConnection()
                Issue.record("a revoked sign-in synced")
            } catch {
                let problem = AccountHealthMonitor.Problem(error)
                guard case .signInAgain(let reason) = problem else {
                    Issue.record("not a sign-in problem: \(problem)")
                    return
                }
                #expect(reason.contains("vaultmail account reauth gmail"))
                await health.report(problem, for: fixture.account)
            }
        }
        #expect(center.addedRequests.map(\.content.title) == ["Sign in again to gmail"])
        #expect(center.addedRequests.first?.content.body.contains("vaultmail account reauth gmail") == true)

        try await fixture.signIn()
        try fixture.dovecot.deliver(OAuthAccountFixture.message(subject: "Back again"), to: "ada")
        let new = try await fixture.syncOnNewConnection()
        #expect(new.map(\.subject) == ["Back again"])
        await health.recovered(fixture.account)
        #expect(center.removedIdentifiers.count == 1)
        // The mail synced before the revocation is still here: both messages, unread in the inbox.
        #expect(try await fixture.session.dependencies.emails.getInboxUnreadCount() == 2)
    }

    @Test("Issue 34: a token endpoint answering 503 is an outage: the grace and words of an unreachable server, never 'check the credential'; it recovers by itself")
    func tokenEndpointOutage() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.syncOnNewConnection()
        try await fixture.oauth.expireAccessTokens()
        try await fixture.oauth.setTokenEndpointStatus(503)
        let center = MockNotificationCenter()
        let health = AccountHealthMonitor(center: center, clock: FixedClock(MailFixtures.referenceDate), outageGrace: 300)
        do {
            try await fixture.syncOnNewConnection()
            Issue.record("synced with no access token")
        } catch {
            #expect(!SyncError.isLoginRefusal(error), "\(error)")
            #expect(!"\(error)".contains("credential command or keyring"), "\(error)")
            let problem = AccountHealthMonitor.Problem(error)
            guard case .signInServerUnreachable(let host, let detail) = problem else {
                Issue.record("not an outage: \(problem)")
                return
            }
            #expect(host == "127.0.0.1" && detail.contains("503"), "\(detail)")
            #expect(problem.words(for: fixture.account) == PlainWords.unreachable("127.0.0.1"))
            await health.report(problem, for: fixture.account)
            await health.report(problem, for: fixture.account)
            #expect(center.addedRequests.isEmpty, "an outage waits out the grace, as an unreachable mail server does")
        }
        try await fixture.oauth.setTokenEndpointStatus(nil)
        try fixture.dovecot.deliver(OAuthAccountFixture.message(subject: "After the outage"), to: "ada")
        #expect(try await fixture.syncOnNewConnection().map(\.subject) == ["After the outage"])
    }

    @Test("Issue 34: after signing in again, IDLE waiting out a long backoff tries at once (retryNow)")
    func retryNowAfterReauth() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.syncOnNewConnection()
        let idle = IDLEMonitorUseCase(sync: fixture.session.services.sync,
                                      options: IDLEMonitorOptions(initialBackoff: .seconds(600), maximumBackoff: .seconds(600)))
        let seen = LockedBox<[String]>([])
        let accountId = fixture.account.id
        let watcher = Task {
            for try await event in idle.events(accountId: accountId) {
                switch event {
                case .listening: seen.set(seen.value + ["listening"])
                case .disconnected: seen.set(seen.value + ["disconnected"])
                case .newMail(let emails): seen.set(seen.value + emails.map { "new: \($0.subject)" })
                default: break
                }
            }
        }
        defer { watcher.cancel() }
        try await waitUntil("IDLE listens") { seen.value.contains("listening") }
        try await fixture.oauth.revokeTokens(of: "ada")
        _ = try fixture.dovecot.doveadm(["kick", "ada"])
        try await waitUntil("the revoked sign-in stops IDLE") { seen.value.contains("disconnected") }
        try await fixture.signIn()
        try fixture.dovecot.deliver(OAuthAccountFixture.message(subject: "Signed in again"), to: "ada")
        idle.retryNow(accountId: accountId)
        try await waitUntil("tried at once, not after 10 minutes", timeout: .seconds(30)) { seen.value.contains("new: Signed in again") }
        try await waitUntil("back in IDLE") { seen.value.filter { $0 == "listening" }.count == 2 }
    }

    @Test("AC-F-04b: IDLE reconnecting with an access token the server no longer takes refreshes it and goes on, with no login error")
    func idleRefreshes() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.syncOnNewConnection()
        let idle = IDLEMonitorUseCase(sync: fixture.session.services.sync, options: IDLEMonitorOptions(initialBackoff: .milliseconds(100)))
        let seen = LockedBox<[String]>([])
        let loginErrors = LockedBox(0)
        let accountId = fixture.account.id
        let watcher = Task {
            for try await event in idle.events(accountId: accountId) {
                switch event {
                case .listening: seen.set(seen.value + ["listening"])
                case .newMail(let emails): seen.set(seen.value + emails.map { "new: \($0.subject)" })
                case .disconnected(let error, _):
                    seen.set(seen.value + ["disconnected"])
                    if SyncError.isLoginRefusal(error) { loginErrors.set(loginErrors.value + 1) }
                default: break
                }
            }
        }
        defer { watcher.cancel() }
        try await waitUntil("IDLE listens") { seen.value.contains("listening") }
        try await fixture.oauth.expireAccessTokens()
        _ = try fixture.dovecot.doveadm(["kick", "ada"])
        try await waitUntil("IDLE reconnects") { seen.value.filter { $0 == "listening" }.count >= 2 }
        try fixture.dovecot.deliver(OAuthAccountFixture.message(subject: "While idling"), to: "ada")
        try await waitUntil("the new mail arrives by IDLE") { seen.value.contains("new: While idling") }
        #expect(loginErrors.value == 0)
        try await fixture.oauth.settle()
        #expect(fixture.oauth.refreshCount == 1)
    }

    @Test("AC-F-04b: a send whose access token the SMTP server refuses gets a fresh one and goes out")
    func sendRefreshes() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.oauth.expireAccessTokens()
        let credentials = fixture.session.accountCredentials
        let transport = SMTPMailTransport(credentials: credentials)
        let message = Array(OAuthAccountFixture.message(subject: "Sent with a fresh token"))
        try await transport.send(message, envelope: MailEnvelope(sender: "ada@gmail.com", recipients: ["grace@example.com"]),
                                 account: fixture.account, willTransmit: {})
        try await fixture.smtp.waitForMessages(count: 1)
        #expect(fixture.smtp.authAttempts.map(\.success) == [false, true])
        #expect(fixture.smtp.authAttempts.allSatisfy { $0.mechanism == "XOAUTH2" && $0.login == "ada" })
        try await fixture.oauth.settle()
        #expect(fixture.oauth.refreshCount == 1)
    }

    @Test("An SMTP server offering OAUTHBEARER and not XOAUTH2 gets OAUTHBEARER (RFC 7628); a refused token is refreshed there too")
    func sendWithOAuthBearer() async throws {
        let fixture = try await OAuthAccountFixture()
        let bearerOnly = try await SMTPTestServer.start(user: "ada", introspection: fixture.oauth.introspectionEndpoint,
                                                        excludedMechanisms: ["XOAUTH2"], certificates: fixture.dovecot.certificates)
        var account = fixture.account
        account.smtpPort = bearerOnly.tlsPort
        try await fixture.oauth.expireAccessTokens()
        let credentials = fixture.session.accountCredentials
        try await SMTPMailTransport(credentials: credentials)
            .send(Array(OAuthAccountFixture.message(subject: "Bearer")), envelope: MailEnvelope(sender: "ada@gmail.com", recipients: ["grace@example.com"]),
                  account: account, willTransmit: {})
        try await bearerOnly.waitForMessages(count: 1)
        #expect(bearerOnly.authAttempts.map(\.mechanism) == ["OAUTHBEARER", "OAUTHBEARER"])
        #expect(bearerOnly.authAttempts.map(\.success) == [false, true])
    }

    @Test("No refresh or access token in the store, the servers' logs or the account record")
    func nothingSecretStored() async throws {
        let fixture = try await OAuthAccountFixture()
        try await fixture.oauth.expireAccessTokens()
        try await fixture.syncOnNewConnection()
        let credentials = fixture.session.accountCredentials
        try await SMTPMailTransport(credentials: credentials)
            .send(Array(OAuthAccountFixture.message(subject: "Hi")), envelope: MailEnvelope(sender: "ada@gmail.com", recipients: ["grace@example.com"]),
                  account: fixture.account, willTransmit: {})
        let tokens = try await fixture.oauth.issuedTokens()
        #expect(tokens.count >= 3)
        var stored = Data()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: fixture.home.path)) ?? [] {
            stored += FileManager.default.contents(atPath: fixture.home.appendingPathComponent(name).path) ?? Data()
        }
        #expect(!stored.isEmpty)
        let record = "\(fixture.account)"
        for token in tokens {
            #expect(stored.range(of: Data(token.utf8)) == nil)
            #expect(!fixture.dovecot.log().contains(token))
            #expect(!fixture.smtp.output.contains(token))
            #expect(!record.contains(token))
        }
    }
}
