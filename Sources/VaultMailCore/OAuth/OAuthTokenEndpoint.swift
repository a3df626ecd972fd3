import Foundation

/// The token endpoint's three requests (RFC 6749 §4.1.3 and §6, RFC 7009), built and read
/// here, sent by an `OAuthHTTPClient`. Errors name the endpoint and the provider's `error`
/// code, never the form's secrets.
public struct OAuthTokenEndpoint: Sendable {
    let http: any OAuthHTTPClient
    let clock: any WallClock

    public init(http: any OAuthHTTPClient, clock: any WallClock = SystemWallClock()) {
        self.http = http
        self.clock = clock
    }

    /// Exchanges an authorization code (with its PKCE verifier) for tokens.
    public func exchange(code: String, verifier: String, redirectURI: URL, client: OAuthClient, at endpoint: URL) async throws -> OAuthTokens {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
                      ("client_id", client.id), ("code_verifier", verifier)]
        if let secret = client.secret { fields.append(("client_secret", secret)) }
        return try await request(endpoint, fields)
    }

    /// A new access token for a refresh token (and a new refresh token when the provider rotates them).
    public func refresh(_ refreshToken: String, client: OAuthClient, at endpoint: URL) async throws -> OAuthTokens {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", client.id)]
        if let secret = client.secret { fields.append(("client_secret", secret)) }
        return try await request(endpoint, fields)
    }

    /// Revokes a refresh token (RFC 7009); best effort for the caller.
    public func revoke(_ refreshToken: String, client: OAuthClient, at endpoint: URL) async throws {
        var fields = [("token", refreshToken), ("token_type_hint", "refresh_token"), ("client_id", client.id)]
        if let secret = client.secret { fields.append(("client_secret", secret)) }
        let (status, body) = try await post(endpoint, fields)
        guard (200..<300).contains(status) else { throw Self.refusal(endpoint, status, body) }
    }

    private func request(_ endpoint: URL, _ fields: [(String, String)]) async throws -> OAuthTokens {
        let (status, body) = try await post(endpoint, fields)
        guard (200..<300).contains(status) else { throw Self.refusal(endpoint, status, body) }
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let access = json["access_token"] as? String, !access.isEmpty else {
            throw OAuthError.malformedResponse(endpoint: Self.name(endpoint), status: status)
        }
        let lifetime = (json["expires_in"] as? NSNumber)?.doubleValue ?? Double(json["expires_in"] as? String ?? "") ?? 3600
        return OAuthTokens(accessToken: access, expiresAt: clock.now.addingTimeInterval(lifetime),
                           refreshToken: (json["refresh_token"] as? String).flatMap { $0.isEmpty ? nil : $0 })
    }

    private func post(_ endpoint: URL, _ fields: [(String, String)]) async throws -> (Int, Data) {
        do {
            return try await http.postForm(endpoint, fields: fields)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.unreachable(endpoint: Self.name(endpoint), reason: "\(error)")
        }
    }

    static func refusal(_ endpoint: URL, _ status: Int, _ body: Data) -> OAuthError {
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        guard let code = json?["error"] as? String else { return .malformedResponse(endpoint: name(endpoint), status: status) }
        return .tokenRefused(endpoint: name(endpoint), status: status, error: code,
                             description: (json?["error_description"] as? String).map { String($0.prefix(200)) })
    }

    /// The endpoint as errors name it: scheme, host, port and path (never a query).
    static func name(_ url: URL) -> String {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? url.host ?? "the token endpoint"
    }
}
