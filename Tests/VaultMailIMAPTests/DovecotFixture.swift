import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// A private Dovecot with one user, and connections to it.
struct DovecotFixture {
    static let user = "ada"
    static let password = "correct horse battery staple"

    let server: DovecotServer

    static func start(
        certificate: DovecotServer.Certificate = .trusted, capabilities: [String]? = nil
    ) async throws -> DovecotFixture {
        DovecotFixture(
            server: try await DovecotServer.start(certificate: certificate, users: [user: password], capabilities: capabilities))
    }

    func endpoint(
        _ security: ConnectionSecurity, host: String? = nil, caFile: String?? = .none,
        readTimeout: Duration = .seconds(30)
    ) -> IMAPEndpoint {
        IMAPEndpoint(
            host: host ?? server.host, port: security == .tls ? server.imapsPort : server.imapPort, security: security,
            caFile: caFile ?? server.caFile, connectTimeout: .seconds(30), readTimeout: readTimeout)
    }

    /// A connected connection, not logged in.
    func connect(_ security: ConnectionSecurity = .plain, host: String? = nil) async throws -> IMAPConnection {
        try await IMAPConnection.connect(to: endpoint(security, host: host))
    }

    /// A connection logged in as the test user.
    func loggedIn(_ security: ConnectionSecurity = .plain) async throws -> IMAPConnection {
        let connection = try await connect(security)
        try await connection.login(user: Self.user, password: Secret(Self.password))
        return connection
    }

    /// A message with CRLF line ends, unique by `number`, dated `MailFixtures.referenceDate`.
    static func message(_ number: Int, subject: String? = nil, body: String = "Hello.") -> Data {
        TestMessage(subject: subject ?? "Message \(number)", date: MailFixtures.referenceDate,
                    messageId: "<message-\(number)@example.com>", body: body).data
    }
}
