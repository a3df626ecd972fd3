import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP

@Suite("Timeouts")
struct TimeoutTests {
    @Test(
        "E-01: a server that accepts but never answers times out with a clear error, not a hang",
        arguments: [ConnectionSecurity.plain, .tls])
    func silentServer(security: ConnectionSecurity) async throws {
        let silent = try SilentServer()
        let endpoint = IMAPEndpoint(
            host: "127.0.0.1", port: silent.port, security: security, connectTimeout: .seconds(1),
            readTimeout: .seconds(1))
        let started = ContinuousClock.now
        let error = try await #require(throws: IMAPError.self) { _ = try await IMAPConnection.connect(to: endpoint) }
        let elapsed = ContinuousClock.now - started
        #expect(error.kind == (security == .plain ? .timedOut : .tlsFailed))
        #expect(error.description.contains("127.0.0.1:\(silent.port)"))
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(60), "gave up after \(elapsed)")  // never, without the timeouts
    }
}
