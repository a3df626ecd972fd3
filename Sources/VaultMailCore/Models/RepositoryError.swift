/// Errors of the repositories, with what was looked for and what to do about it.
public enum RepositoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case threadNotFound(id: String)
    case emailNotFound(id: String)
    case folderNotFound(id: String)
    case accountNotFound(String)
    /// The account has no folder of a type an action needs (e.g. no Trash to delete into).
    case missingFolder(accountId: String, type: FolderType)
    case duplicateAccountName(String)
    case storage(String)

    public var description: String {
        switch self {
        case .threadNotFound(let id): "no thread with id \(id); it may have been deleted or moved since (`vaultmail threads` lists them)"
        case .emailNotFound(let id): "no email with id \(id); it may have been deleted since (`vaultmail show THREAD-ID` lists a thread's emails)"
        case .folderNotFound(let id): "no folder with id \(id); sync the account so its folders are known"
        case .accountNotFound(let name): "no account named or with id '\(name)'; `vaultmail account list` shows them"
        case .missingFolder(let accountId, let type):
            "account \(accountId) has no \(type.rawValue) folder; sync the account so its folders are known, or create one on the server"
        case .duplicateAccountName(let name): "an account named '\(name)' already exists; choose another name"
        case .storage(let message): "the local store failed: \(message)"
        }
    }
}
