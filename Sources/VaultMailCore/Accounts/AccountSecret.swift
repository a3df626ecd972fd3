/// How a new account proves who it is: a password (kept in the Secret Service, never the
/// store) or a command that prints it (`pass show mail`).
public enum AccountSecret: Sendable, Hashable {
    case password(String)
    case passwordCommand(String)
}
