/// Why an account could not be added, changed or found, with what to do instead. The words
/// are the same whichever door (the `vaultmail` tool, the web app) the request came by.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty or has characters other than letters, digits, '-', '_' and '.'.
    case invalidName(String)
    /// Another account has the name.
    case nameTaken(String)
    case notFound(id: String)
    /// The sync window is not 1 … `AppConstants.allMailSyncWindowDays` days.
    case invalidSyncWindow(Int)
    case emptyPassword
    /// The CA certificate file given for the servers cannot be read.
    case unreadableCAFile(String)
    /// No Secret Service kept the password.
    case keyringUnavailable(email: String, reason: String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            (name.isEmpty ? "The account needs a name" : "'\(name)' cannot name an account")
                + ": name it with letters, digits, '-', '_' or '.' (such as work or personal)."
        case .nameTaken(let name):
            "An account named '\(name)' already exists: remove it first, or choose another name."
        case .notFound:
            "That account no longer exists."
        case .invalidSyncWindow(let days):
            "\(days) days cannot be kept: choose between 1 and \(AppConstants.allMailSyncWindowDays) days, or all mail."
        case .unreadableCAFile(let path):
            "The CA certificate file \(path) cannot be read: give the path of a PEM file this user can read, or none to trust the system's authorities."
        case .emptyPassword:
            "The password is empty: type the password (or an app password), or give a command that prints it."
        case .keyringUnavailable(let email, let reason):
            "VaultMail cannot keep the password: no Secret Service (GNOME Keyring, KeePassXC) answered (\(reason)). "
                + "Start one and try again, or give a password command instead, such as `pass show mail/\(email)`."
        }
    }

    /// True when the request itself was wrong (the tool exits with its usage status).
    public var isBadInput: Bool {
        switch self {
        case .invalidName, .invalidSyncWindow, .emptyPassword, .unreadableCAFile: true
        case .nameTaken, .notFound, .keyringUnavailable: false
        }
    }
}
