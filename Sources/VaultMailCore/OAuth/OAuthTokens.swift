import Foundation

/// What a token endpoint gave: an access token (kept in memory only) until `expiresAt`, and
/// a refresh token when it issued or rotated one (kept in the keyring by `OAuthGrant`).
public struct OAuthTokens: Sendable, Hashable {
    public var accessToken: String
    public var expiresAt: Date
    public var refreshToken: String?

    public init(accessToken: String, expiresAt: Date, refreshToken: String?) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }
}

/// Everything an account needs to get access tokens without the user: kept whole in the
/// Secret Service as the account's secret, never in the database. The client and token
/// endpoint are kept with the refresh token so a refresh works wherever the tool runs.
public struct OAuthGrant: Sendable, Hashable, Codable {
    public var provider: String
    public var tokenEndpoint: URL
    public var client: OAuthClient
    public var refreshToken: String

    public init(provider: String, tokenEndpoint: URL, client: OAuthClient, refreshToken: String) {
        self.provider = provider
        self.tokenEndpoint = tokenEndpoint
        self.client = client
        self.refreshToken = refreshToken
    }

    /// The grant as the keyring keeps it (JSON).
    public func encoded() -> Secret {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Secret(String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self))
    }

    /// The grant from a keyring secret; nil when the secret is something else.
    public static func decode(_ secret: Secret) -> OAuthGrant? {
        try? JSONDecoder().decode(OAuthGrant.self, from: Data(secret.revealed.utf8))
    }
}
