/// The SASL mechanisms `SMTPConnection.login` can use with a password.
public enum SMTPAuthMechanism: String, Sendable, CaseIterable {
    case plain = "PLAIN"
    case login = "LOGIN"
}
