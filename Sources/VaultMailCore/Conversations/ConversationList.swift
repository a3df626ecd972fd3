import Foundation

/// A list of conversations as a face shows it: one folder's, or every account's folders of one
/// type merged (the unified inbox), in one category's tab or in all. What "Mark all as read"
/// covers (issue 29): `Conversations.markAllRead(in:upTo:)`.
public enum ConversationList: Sendable, Hashable {
    /// The conversations with mail in the folder `id`.
    case folder(id: String, category: AICategory? = nil)
    /// Every account's conversations with mail in a folder of `type`.
    case unified(FolderType, category: AICategory? = nil)

    /// The category tab shown, nil for all.
    public var category: AICategory? {
        switch self {
        case .folder(_, let category), .unified(_, let category): category
        }
    }
}
