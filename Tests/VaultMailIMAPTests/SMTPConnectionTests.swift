import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// `SMTPConnection` against a real SMTP server (aiosmtpd, `SMTPTestServer`) on loopback.
/// Serialized: each test starts its own server, and the 2-core CI machine should not start
/// a dozen at once.
@Suite("SMTP against a real server (aiosmtpd)", .serialized)
struct SMTPConnectionTests {
    static let password = "correct horse battery staple"

    static func endpoint(_ server: SMTPTestServer, _ security: ConnectionSecurity, host: String? = nil) -> SMTPEndpoint {
        SMTPEndpoint(
            host: host ?? server.host, port: security == .tls ? server.tlsPort : server.port, security: security,
            caFile: server.caFile, connectTimeout: .seconds(30), readTimeout: .seconds(60))
    }

    /// A message with every line the wire must not alter: dots at line starts, a lone dot,
    /// trailing spaces, an empty line before the end; CRLF throughout.
    static let trickyMessage = Data([
        "From: Ada <ada@example.com>",
        "To: Grace <grace@example.com>",
        "Subject: dots",
        "Message-ID: <dots@example.com>",
        "",
        ".leading dot",
        "..two dots",
        ".",
        "trailing spaces   ",
        "",
        "",
    ].joined(separator: "\r\n").utf8)

    @Test("AC-F-07: implicit TLS, AUTH PLAIN, MAIL/RCPT/DATA: the message arrives byte for byte, dot-stuffing undone")
    func implicitTLS() async throws {
        let server = try await SMTPTestServer.start(password: Self.password)
        let smtp = try await SMTPConnection.connect(to: Self.endpoint(server, .tls))
        #expect(await smtp.capabilities.authMechanisms.isSuperset(of: ["PLAIN", "LOGIN"]))
        try await smtp.login(user: "ada", password: Secret(Self.password))
        try await smtp.send(Self.trickyMessage, from: "ada@example.com", to: ["grace@example.com", "hidden@example.com"])
        // A second message on the same connection.
        try await smtp.send(Data("Subject: two\r\n\r\nsecond\r\n".utf8), from: "ada@example.com", to: ["grace@example.com"])
        await smtp.quit()

        let received = try await server.waitForMessages(count: 2)
        #expect(received[0].raw == Self.trickyMessage)
        #expect(received[0].mailFrom == "ada@example.com")
        #expect(received[0].recipients == ["grace@example.com", "hidden@example.com"])
        #expect(received[1].raw == Data("Subject: two\r\n\r\nsecond\r\n".utf8))
        try await server.settle { $0.authAttempts.count == 1 }
        #expect(server.authAttempts == [.init(mechanism: "PLAIN", login: "ada", success: true)])
        #expect(!server.commands.contains("STARTTLS"))
    }

    @Test("AC-F-07: STARTTLS upgrades and greets again before AUTH (LOGIN); a 1 MB message arrives intact")
    func startTLS() async throws {
        let server = try await SMTPTestServer.start(password: Self.password)
        let smtp = try await SMTPConnection.connect(to: Self.endpoint(server, .starttls))
        try await smtp.login(user: "ada", password: Secret(Self.password), mechanism: .login)
        let attachment = Data((0..<786_432).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            .base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let big = Data(("Subject: big\r\n\r\n" + attachment + "\r\n").utf8)
        try await smtp.send(big, from: "ada@example.com", to: ["grace@example.com"])
        await smtp.quit()
        #expect(try await server.waitForMessages(count: 1)[0].raw == big)
        try await server.settle { $0.commands.count >= 4 && !$0.authAttempts.isEmpty }
        #expect(Array(server.commands.prefix(4)) == ["EHLO", "STARTTLS", "EHLO", "AUTH"])
        #expect(server.authAttempts.map(\.mechanism) == ["LOGIN"])
    }

    @Test("AC-F-07: an untrusted certificate is refused before AUTH (the server never sees AUTH)",
          arguments: [SMTPTestServer.Certificate.selfSigned, .wrongHost], [ConnectionSecurity.tls, .starttls])
    func untrustedCertificate(_ certificate: SMTPTestServer.Certificate, _ security: ConnectionSecurity) async throws {
        let server = try await SMTPTestServer.start(password: Self.password, certificate: certificate)
        let endpoint = Self.endpoint(server, security)
        let error = try await #require(throws: SMTPError.self) {
            let smtp = try await SMTPConnection.connect(to: endpoint)
            try await smtp.login(user: "ada", password: Secret(Self.password))
        }
        #expect(error.kind == .certificateRejected)
        #expect(error.description.contains("127.0.0.1:\(endpoint.port)"))
        #expect(error.description.contains(certificate == .wrongHost ? "not issued for 127.0.0.1" : "not signed by a trusted"))
        // Proof from the server: a later, valid login is the only AUTH it ever saw (events are
        // in order, so anything the refused connection sent would be listed before it).
        let plain = try await SMTPConnection.connect(
            to: SMTPEndpoint(host: "127.0.0.1", port: server.port, security: .plain))
        await plain.quit()
        try await server.waitForEvent { $0["event"] as? String == "command" && $0["verb"] as? String == "QUIT" }
        #expect(server.authAttempts.isEmpty)
        #expect(!server.commands.contains("AUTH"))
        #expect(!server.commands.contains("MAIL"))
        if security == .starttls {
            #expect(Array(server.commands.prefix(2)) == ["EHLO", "STARTTLS"])
        }
    }

    @Test("AC-F-07: a wrong password gives a clear error naming server, port and reply, never the password")
    func wrongPassword() async throws {
        let server = try await SMTPTestServer.start(password: Self.password)
        let smtp = try await SMTPConnection.connect(to: Self.endpoint(server, .tls))
        let secret = "hunter2-not-the-password"
        let error = try await #require(throws: SMTPError.self) { try await smtp.login(user: "ada", password: Secret(secret)) }
        #expect(error.kind == .authenticationFailed)
        #expect(error.replyCode == 535)
        #expect(error.description.hasPrefix("cannot log in to 127.0.0.1:\(server.tlsPort) as ada: 535"))
        #expect(error.description.contains("Check the user name and password"))
        #expect(!error.description.contains(secret))
        #expect(!String(describing: error).contains(secret))
        try await server.settle { !$0.authAttempts.isEmpty }
        #expect(server.authAttempts == [.init(mechanism: "PLAIN", login: "ada", success: false)])
        #expect(!server.output.contains(secret))
    }

    @Test("AC-F-07: XOAUTH2 with a valid token logs in; a refused token reports the server's reason, never the token")
    func xoauth2() async throws {
        let token = "ya29.test-token"
        let server = try await SMTPTestServer.start(password: Self.password, token: token)
        let good = try await SMTPConnection.connect(to: Self.endpoint(server, .tls))
        try await good.authenticateXOAuth2(user: "ada", accessToken: Secret(token))
        #expect(await good.isAuthenticated)
        await good.quit()

        let bad = try await SMTPConnection.connect(to: Self.endpoint(server, .tls))
        let error = try await #require(throws: SMTPError.self) {
            try await bad.authenticateXOAuth2(user: "ada", accessToken: "expired-token")
        }
        #expect(error.kind == .authenticationFailed)
        #expect(error.replyCode == 535)
        #expect(error.description.contains("\"status\": \"401\""))
        #expect(!error.description.contains("expired-token"))
        try await server.settle { $0.authAttempts.count >= 2 }
        #expect(server.authAttempts.map(\.success) == [true, false])
    }

    @Test("AC-F-07: a refused recipient resets the transaction and is named; a 4xx after DATA is temporary")
    func refusals() async throws {
        let server = try await SMTPTestServer.start(password: Self.password)
        try await server.rejectRecipients(["nobody@example.com"])
        let smtp = try await SMTPConnection.connect(to: Self.endpoint(server, .tls))
        try await smtp.login(user: "ada", password: Secret(Self.password))
        let refused = try await #require(throws: SMTPError.self) {
            try await smtp.send(Self.trickyMessage, from: "ada@example.com", to: ["grace@example.com", "nobody@example.com"])
        }
        #expect(refused.kind == .rejected)
        #expect(!refused.isTransient)
        #expect(refused.description.contains("<nobody@example.com>: 550 5.1.1"))
        try await server.settle { $0.commands.last == "RSET" }
        #expect(server.commands.suffix(2) == ["RCPT", "RSET"])

        try await server.setDataReply("451 4.3.0 Try again later")
        let later = try await #require(throws: SMTPError.self) {
            try await smtp.send(Self.trickyMessage, from: "ada@example.com", to: ["grace@example.com"])
        }
        #expect(later.kind == .temporaryFailure)
        #expect(later.isTransient)
        #expect(later.description.contains("451 4.3.0 Try again later"))
        #expect(server.messages.isEmpty)

        try await server.setDataReply(nil)
        try await smtp.send(Self.trickyMessage, from: "ada@example.com", to: ["grace@example.com"])
        #expect(try await server.waitForMessages(count: 1)[0].raw == Self.trickyMessage)
        await smtp.quit()
    }

    @Test("AC-F-07: no server, plain text to a remote host, and a dropped server fail with what to do")
    func connectionFailures() async throws {
        let server = try await SMTPTestServer.start(password: Self.password)
        let endpoint = Self.endpoint(server, .tls)
        let smtp = try await SMTPConnection.connect(to: endpoint)
        server.stop()
        let dropped = try await #require(throws: SMTPError.self) { try await smtp.login(user: "ada", password: Secret(Self.password)) }
        #expect(dropped.kind == .connectionLost)
        #expect(dropped.isTransient)

        let refused = try await #require(throws: SMTPError.self) { try await SMTPConnection.connect(to: endpoint) }
        #expect(refused.kind == .connectionFailed)
        #expect(refused.description.contains("127.0.0.1:\(server.tlsPort)"))
        #expect(refused.description.contains("Check the host name, the port and the network"))

        let remote = SMTPEndpoint(host: "192.0.2.1", port: 25, security: .plain)
        let plain = try await #require(throws: SMTPError.self) { try await SMTPConnection.connect(to: remote) }
        #expect(plain.kind == .plaintextRefused)

        try await server.restart()
        let again = try await SMTPConnection.connect(to: endpoint)
        try await again.login(user: "ada", password: Secret(Self.password))
        await again.quit()
    }

    @Test("AC-F-07: SMTP capabilities: EHLO keywords, AUTH mechanisms (also the old AUTH= form) and SIZE")
    func capabilities() {
        let parsed = SMTPCapabilities(ehloLines: [
            "smtp.example.com greets you", "PIPELINING", "SIZE 35882577", "auth login PLAIN xoauth2", "AUTH=LOGIN", "8BITMIME",
            "STARTTLS",
        ])
        #expect(parsed.pipelining && parsed.eightBitMIME && parsed.startTLS)
        #expect(parsed.authMechanisms == ["LOGIN", "PLAIN", "XOAUTH2"])
        #expect(parsed.sizeLimit == 35_882_577)
        #expect(!parsed.extensions.contains("SMTP.EXAMPLE.COM"))
    }
}
