import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailIMAP

extension DovecotTests {
    /// The one secure-connection layer under IMAP and SMTP (`SecureStream`, `SecureSession`,
    /// `AccountLogin`): each failure is brought about through both protocols and must come out
    /// alike, as each protocol's own error. In the serialized Dovecot suite: some start servers.
    @Suite("The secure connection IMAP and SMTP share")
    struct SecureConnectionTests {
        enum Wire: String, CaseIterable, CustomTestStringConvertible {
            case imap = "IMAP", smtp = "SMTP"
            var testDescription: String { rawValue }
            /// The usual ports the advice names: implicit TLS, STARTTLS.
            var ports: (tls: Int, starttls: Int) { self == .imap ? (993, 143) : (465, 587) }
        }

        /// Connects over `wire` and returns what both protocols' errors say alike: the failure of
        /// the shared connection and the description; checks that the connection is closed and a
        /// login attempted now goes nowhere.
        static func connectionError(
            _ wire: Wire, port: Int, security: ConnectionSecurity, host: String = "127.0.0.1", caFile: String? = nil
        ) async throws -> (connectionFailure: ConnectionFailure?, description: String) {
            switch wire {
            case .imap:
                let imap = try IMAPConnection(endpoint: IMAPEndpoint(
                    host: host, port: port, security: security, caFile: caFile, connectTimeout: .seconds(10),
                    readTimeout: .seconds(10)))
                let error = try await #require(throws: IMAPError.self) { try await imap.connect() }
                #expect(await !imap.isConnected)
                let login = try await #require(throws: IMAPError.self) { try await imap.login(user: "ada", password: "secret") }
                #expect(login.kind == .notConnected)
                return (error.connectionFailure, error.description)
            case .smtp:
                let smtp = SMTPConnection(endpoint: SMTPEndpoint(
                    host: host, port: port, security: security, caFile: caFile, connectTimeout: .seconds(10),
                    readTimeout: .seconds(10)))
                let error = try await #require(throws: SMTPError.self) { try await smtp.connect() }
                #expect(await !smtp.isConnected)
                let login = try await #require(throws: SMTPError.self) { try await smtp.login(user: "ada", password: "secret") }
                #expect(login.kind == .notConnected)
                return (error.connectionFailure, error.description)
            }
        }

        /// A loopback port nothing listens on (bound, then closed).
        static func closedPort() throws -> Int {
            let server = try SilentServer()
            return server.port
        }

        @Test("AC-F-05: a closed port is a connection error naming host and port, in IMAP and SMTP", arguments: Wire.allCases)
        func closedPort(wire: Wire) async throws {
            let port = try Self.closedPort()
            let error = try await Self.connectionError(wire, port: port, security: .plain)
            #expect(error.connectionFailure == .connectionFailed)
            #expect(error.description.hasPrefix("cannot connect to 127.0.0.1:\(port): "))
            #expect(error.description.hasSuffix(". Check the host name, the port and the network."))
        }

        @Test("AC-SEC-01: plain text to a host that is not loopback is refused before connecting, in IMAP and SMTP",
              arguments: Wire.allCases)
        func plainTextRefused(wire: Wire) async throws {
            let error = try await Self.connectionError(wire, port: 2525, security: .plain, host: "192.0.2.1")
            #expect(error.connectionFailure == .plaintextRefused)
            #expect(
                error.description
                    == "cannot connect without TLS to 192.0.2.1:2525: plain-text \(wire.rawValue) is only allowed to loopback "
                    + "addresses, and 192.0.2.1 is 192.0.2.1. Use TLS (usually port \(wire.ports.tls)) or STARTTLS (usually port "
                    + "\(wire.ports.starttls)).")
        }

        @Test(
            "AC-SEC-01: STARTTLS not offered, or refused by the server: a TLS error, the connection closed, no credential sent",
            arguments: Wire.allCases, [false, true])
        func startTLSRefused(wire: Wire, offered: Bool) async throws {
            let server = try ScriptedLineServer(
                greeting: wire == .imap ? "* OK scripted IMAP server ready\r\n" : "220 scripted ESMTP\r\n"
            ) { line in
                let words = line.split(separator: " ").map { $0.uppercased() }
                switch wire {
                case .imap:
                    guard words.count >= 2 else { return nil }
                    let tag = words[0]
                    switch words[1] {
                    case "CAPABILITY": return .reply("* CAPABILITY IMAP4rev1 \(offered ? "STARTTLS " : "")AUTH=PLAIN\r\n\(tag) OK done\r\n")
                    case "STARTTLS": return .reply("\(tag) NO TLS is not available now\r\n")
                    default: return nil
                    }
                case .smtp:
                    switch words.first {
                    case "EHLO": return .reply("250-scripted\r\n\(offered ? "250-STARTTLS\r\n" : "")250 AUTH PLAIN LOGIN\r\n")
                    case "STARTTLS": return .reply("454 4.7.0 TLS is not available now\r\n")
                    default: return nil
                    }
                }
            }
            let error = try await Self.connectionError(wire, port: server.port, security: .starttls)
            #expect(error.connectionFailure == .tlsFailed)
            #expect(error.description.hasPrefix("cannot start TLS with 127.0.0.1:\(server.port): "))
            #expect(error.description.contains(offered ? "TLS is not available now" : "the server does not offer STARTTLS"))
            #expect(
                error.description.hasSuffix(
                    "Check that the port speaks the chosen security (TLS on \(wire.ports.tls), STARTTLS on \(wire.ports.starttls))."))
            let commands = server.lines.map { line in
                let words = line.split(separator: " ").map { $0.uppercased() }
                return (wire == .imap ? words.dropFirst().first : words.first) ?? ""
            }
            #expect(commands.contains("STARTTLS") == offered)
            #expect(!commands.contains { ["LOGIN", "AUTH", "AUTHENTICATE"].contains($0) })
        }

        @Test(
            "AC-SEC-01: an untrusted certificate is refused with its SHA-256 fingerprint, in IMAP and SMTP, TLS and STARTTLS",
            arguments: Wire.allCases, [ConnectionSecurity.tls, .starttls])
        func untrustedCertificate(wire: Wire, security: ConnectionSecurity) async throws {
            let certificates: TestCertificates
            let port: Int
            var dovecot: DovecotFixture?
            var smtp: SMTPTestServer?
            switch wire {
            case .imap:
                let fixture = try await DovecotFixture.start(certificate: .selfSigned)
                dovecot = fixture
                certificates = fixture.server.certificates
                port = security == .tls ? fixture.server.imapsPort : fixture.server.imapPort
            case .smtp:
                let server = try await SMTPTestServer.start(certificate: .selfSigned)
                smtp = server
                certificates = server.certificates
                port = security == .tls ? server.tlsPort : server.port
            }
            defer { smtp?.stop() }
            let error = try await Self.connectionError(wire, port: port, security: security, caFile: certificates.caFile)
            #expect(error.connectionFailure == .certificateRejected)
            let fingerprint = try Self.opensslFingerprint(certificates.selfSignedCertificate)
            #expect(fingerprint.count == 32 * 3 - 1)
            #expect(TLSVerifier.fingerprint(try Self.der(certificates.selfSignedCertificate)) == fingerprint)
            #expect(error.description.hasPrefix("cannot trust 127.0.0.1:\(port): the server's certificate is not trusted: "))
            #expect(error.description.contains("it is not signed by a trusted certificate authority"))
            #expect(error.description.contains("its SHA-256 fingerprint is \(fingerprint)."))
            #expect(error.description.hasSuffix(
                "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file."))
            _ = dovecot
        }

        /// Hands out "stale" until told it was refused, then "fresh"; counts both.
        final class RotatingToken: CredentialProvider {
            private let state = Mutex((refusals: 0, asked: 0))
            var refusals: Int { state.withLock { $0.refusals } }
            var asked: Int { state.withLock { $0.asked } }

            func secret(for account: Account) async throws -> Secret {
                state.withLock { state in
                    state.asked += 1
                    return state.refusals == 0 ? "stale" : "fresh"
                }
            }

            func secretRefused(for account: Account) async {
                state.withLock { $0.refusals += 1 }
            }
        }

        @Test("AC-F-04: one login for IMAP and SMTP: a refused access token is forgotten and the fresh one logs in",
              arguments: Wire.allCases)
        func refusedTokenRetried(wire: Wire) async throws {
            let credentials = RotatingToken()
            let login = AccountLogin(credentials: credentials)
            switch wire {
            case .imap:
                let fixture = try await DovecotFixture.start()
                try fixture.server.addUser("grace@example.com", password: "fresh")
                let account = Account(
                    name: "Grace", email: "grace@example.com", imapHost: "127.0.0.1", imapPort: fixture.server.imapsPort,
                    smtpHost: "127.0.0.1", authMethod: .oauth2, caFile: fixture.server.caFile)
                let imap = try await login.imapConnection(for: account, endpoint: IMAPEndpoint(account: account))
                #expect(await imap.isAuthenticated)
                await imap.logout()
            case .smtp:
                let server = try await SMTPTestServer.start(user: "grace@example.com", token: "fresh")
                defer { server.stop() }
                let account = Account(
                    name: "Grace", email: "grace@example.com", imapHost: "127.0.0.1", smtpHost: "127.0.0.1",
                    smtpPort: server.tlsPort, authMethod: .oauth2, caFile: server.caFile)
                let smtp = try await login.smtpConnection(for: account, endpoint: SMTPEndpoint(account: account))
                #expect(await smtp.isAuthenticated)
                await smtp.quit()
                try await server.settle { $0.authAttempts.count == 2 }
                #expect(server.authAttempts.map(\.success) == [false, true])
            }
            #expect(credentials.refusals == 1)
            #expect(credentials.asked == 2)
        }

        @Test("A secret that cannot be had costs no connection, and a refused password is not tried again",
              arguments: Wire.allCases)
        func secretUnavailableAndWrongPassword(wire: Wire) async throws {
            struct NoSecret: Error {}
            struct NoSecretProvider: CredentialProvider {
                func secret(for account: Account) async throws -> Secret { throw NoSecret() }
            }
            let server = try ScriptedLineServer(greeting: "") { _ in nil }
            let missing = AccountLogin(credentials: NoSecretProvider())
            let nowhere = Account(
                name: "Ada", email: "ada@example.com", imapHost: "127.0.0.1", imapPort: server.port, smtpHost: "127.0.0.1",
                smtpPort: server.port, security: .plain)
            let unavailable = try await #require(throws: AccountLogin.SecretUnavailable.self) {
                switch wire {
                case .imap: _ = try await missing.imapConnection(for: nowhere, endpoint: IMAPEndpoint(account: nowhere))
                case .smtp: _ = try await missing.smtpConnection(for: nowhere, endpoint: SMTPEndpoint(account: nowhere))
                }
            }
            #expect(unavailable.underlying is NoSecret)
            #expect(server.lines.isEmpty)

            let credentials = RotatingToken()
            let login = AccountLogin(credentials: credentials)
            switch wire {
            case .imap:
                let fixture = try await DovecotFixture.start()
                let account = Account(
                    name: "Ada", email: "ada@example.com", imapHost: "127.0.0.1", imapPort: fixture.server.imapPort,
                    smtpHost: "127.0.0.1", security: .plain, username: DovecotFixture.user)
                let error = try await #require(throws: IMAPError.self) {
                    _ = try await login.imapConnection(for: account, endpoint: IMAPEndpoint(account: account))
                }
                #expect(error.isLoginRefused)
            case .smtp:
                let server = try await SMTPTestServer.start()
                defer { server.stop() }
                let account = Account(
                    name: "Ada", email: "ada@example.com", imapHost: "127.0.0.1", smtpHost: "127.0.0.1",
                    smtpPort: server.tlsPort, username: "ada", caFile: server.caFile)
                let error = try await #require(throws: SMTPError.self) {
                    _ = try await login.smtpConnection(for: account, endpoint: SMTPEndpoint(account: account))
                }
                #expect(error.isLoginRefused)
            }
            #expect(credentials.refusals == 0)
            #expect(credentials.asked == 1)
        }

        /// `AB:CD:…` as `openssl x509 -fingerprint -sha256` computes it.
        static func opensslFingerprint(_ pemFile: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["x509", "-noout", "-fingerprint", "-sha256", "-in", pemFile]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return String(try #require(line.split(separator: "=", maxSplits: 1).last))
        }

        static func der(_ pemFile: String) throws -> [UInt8] {
            let pem = try String(contentsOfFile: pemFile, encoding: .utf8)
            let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return Array(try #require(Data(base64Encoded: base64)))
        }
    }
}
