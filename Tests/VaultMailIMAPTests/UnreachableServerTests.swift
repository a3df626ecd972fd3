import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP

/// Issue 29: a server that cannot be reached is "unreachable" (`connectionFailed`, or
/// `connectionLost` when it hangs up at once), never a TLS problem, whatever the security the
/// account asks for; a TLS failure stays one (`ConnectionTests.tlsOnPlainPort`).
@Suite("A server that cannot be reached is not a TLS problem (issue 29)")
struct UnreachableServerTests {
    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let (descriptor, port) = try LoopbackListener.open(backlog: 1)
        close(descriptor)
        return port
    }

    @Test("Issue 29: a refused connection (ECONNREFUSED) is connectionFailed for IMAP over TLS, STARTTLS and plain",
          arguments: [ConnectionSecurity.tls, .starttls, .plain])
    func imapRefused(security: ConnectionSecurity) async throws {
        let port = try Self.closedPort()
        let imap = try IMAPConnection(endpoint: IMAPEndpoint(host: "127.0.0.1", port: port, security: security, connectTimeout: .seconds(5)))
        let error = try await #require(throws: IMAPError.self) { try await imap.connect() }
        #expect(error.kind == .connectionFailed)
        #expect(error.connectionFailure == .connectionFailed)
        #expect(!error.description.contains("TLS"))
    }

    @Test("Issue 29: a refused connection is connectionFailed for SMTP over TLS, STARTTLS and plain",
          arguments: [ConnectionSecurity.tls, .starttls, .plain])
    func smtpRefused(security: ConnectionSecurity) async throws {
        let port = try Self.closedPort()
        let smtp = SMTPConnection(endpoint: SMTPEndpoint(host: "127.0.0.1", port: port, security: security, connectTimeout: .seconds(5)))
        let error = try await #require(throws: SMTPError.self) { try await smtp.connect() }
        #expect(error.kind == .connectionFailed)
        #expect(!error.description.contains("TLS"))
    }

    @Test("Issue 29: a host name that cannot be resolved is connectionFailed, not TLS")
    func unknownHost() async throws {
        let imap = try IMAPConnection(endpoint: IMAPEndpoint(host: "nowhere.invalid", port: 993, security: .tls, connectTimeout: .seconds(5)))
        let error = try await #require(throws: IMAPError.self) { try await imap.connect() }
        #expect(error.kind == .connectionFailed)
        #expect(error.description.contains("cannot be resolved"))
    }

    @Test("Issue 29: a server that hangs up during the TLS handshake (going down) is a lost connection, not a TLS problem")
    func hangsUpDuringHandshake() async throws {
        let server = try HangingUpServer()
        let imap = try IMAPConnection(endpoint: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .tls, connectTimeout: .seconds(5)))
        let error = try await #require(throws: IMAPError.self) { try await imap.connect() }
        #expect(error.kind == .connectionLost)
        #expect(!error.description.contains("does this port speak TLS"))
    }
}

/// A TCP listener on 127.0.0.1 that accepts each connection and closes it at once, saying
/// nothing: a server going down, or a full one turning clients away.
final class HangingUpServer: @unchecked Sendable {  // the descriptor is only closed in deinit
    let port: Int
    private let descriptor: Int32
    private let thread: Thread

    init() throws {
        let (descriptor, port) = try LoopbackListener.open(backlog: 8)
        self.descriptor = descriptor
        self.port = port
        thread = Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 { return }
                close(client)
            }
        }
        thread.start()
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
