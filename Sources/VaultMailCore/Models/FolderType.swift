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
    /// Snoozed conversations wait here until they come back (issue 33, docs/snooze.md).
    case snoozed
    case custom
}
