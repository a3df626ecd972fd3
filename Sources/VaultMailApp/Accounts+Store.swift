import VaultMailCore
import VaultMailOAuth
import VaultMailStore

extension Accounts {
    /// The accounts of `database`, their secrets in `credentials`, their settings in
    /// `settings`; a removed OAuth2 account's sign-in is revoked at its provider as
    /// `oauthConfiguration` names it. The tool and the daemon's web app both build it so.
    public init(database: AppDatabase, credentials: any CredentialStore, settings: SettingsStore,
                oauthConfiguration: OAuthConfiguration = OAuthConfiguration(), accessTokens: OAuthAccessTokens? = nil) {
        self.init(repository: GRDBAccountRepository(database: database), credentials: credentials, settings: settings,
                  revocation: OAuthRevocation(http: URLSessionOAuthHTTPClient()) { oauthConfiguration.provider($0) },
                  accessTokens: accessTokens)
    }
}
