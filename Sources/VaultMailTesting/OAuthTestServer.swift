import Foundation
import VaultMailCore

/// A small OAuth2 authorization server for tests: `scripts/test-oauth-server.py` run by
/// Debian's `/usr/bin/python3` (standard library only) on 127.0.0.1, on a port it picks.
/// Consent is given at once (the authorization endpoint redirects back with a code); the
/// token endpoint checks PKCE and refreshes; revocation and introspection (RFC 7662, which
/// Dovecot's oauth2 passdb asks) are there too. The client secret reaches the script through
/// its environment, never its command line. `deinit` stops it.
public final class OAuthTestServer: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    public let clientID: String
    public let clientSecret: String?
    public let user: String
    private let process: ChildProcess

    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-oauth-server.py").path

    /// Starts a server for one client and one user, whom every sign-in is for.
    public static func start(clientID: String = "vaultmail-test-client", clientSecret: String? = nil, user: String = "ada",
                             accessLifetime: Int = 3600) async throws -> OAuthTestServer {
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_OAUTH_CLIENT_SECRET"] = clientSecret
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let process = try ChildProcess("/usr/bin/python3", [
            scriptPath, "--client-id", clientID, "--user", user, "--access-lifetime", String(accessLifetime),
        ], environment: environment)
        do {
            let (line, _) = try await process.waitForLine(timeout: .seconds(30)) { $0.contains("\"ready\"") }
            guard let port = (try? decode(line))?["port"] as? Int else { throw Failure(description: "no port in \(line)") }
            return OAuthTestServer(port: port, clientID: clientID, clientSecret: clientSecret, user: user, process: process)
        } catch {
            process.stop()
            throw error
        }
    }

    private init(port: Int, clientID: String, clientSecret: String?, user: String, process: ChildProcess) {
        self.port = port
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.user = user
        self.process = process
    }

    deinit {
        process.stop()
    }

    public func stop() {
        process.stop()
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    public var authorizationEndpoint: URL { baseURL.appendingPathComponent("authorize") }
    public var tokenEndpoint: URL { baseURL.appendingPathComponent("token") }
    public var revocationEndpoint: URL { baseURL.appendingPathComponent("revoke") }
    public var introspectionEndpoint: URL { baseURL.appendingPathComponent("introspect") }

    /// `provider` (Google's preset unless given) with this server's endpoints.
    public func provider(_ preset: OAuthProvider = .google) -> OAuthProvider {
        preset.with(authorizationEndpoint: authorizationEndpoint, tokenEndpoint: tokenEndpoint, revocationEndpoint: revocationEndpoint)
    }

    public var client: OAuthClient { OAuthClient(id: clientID, secret: clientSecret) }

    // MARK: What happened

    /// Waits until every event of requests already answered has been read: the script prints
    /// each before its reply, and this round trip through its input comes after them.
    public func settle() async throws {
        try await command(["settle": true])
    }

    /// The events read so far (`settle()` first for all of those already answered).
    public var events: [[String: Any]] {
        process.lines.compactMap { try? Self.decode($0) }
    }

    /// The token requests so far: grant type, whether it was granted, and the error when not.
    public var tokenRequests: [(grantType: String, ok: Bool, error: String?)] {
        events.filter { $0["event"] as? String == "token" }.map {
            ($0["grant_type"] as? String ?? "", $0["ok"] as? Bool ?? false, $0["error"] as? String)
        }
    }

    public var refreshCount: Int { tokenRequests.filter { $0.grantType == "refresh_token" && $0.ok }.count }

    /// Everything the script printed, standard error included.
    public var output: String { process.allOutput }

    // MARK: Behaviour

    public func setAccessLifetime(seconds: Int) async throws { try await command(["set": "access_lifetime", "value": seconds]) }
    public func setRotatesRefreshTokens(_ on: Bool) async throws { try await command(["set": "rotate", "value": on]) }
    public func setDeniesConsent(_ on: Bool) async throws { try await command(["set": "deny", "value": on]) }
    public func setAnswersWithWrongState(_ on: Bool) async throws { try await command(["set": "wrong_state", "value": on]) }
    /// The token endpoint answers `status` (503: a provider that is down) to every request;
    /// nil: it works again.
    public func setTokenEndpointStatus(_ status: Int?) async throws {
        try await command(["set": "token_status", "value": status.map { $0 as Any } ?? NSNull()])
    }
    /// Every access token issued so far expires now (refresh tokens still work).
    public func expireAccessTokens() async throws { try await command(["expire_access": true]) }
    /// Every token of `user` is revoked, as a password change at the provider does.
    public func revokeTokens(of user: String) async throws { try await command(["revoke_user": user]) }

    /// Every refresh and access token issued so far: for proving none reached a log, a store
    /// or an argument list.
    public func issuedTokens() async throws -> [String] {
        try await command(["secrets": true])
        let found = events.last { $0["event"] as? String == "secrets" }
        return found?["tokens"] as? [String] ?? []
    }

    private func command(_ command: [String: Any]) async throws {
        let before = process.lines.count
        try process.send(String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self))
        try await process.waitForLine(from: before) { $0.contains("\"done\"") }
    }

    private static func decode(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(line)")
        }
        return object
    }
}
