/// What the thread-list use cases report (AC-U-13). Repository errors are wrapped so a
/// caller has one type to handle; `underlying` keeps the original, with its context.
public enum ThreadListError: Error, Sendable, CustomStringConvertible {
    case fetchFailed(underlying: any Error)
    case actionFailed(underlying: any Error)
    case threadNotFound(id: String)
    case folderNotFound(id: String)

    public var description: String {
        switch self {
        case .fetchFailed(let underlying): "could not load threads: \(underlying); try again"
        // Done on the server (issue 34): never "nothing was changed".
        case .actionFailed(let underlying as DoneOnServer): "\(underlying)"
        case .actionFailed(let underlying): "could not apply the action: \(underlying); nothing was changed, try again"
        case .threadNotFound(let id): "no thread with id \(id); list threads to see the current ids"
        case .folderNotFound(let id): "no folder with id \(id); list folders to see the current ids"
        }
    }
}
