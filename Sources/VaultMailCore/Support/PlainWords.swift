/// An error that can also say what happened in a person's words (issue 29): what happened and
/// what to do, with no internal id and no host:port. Its `description` keeps the technical
/// detail, which the faces show behind it: a disclosure in the web app, a second line in the
/// tool (`PlainWords.lines`).
public protocol PlainWordsError: Error {
    /// "Server unreachable: can't reach imap.example.org. Check your connection; VaultMail will retry."
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

    /// The tool's two lines: the words, then "Details: …". Kept as such where a reason is
    /// stored as text (an outgoing message's), and read back by `PlainProblem(lines:)`.
    public static func lines(_ error: any Error) -> String {
        PlainProblem(error).lines
    }

    /// What separates the words from the detail in `lines`.
    static let detailLine = "\n  Details: "

    /// Can't reach `host`: the words for a server that does not answer (refused, unknown host,
    /// no answer, hung up): never a TLS problem. `retrying`: VaultMail tries again by itself (a
    /// sync, the daemon); else the user is trying it now ("Test connection") and is told what to
    /// check.
    public static func unreachable(_ host: String, retrying: Bool = true) -> String {
        retrying
            ? "Server unreachable: can't reach \(host). Check your connection; VaultMail will retry."
            : "Server unreachable: can't reach \(host). Check the server's name and port, and your connection."
    }

    /// The words for an account whose OAuth2 sign-in the provider no longer accepts (the daemon's
    /// status; the account's settings page offers "Sign in again" when it says them).
    public static let signInAgain =
        "Your provider no longer accepts VaultMail's sign-in. Press Sign in again on the account's page in Settings; your mail stays here."

    /// The words for a full disk (issue 34): VaultMail can't store mail here until space is freed;
    /// nothing is lost, the server keeps the mail and the next sync catches up.
    public static let diskFull =
        "This computer's disk is full, so VaultMail can't store mail on it. Free some space; VaultMail then catches up by itself."

    /// Whether `error`, or an error it wraps, is the store failing because the disk is full.
    public static func isDiskFull(_ error: any Error) -> Bool {
        switch error {
        case let error as any StorageFailure: error.isDiskFull
        case let error as DoneOnServer: isDiskFull(error.underlying)
        case ThreadListError.actionFailed(let underlying), ThreadListError.fetchFailed(let underlying): isDiskFull(underlying)
        case let error as any WrappingError: error.wrapped.map(isDiskFull) ?? false
        default: false
        }
    }

    /// The sentence for a conversation that is gone.
    static let threadGone = "That conversation is no longer here: it may have been deleted or moved elsewhere."
}

/// An error as the faces show it: the words (what happened, what to do) and the technical detail
/// behind them, shown on demand; nil for a problem that has none (a field left empty).
public struct PlainProblem: Sendable, Hashable {
    public var words: String
    public var detail: String?

    public init(words: String, detail: String? = nil) {
        self.words = words
        self.detail = detail
    }

    /// `error`'s words and its detail (`PlainWords`); no detail when it would only repeat the
    /// words (an error whose description is already a person's words).
    public init(_ error: any Error) {
        let words = PlainWords.of(error), detail = PlainWords.detail(error)
        self.init(words: words, detail: detail.lowercased() == words.lowercased() ? nil : detail)
    }

    /// A problem kept as text (`lines`): the words, and the detail after "Details:" if any. Text
    /// without that line is all words.
    public init(lines text: String) {
        if let range = text.range(of: PlainWords.detailLine) {
            self.init(words: String(text[..<range.lowerBound]), detail: String(text[range.upperBound...]))
        } else {
            self.init(words: text)
        }
    }

    /// The words as a sentence: a capital first, a full stop last (a reason kept as a fragment,
    /// "sending was interrupted …", reads as one); a first word that is a name (a host, an
    /// address) keeps its case.
    public var sentence: String {
        let isName = words.prefix { $0 != " " }.contains { $0 == "." || $0 == "@" }
        let text = isName ? words : words.prefix(1).uppercased() + words.dropFirst()
        return ".!?”".contains(text.last ?? ".") ? text : text + "."
    }

    /// The words, then "Details: …" on a line of its own (the tool's form; stored text).
    public var lines: String {
        detail.map { words + PlainWords.detailLine + $0 } ?? words
    }

    /// `words` after `lead` ("Not sent: "), the detail kept. After a colon the words go on the
    /// sentence ("Not sent: with its attachments …"), a name ("VaultMail") keeping its capitals.
    public func led(by lead: String) -> PlainProblem {
        let first = words.prefix { $0 != " " }
        let plainWord = first.first?.isUppercase == true && first.dropFirst().allSatisfy(\.isLowercase)
        let rest = lead.hasSuffix(": ") && plainWord ? words.prefix(1).lowercased() + words.dropFirst() : words
        return PlainProblem(words: lead + rest, detail: detail)
    }
}

extension ThreadListError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .fetchFailed(let underlying): "Couldn't read the mail on this computer. \(PlainWords.of(underlying))"
        case .actionFailed(let underlying): PlainWords.of(underlying)
        case .threadNotFound: PlainWords.threadGone
        case .folderNotFound: "That folder is no longer here: it may have been removed on the server."
        }
    }
}

extension RepositoryError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .threadNotFound: PlainWords.threadGone
        case .emailNotFound: "That message is no longer here: it may have been deleted or moved elsewhere."
        case .folderNotFound: "That folder is no longer here: it may have been removed on the server."
        case .accountNotFound: "That account no longer exists."
        case .missingFolder(_, let type): "This account has no \(type.rawValue.capitalized) folder on its server, so this can't be done."
        case .duplicateAccountName(let name): "There is already an account called \(name). Choose another name."
        case .storage: "The mail store on this computer could not be written. Check the disk space and try again."
        }
    }
}
