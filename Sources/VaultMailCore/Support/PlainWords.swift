/// An error that can also say what happened in a person's words (issue 29): what happened and
/// what to do, with no internal id and no host:port. Its `description` keeps the technical
/// detail, which the faces show behind it: a disclosure in the web app, a second line in the
/// tool (`PlainWords.lines`).
public protocol PlainWordsError: Error {
    /// "Can't reach imap.example.org. Check your connection; VaultMail will retry."
    var plainWords: String { get }
}

/// Errors said in a person's words, written once for every face.
public enum PlainWords {
    /// `error` in a person's words: its own, or the words of the error it wraps, or a general
    /// sentence for an error that has none.
    public static func of(_ error: any Error) -> String {
        if let error = error as? any PlainWordsError { return error.plainWords }
        return "Something went wrong. Try again; the details say what failed."
    }

    /// The technical detail behind the words: the error's own description.
    public static func detail(_ error: any Error) -> String { "\(error)" }

    /// The tool's two lines: the words, then "Details: …".
    public static func lines(_ error: any Error) -> String {
        "\(of(error))\n  Details: \(detail(error))"
    }

    /// Can't reach `host`: the words for a server that does not answer (refused, unknown host,
    /// no answer, hung up): never a TLS problem.
    public static func unreachable(_ host: String) -> String {
        "Can't reach \(host). Check your connection; VaultMail will retry."
    }
}

extension ThreadListError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .fetchFailed(let underlying): "Couldn't read the mail on this computer. \(PlainWords.of(underlying))"
        case .actionFailed(let underlying): PlainWords.of(underlying)
        case .threadNotFound: "That conversation is no longer here: it may have been deleted or moved elsewhere."
        case .folderNotFound: "That folder is no longer here: it may have been removed on the server."
        }
    }
}

extension RepositoryError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .threadNotFound: "That conversation is no longer here: it may have been deleted or moved elsewhere."
        case .emailNotFound: "That message is no longer here: it may have been deleted or moved elsewhere."
        case .folderNotFound: "That folder is no longer here: it may have been removed on the server."
        case .accountNotFound: "That account no longer exists."
        case .missingFolder(_, let type): "This account has no \(type.rawValue.capitalized) folder on its server, so this can't be done."
        case .duplicateAccountName(let name): "There is already an account called \(name). Choose another name."
        case .storage: "The mail store on this computer could not be written. Check the disk space and try again."
        }
    }
}
