import Foundation
import VaultMailCore
import VaultMailOAuth

/// Gets an account's password or token when a connection needs it: by running the account's
/// credential command (like mbsync's `PassCmd`); for an account signed in with OAuth2 in
/// VaultMail, an access token from `tokens` (refreshed with the grant in the keyring); else
/// the password from the `CredentialStore`. The secret is returned to the caller only: never
/// logged, stored or put in an error.
public struct AccountCredentials: CredentialProvider {
    let store: any CredentialStore
    let timeout: Duration
    /// The access tokens of OAuth2 accounts, in memory, shared by every copy of this value.
    public let tokens: OAuthAccessTokens

    public init(store: any CredentialStore, timeout: Duration = .seconds(30),
                oauthHTTP: any OAuthHTTPClient = URLSessionOAuthHTTPClient(), clock: any WallClock = SystemWallClock()) {
        self.store = store
        self.timeout = timeout
        tokens = OAuthAccessTokens(store: store, http: oauthHTTP, clock: clock)
    }

    public func secret(for account: Account) async throws -> Secret {
        if let command = account.credentialCommand {
            return try await run(command, account: account)
        }
        if account.authMethod == .oauth2 {
            return try await tokens.accessToken(for: account)
        }
        guard let secret = try await store.secret(for: account) else {
            throw CommandError("no password is stored in the keyring for account '\(account.name)'; store it with `secret-tool store --label=VaultMail application vaultmail account-id \(account.id)`")
        }
        return secret
    }

    /// A server refused the account's access token: the next one is fresh.
    public func secretRefused(for account: Account) async {
        await tokens.refused(account)
    }

    /// Runs `command` with /bin/sh; its first line of output is the secret. Past the timeout
    /// the shell's process group (everything it started) is killed.
    private func run(_ command: String, account: Account) async throws -> Secret {
        let result: ProcessCapture.Result
        do {
            result = try await ProcessCapture.run("/bin/sh", ["-c", command], includeErrors: false, timeout: timeout)
        } catch {
            throw CommandError("cannot run the credential command of account '\(account.name)': \(error)")
        }
        if result.timedOut {
            throw CommandError("the credential command of account '\(account.name)' did not finish within \(timeout) and was stopped; make sure it prints the secret without waiting for input")
        }
        guard result.exitedNormally, result.status == 0 else {
            throw CommandError("the credential command of account '\(account.name)' failed (status \(result.status)); run it yourself to see why")
        }
        let secret = String(decoding: result.output, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !secret.isEmpty else {
            throw CommandError("the credential command of account '\(account.name)' printed nothing; make it print the password (or token) on its first line")
        }
        return Secret(secret)
    }
}
