/// The role a mailbox plays for the user. Raw values are stored in the database and
/// compared by the notification filters (`FolderType.inbox.rawValue`).
public enum FolderType: String, Sendable, Codable, CaseIterable, Hashable {
    case inbox
    case sent
    case drafts
    case trash
    case spam
    case archive
    case starred
    case allMail
    case custom
}
