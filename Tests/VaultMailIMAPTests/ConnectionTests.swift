import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

extension DovecotTests {
    @Suite("Connecting and logging in")
    struct ConnectionTests {
        @Test("AC-F-05: LOGIN over plain IMAP on loopback, capabilities read after login")
        func plainLogin() async throws {
            let fixture = try await DovecotFixture.start()
            let mark = fixture.server.logMark()
            let imap = try await fixture.connect(.plain)
            #expect(await imap.isConnected)
            #expect(await !imap.isAuthenticated)
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            #expect(await imap.isAuthenticated)
            let capabilities = await imap.capabilities
            #expect(capabilities.idle && capabilities.condstore && capabilities.qresync)
            #expect(capabilities.move && capabilities.uidPlus && capabilities.specialUse)
            #expect(!capabilities.gmail)
            try await fixture.server.waitForLog(since: mark) { $0.contains("Login: user=<ada>") }
            await imap.logout()
            #expect(await !imap.isConnected)
        }

        @Test("AC-SEC-01: plain IMAP to a host that is not loopback is refused before connecting")
        func plainRefusedOffLoopback() async throws {
            let endpoint = IMAPEndpoint(host: "192.0.2.1", port: 143, security: .plain, connectTimeout: .seconds(30))
            let started = ContinuousClock.now
            let error = try await #require(throws: IMAPError.self) {
                _ = try await IMAPConnection.connect(to: endpoint)
            }
            #expect(error.kind == .plaintextRefused)
            #expect(error.description.contains("192.0.2.1:143"))
            #expect(error.description.contains("only allowed to loopback"))
            #expect(error.description.contains("Use TLS"))
            // Refused, not a 30 s connect attempt (with room for a loaded machine).
            #expect(ContinuousClock.now - started < .seconds(20))
        }

        @Test("AC-SEC-01: implicit TLS, the test CA trusted through the account's CA file", arguments: ["127.0.0.1", "localhost"])
        func implicitTLS(host: String) async throws {
            let fixture = try await DovecotFixture.start()
            let mark = fixture.server.logMark()
            let imap = try await IMAPConnection.connect(to: fixture.endpoint(.tls, host: host))
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            _ = try await imap.select("INBOX")
            try await fixture.server.waitForLog(since: mark) { log in
                log.split(separator: "\n").contains { $0.contains("Login: user=<ada>") && $0.contains("TLS") }
            }
            await imap.logout()
        }

        @Test("AC-SEC-01: STARTTLS upgrades the plain port, verified, before LOGIN")
        func startTLS() async throws {
            let fixture = try await DovecotFixture.start()
            let mark = fixture.server.logMark()
            let imap = try await fixture.connect(.starttls, host: "localhost")
            #expect(await !imap.capabilities.startTLS)  // the capabilities after TLS replace those before
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            try await fixture.server.waitForLog(since: mark) { log in
                log.split(separator: "\n").contains { $0.contains("Login: user=<ada>") && $0.contains("TLS") }
            }
            await imap.logout()
        }

        @Test(
            "AC-SEC-01: an untrusted or wrong-host certificate is refused before any credential is sent",
            arguments: [
                (DovecotServer.Certificate.selfSigned, ConnectionSecurity.tls),
                (.selfSigned, .starttls),
                (.wrongHost, .tls),
                (.wrongHost, .starttls),
            ])
        func refusedCertificate(certificate: DovecotServer.Certificate, security: ConnectionSecurity) async throws {
            let fixture = try await DovecotFixture.start(certificate: certificate)
            let mark = fixture.server.logMark()
            let imap = try IMAPConnection(endpoint: fixture.endpoint(security, host: "localhost"))
            let error = try await #require(throws: IMAPError.self) { try await imap.connect() }
            #expect(error.kind == .certificateRejected)
            #expect(error.description.contains("localhost:"))
            #expect(error.description.contains(certificate == .wrongHost ? "not issued for localhost" : "not signed by a trusted"))
            #expect(await !imap.isConnected)
            // Even a login attempted now goes nowhere.
            await #expect(throws: IMAPError.self) {
                try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            }
            // Dovecot saw a connection end without any authentication attempt.
            try await fixture.server.waitForLog(since: mark, timeout: .seconds(90)) { $0.contains("no auth attempts") }
            let log = fixture.server.log(since: mark)
            #expect(!log.contains("user=<ada>"))
            #expect(!log.contains("auth failed"))
            #expect(!log.contains("Login:"))
        }

        @Test("AC-SEC-01: without the account's CA file the test CA is not trusted (system store only)")
        func systemStoreAlone() async throws {
            let fixture = try await DovecotFixture.start()
            let endpoint = fixture.endpoint(.tls, host: "localhost", caFile: .some(nil))
            let error = try await #require(throws: IMAPError.self) { _ = try await IMAPConnection.connect(to: endpoint) }
            #expect(error.kind == .certificateRejected)
        }

        @Test("AC-SEC-02: a wrong password gives a clear error naming server and user, never the password")
        func wrongPassword() async throws {
            let fixture = try await DovecotFixture.start()
            let imap = try await fixture.connect(.plain)
            let wrong = "Tr0ub4dor&3-not-the-password"
            let error = try await #require(throws: IMAPError.self) {
                try await imap.login(user: DovecotFixture.user, password: Secret(wrong))
            }
            #expect(error.kind == .authenticationFailed)
            #expect(error.serverResponse == "[AUTHENTICATIONFAILED] Authentication failed.")
            #expect(
                error.description.hasPrefix(
                    "cannot log in to 127.0.0.1:\(fixture.server.imapPort) as ada: [AUTHENTICATIONFAILED] Authentication failed."))
            #expect(!error.description.contains(wrong))
            #expect(!String(reflecting: error).contains(wrong))
            #expect(!"\(error.localizedDescription)".contains(wrong))
            // The connection stays usable for a second attempt.
            try await imap.login(user: DovecotFixture.user, password: Secret(DovecotFixture.password))
            #expect(await imap.isAuthenticated)
        }

        @Test("AC-F-04: SASL XOAUTH2 logs in with the access token; a bad token fails without showing it")
        func xoauth2() async throws {
            // Dovecot's XOAUTH2 mechanism checks the bearer token as the passdb password.
            let token = "ya29.test-access-token-0123456789"
            let fixture = try await DovecotFixture.start()
            try fixture.server.addUser("grace@example.com", password: token)
            let mark = fixture.server.logMark()

            let imap = try await fixture.connect(.tls)
            #expect(await imap.capabilities.authMechanisms.contains("XOAUTH2"))
            try await imap.authenticateXOAuth2(user: "grace@example.com", accessToken: Secret(token))
            #expect(await imap.isAuthenticated)
            try await fixture.server.waitForLog(since: mark) { $0.contains("Login: user=<grace@example.com>, method=XOAUTH2") }

            let other = try await fixture.connect(.tls)
            let revoked = "ya29.revoked-token-9876543210"
            let error = try await #require(throws: IMAPError.self) {
                try await other.authenticateXOAuth2(user: "grace@example.com", accessToken: Secret(revoked))
            }
            #expect(error.kind == .authenticationFailed)
            #expect(error.description.contains("as grace@example.com"))
            #expect(!error.description.contains(revoked))
        }

        @Test("AC-F-05: a closed port is a clear connection error naming host and port")
        func closedPort() async throws {
            let fixture = try await DovecotFixture.start()
            let port = fixture.server.imapPort
            try await fixture.server.stop()
            let endpoint = IMAPEndpoint(host: "127.0.0.1", port: port, security: .plain)
            let error = try await #require(throws: IMAPError.self) { _ = try await IMAPConnection.connect(to: endpoint) }
            #expect(error.kind == .connectionFailed)
            #expect(error.description.hasPrefix("cannot connect to 127.0.0.1:\(port)"))
        }

        @Test("AC-F-05: TLS on a plain-text port fails the handshake with a clear error")
        func tlsOnPlainPort() async throws {
            let fixture = try await DovecotFixture.start()
            var endpoint = fixture.endpoint(.tls)
            endpoint.port = fixture.server.imapPort
            endpoint.connectTimeout = .seconds(5)
            let error = try await #require(throws: IMAPError.self) { _ = try await IMAPConnection.connect(to: endpoint) }
            #expect(error.kind == .tlsFailed)
        }
    }
}
