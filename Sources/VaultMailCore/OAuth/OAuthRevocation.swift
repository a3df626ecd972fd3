import Foundation

/// Revoking an OAuth2 sign-in at its provider (RFC 7009) when its account is removed, so the
/// refresh token kept in the keyring stops working everywhere, not only here.
public struct OAuthRevocation: Sendable {
    private let endpoint: OAuthTokenEndpoint
    private let provider: @Sendable (_ id: String) -> OAuthProvider?

    /// - Parameters:
    ///   - http: how the revocation endpoint is reached.
    ///   - provider: the provider of a grant's id (`gmail`, `outlook`) with its endpoints, as configured.
    public init(http: any OAuthHTTPClient, provider: @escaping @Sendable (_ id: String) -> OAuthProvider?) {
        endpoint = OAuthTokenEndpoint(http: http)
        self.provider = provider
    }

    /// Revokes the grant kept as the keyring `secret`; best effort, never throws.
    public func revoke(secret: Secret) async -> AccountRemoval.Revocation {
        guard let grant = OAuthGrant.decode(secret), let provider = provider(grant.provider),
              let url = provider.revocationEndpoint else { return .notApplicable }
        do {
            try await endpoint.revoke(grant.refreshToken, client: grant.client, at: url)
            return .revoked(provider: provider.name)
        } catch {
            return .failed(provider: provider.name, reason: "\(error)")
        }
    }
}
