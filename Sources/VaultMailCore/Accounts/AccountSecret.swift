/// How a new account proves who it is, as the web form and `vaultmail account add` give it:
/// a password (kept in the Secret Service, never the store), a command that prints it
/// (`pass show mail`), or a command that prints an OAuth2 access token.
public enum AccountSecret: Sendable, Hashable, CustomStringConvertible {
    case password(Secret)
    case passwordCommand(String)
    /// The account logs in with OAuth2 (XOAUTH2 or OAUTHBEARER) with the token it prints.
    case oauth2TokenCommand(String)

    /// What it is, never the password: "a password", "the command `pass show mail`".
    public var description: String {
        switch self {
        case .password: "a password"
        case .passwordCommand(let command): "the password command `\(command)`"
        case .oauth2TokenCommand(let command): "the OAuth2 token command `\(command)`"
        }
    }
}

extension Account {
    /// The account as it signs in with `secret`: a password or a password command with the
    /// password (`AuthMethod.password`), a token command with OAuth2; a command is kept as the
    /// account's `credentialCommand`, a password is not (it goes to the keyring). The one rule
    /// for adding an account (`Accounts.add`) and trying its servers first ("Test connection").
    public func signingIn(with secret: AccountSecret) -> Account {
        var account = self
        switch secret {
        case .password:
            account.authMethod = .password
            account.credentialCommand = nil
        case .passwordCommand(let command):
            account.authMethod = .password
            account.credentialCommand = command
        case .oauth2TokenCommand(let command):
            account.authMethod = .oauth2
            account.credentialCommand = command
        }
        return account
    }
}
