import Foundation

/// The access tokens of accounts that signed in with OAuth2 in VaultMail: kept in memory only,
/// refreshed with the grant from the keyring a minute before they expire, and once more when
/// a server refuses one (`refused(_:)`) (AC-F-04b). A rotated refresh token replaces the old
/// one in the keyring at once. A refresh token the provider no longer accepts gives
/// `OAuthError.signInAgain`. One refresh per account at a time: callers asking meanwhile wait for it.
public actor OAuthAccessTokens {
    private struct Cached {
        var token: Secret
        var expiresAt: Date
    }

    private let store: any CredentialStore
    private let endpoint: OAuthTokenEndpoint
    private let clock: any WallClock
    private let margin: TimeInterval
    private var cache: [String: Cached] = [:]
    private var refreshing: [String: Task<Secret, any Error>] = [:]
    /// Bumped by `forget(accountId:)`: a refresh that began before it keeps nothing.
    private var generation: [String: Int] = [:]
    /// How many times each account's token was refreshed (for tests and the log).
    public private(set) var refreshCount: [String: Int] = [:]

    /// - Parameter margin: how long before its expiry a token is refreshed.
    public init(store: any CredentialStore, http: any OAuthHTTPClient, clock: any WallClock = SystemWallClock(), margin: TimeInterval = 60) {
        self.store = store
        endpoint = OAuthTokenEndpoint(http: http, clock: clock)
        self.clock = clock
        self.margin = margin
    }

    /// An access token for `account` good for at least `margin` more seconds.
    public func accessToken(for account: Account) async throws -> Secret {
        if let cached = cache[account.id], cached.expiresAt.timeIntervalSince(clock.now) > margin {
            return cached.token
        }
        if let running = refreshing[account.id] { return try await running.value }
        let task = Task { try await self.refresh(account) }
        refreshing[account.id] = task
        defer { refreshing[account.id] = nil }
        return try await task.value
    }

    /// A server refused the token: forget it, so the next `accessToken(for:)` refreshes.
    public func refused(_ account: Account) {
        cache[account.id] = nil
    }

    /// Tokens a sign-in just gave: the access token is used until it expires.
    public func remember(_ tokens: OAuthTokens, for account: Account) {
        cache[account.id] = Cached(token: Secret(tokens.accessToken), expiresAt: tokens.expiresAt)
    }

    /// Forgets the account's token (removed, or signed in again); a refresh under way for it
    /// keeps neither its access token nor a rotated refresh token.
    public func forget(accountId: String) {
        cache[accountId] = nil
        refreshCount[accountId] = nil
        generation[accountId, default: 0] += 1
    }

    /// Whether the account holds an access token in memory.
    public func holdsToken(accountId: String) -> Bool {
        cache[accountId] != nil
    }

    private func refresh(_ account: Account) async throws -> Secret {
        let started = generation[account.id, default: 0]
        guard let secret = try await store.secret(for: account), var grant = OAuthGrant.decode(secret) else {
            throw OAuthError.noGrant(account: account.name)
        }
        let tokens: OAuthTokens
        do {
            tokens = try await endpoint.refresh(grant.refreshToken, client: grant.client, at: grant.tokenEndpoint)
        } catch OAuthError.tokenRefused(_, _, let code, let description) where code == "invalid_grant" {
            cache[account.id] = nil
            throw OAuthError.signInAgain(account: account.name, reason: description ?? code)
        }
        guard generation[account.id, default: 0] == started else { return Secret(tokens.accessToken) }
        refreshCount[account.id, default: 0] += 1
        if let rotated = tokens.refreshToken, rotated != grant.refreshToken {
            grant.refreshToken = rotated
            try await store.storeSecret(grant.encoded(), for: account)
        }
        cache[account.id] = Cached(token: Secret(tokens.accessToken), expiresAt: tokens.expiresAt)
        return Secret(tokens.accessToken)
    }
}
