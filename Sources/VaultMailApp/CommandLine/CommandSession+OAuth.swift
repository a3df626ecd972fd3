import Foundation
import VaultMailCore
import VaultMailOAuth
import VaultMailStore

extension CommandSession {
    /// `vaultmail account add NAME --provider gmail|outlook --email ADDR`.
    public struct NewOAuthAccount: Sendable {
        public var name: String
        public var email: String
        /// `gmail` or `outlook`.
        public var provider: String
        public var clientID: String?
        /// HOST[:PORT] instead of the provider's servers.
        public var imap: String?
        public var smtp: String?
        public var user: String?
        public var caFile: String?
        public var syncWindowDays = AppConstants.defaultSyncWindowDays

        public init(name: String, email: String, provider: String, clientID: String? = nil) {
            self.name = name
            self.email = email
            self.provider = provider
            self.clientID = clientID
        }
    }

    /// `vaultmail account add … --provider`: signs in with the provider in the browser (the
    /// consent URL goes to `progress` too), keeps the refresh token in the keyring and adds the
    /// account. Nothing is stored when the sign-in fails.
    public func addOAuthAccount(_ new: NewOAuthAccount, progress: @escaping @Sendable (String) -> Void) async throws -> String {
        let oauth = oauthAccountSignIn
        let provider: OAuthProvider, client: OAuthClient
        do {
            provider = try oauth.provider(new.provider)
            client = try oauth.client(provider, option: new.clientID)
        } catch let failure as OAuthAccountSignIn.Failure {
            throw CommandError(failure.description.replacingOccurrences(of: "the provider must", with: "--provider must"), usage: failure.usage)
        }
        let imap = try Self.endpoint(new.imap ?? "\(provider.imapHost):\(provider.imapPort)", option: "--imap", defaultPort: 993, security: .tls)
        let smtp = try Self.endpoint(new.smtp ?? "\(provider.smtpHost):\(provider.smtpPort)", option: "--smtp", defaultPort: 465, security: .tls)
        // A relative --ca-file is taken from where the command runs.
        let account = Account(
            name: new.name, email: new.email, imapHost: imap.host, imapPort: imap.port, smtpHost: smtp.host, smtpPort: smtp.port,
            security: .tls, username: new.user ?? new.email, authMethod: .oauth2, credentialCommand: nil,
            caFile: new.caFile.map { URL(fileURLWithPath: $0).path }, syncWindowDays: new.syncWindowDays)
        let accounts = accountService
        do {
            try await accounts.checkNew(account)
            try await signIn(account, provider: provider, client: client, progress: progress)
            try await accounts.add(account, secret: nil)
        } catch {
            throw CommandError.presenting(error)
        }
        return "Signed in with \(provider.name) and added account '\(account.name)' (\(account.email)): IMAP \(imap.host):\(imap.port), "
            + "SMTP \(smtp.host):\(smtp.port). The sign-in is kept in your keyring, never in VaultMail's database."
    }

    /// `vaultmail account reauth NAME`: the sign-in again (after the provider revoked it), with
    /// the same client unless `--oauth-client-id` names another. No mail is touched.
    public func reauthAccount(named name: String, clientID: String? = nil, progress: @escaping @Sendable (String) -> Void) async throws -> String {
        let account = try await account(named: name)
        let provider: OAuthProvider, client: OAuthClient
        do {
            (provider, client) = try await oauthAccountSignIn.reauthorization(of: account, clientID: clientID)
        } catch let failure as OAuthAccountSignIn.Failure {
            throw CommandError(failure.description, usage: failure.usage)
        }
        try await signIn(account, provider: provider, client: client, progress: progress)
        // A daemon running beside this tries the account at once (issue 34).
        try? SignedInAgain.record(accountId: account.id, in: GRDBSettingsStorage(database: dependencies.database))
        return "Signed in to '\(account.name)' (\(account.email)) again with \(provider.name); all its mail stayed on this computer."
    }

    /// The sign-in as this session does it: the browser opened, the access token to memory.
    var oauthAccountSignIn: OAuthAccountSignIn {
        OAuthAccountSignIn(configuration: oauthConfiguration, credentials: credentials, tokens: accountCredentials.tokens,
                           browser: oauthBrowser, timeout: oauthTimeout)
    }

    /// The flow, then the grant to the keyring and the access token to memory.
    private func signIn(_ account: Account, provider: OAuthProvider, client: OAuthClient,
                        progress: @escaping @Sendable (String) -> Void) async throws {
        do {
            try await oauthAccountSignIn.signIn(account, provider: provider, client: client) { url in
                progress("Opening your browser to sign in with \(provider.name). If it does not open, visit:\n\(url.absoluteString)")
            }
        } catch let failure as OAuthAccountSignIn.Failure {
            throw CommandError(failure.description)
        }
    }
}
