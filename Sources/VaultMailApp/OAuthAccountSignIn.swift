import Foundation
import VaultMailCore
import VaultMailOAuth

/// The OAuth2 sign-in of one account, as `vaultmail account add --provider` / `account reauth`
/// and the web app's "Sign in with Google / Microsoft" / "Sign in again" do it: the flow
/// (`OAuthSignIn`, PKCE, state, the loopback listener), then the grant to the keyring and the
/// access token to memory. Its errors say what to do and never carry a secret.
struct OAuthAccountSignIn: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// A problem with what was asked (a usage error on the command line).
        var usage = false
    }

    var configuration: OAuthConfiguration
    var credentials: any CredentialStore
    /// The access tokens in memory, when the caller keeps them.
    var tokens: OAuthAccessTokens?
    var browser: any BrowserLauncher
    var timeout: Duration
    /// Where the listener's page sends the user back to (the web app); nil on the command line.
    var returnTo: URL?

    /// The provider `id` (gmail, outlook) with the configured endpoints.
    func provider(_ id: String) throws -> OAuthProvider {
        guard let provider = configuration.provider(id) else {
            throw Failure(description: "the provider must be gmail or outlook, not '\(id)'", usage: true)
        }
        return provider
    }

    /// The client: `option`, else the configured one.
    func client(_ provider: OAuthProvider, option: String?) throws -> OAuthClient {
        do {
            return try configuration.client(for: provider, clientID: option)
        } catch {
            throw Failure(description: "\(error)", usage: true)
        }
    }

    /// The provider and client to sign `account` in again with: those of its grant unless
    /// `clientID` names another client.
    func reauthorization(of account: Account, clientID: String?) async throws -> (OAuthProvider, OAuthClient) {
        guard account.authMethod == .oauth2, account.credentialCommand == nil else {
            throw Failure(description: "account '\(account.name)' does not sign in with OAuth2 in VaultMail (it uses a password or a token command); nothing to do")
        }
        let grant = (try? await credentials.secret(for: account)).flatMap { $0.flatMap(OAuthGrant.decode) }
        let providerID = grant?.provider ?? (account.isGmail ? "gmail" : "outlook")
        guard let provider = configuration.provider(providerID) else {
            throw Failure(description: "account '\(account.name)' names an unknown provider '\(providerID)'")
        }
        if clientID == nil, let grant { return (provider, grant.client) }
        return (provider, try client(provider, option: clientID))
    }

    /// The flow, then the grant to the keyring and the access token to memory. `show` gets the
    /// consent URL before the browser opens.
    func signIn(_ account: Account, provider: OAuthProvider, client: OAuthClient,
                show: @escaping @Sendable (URL) async -> Void) async throws {
        let returnTo = returnTo
        let flow = OAuthSignIn(tokens: OAuthTokenEndpoint(http: URLSessionOAuthHTTPClient()), browser: browser,
                               listener: { try LoopbackRedirectListener(returnTo: returnTo) }, timeout: timeout)
        let received: OAuthTokens
        do {
            received = try await flow.run(provider: provider, client: client, email: account.email, show: show)
        } catch {
            throw Failure(description: "cannot sign in to '\(account.name)': \(error)")
        }
        guard let refreshToken = received.refreshToken else {
            throw Failure(description: "\(provider.name) gave no refresh token, so VaultMail could not stay signed in; "
                + (provider.id == "outlook" ? "make sure the app registration allows offline_access" : "remove VaultMail's access in your account's security settings and try again"))
        }
        let grant = OAuthGrant(provider: provider.id, tokenEndpoint: provider.tokenEndpoint, client: client, refreshToken: refreshToken)
        do {
            try await credentials.storeSecret(grant.encoded(), for: account)
        } catch {
            throw Failure(description: "signed in, but cannot keep the sign-in in the keyring: \(error)")
        }
        await tokens?.remember(received, for: account)
    }
}

/// A browser the app does not open: the web app sends the user's browser to the consent page.
struct NoBrowserLauncher: BrowserLauncher {
    func open(_ url: URL) async throws {}
}
