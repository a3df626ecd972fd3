/// An action the server carried out, after which this computer's copy could not follow
/// (issue 34): the store's write failed (a full disk) or the conversation had already left
/// this computer (a sync beside the action removed it first). The action is done, whatever
/// happened here; the next sync brings this computer's copy in line with the server.
/// `Conversations` reports it as done, with `underlying` as a note unless the conversation
/// was already gone. Thrown by a server-backed repository (`TriageServer`) after the server's OK.
public struct DoneOnServer: Error, Sendable, CustomStringConvertible {
    /// What was done: "archive thread 3f2a…".
    public var action: String
    /// What the store said when this computer's copy was changed.
    public var underlying: any Error

    public init(action: String, underlying: any Error) {
        self.action = action
        self.underlying = underlying
    }

    /// The conversation (or message) was no longer on this computer when its copy was to
    /// change: a sync removed it first, as the server's change asked. Nothing to tell.
    public var alreadyGone: Bool {
        switch underlying as? RepositoryError {
        case .threadNotFound, .emailNotFound: true
        default: false
        }
    }

    public var description: String {
        "\(action) was done on the server, but this computer's copy could not be updated: \(underlying); the next sync brings it up to date"
    }
}

extension DoneOnServer: PlainWordsError {
    /// Done on the server; why this computer's copy is behind, what to do, and that the next
    /// sync catches up.
    public var plainWords: String {
        PlainWords.isDiskFull(underlying)
            ? "Done on the server, but this computer's copy couldn't be updated because its disk is full. "
                + "Free some space on it; the next sync then brings it up to date."
            : "Done on the server, but this computer's copy couldn't be updated (its mail store couldn't be written). "
                + "The next sync brings it up to date."
    }
}
