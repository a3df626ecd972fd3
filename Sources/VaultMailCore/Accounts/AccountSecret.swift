/// How a new account proves who it is, as the web form and `vaultmail account add` give it:
/// a password (kept in the Secret Service, never the store), a command that prints it
/// (`pass show mail`), or a command that prints an OAuth2 access token.
public enum AccountSecret: Sendable, Hashable {
    case password(String)
    case passwordCommand(String)
    /// The account logs in with OAuth2 (XOAUTH2 or OAUTHBEARER) with the token it prints.
    case oauth2TokenCommand(String)
}
