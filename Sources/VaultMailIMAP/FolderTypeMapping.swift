public import VaultMailCore

/// Decides which `FolderType` a mailbox plays: RFC 6154 special-use attributes first (and
/// Gmail's older XLIST ones), then well-known names (`Sent Items`, `Deleted Items`,
/// `Junk E-mail`, `[Gmail]/Sent Mail`, …) for servers that announce no special use.
public enum FolderTypeMapping {
    /// The type a special-use attribute names (`\Sent` → `.sent`), nil when none applies.
    public static func folderType(specialUse attributes: Set<String>) -> FolderType? {
        for attribute in attributes {
            if let type = attributeTypes[attribute.lowercased()] { return type }
        }
        return nil
    }

    /// The type a well-known name suggests, nil for any other name. Only top-level names and
    /// children of `INBOX`, `[Gmail]` or `[Google Mail]` count: `Projects/Sent` stays custom.
    public static func folderType(forName path: String, delimiter: Character?) -> FolderType? {
        if path.uppercased() == "INBOX" { return .inbox }
        var components = [Substring(path)]
        if let delimiter { components = path.split(separator: delimiter, omittingEmptySubsequences: true) }
        guard let last = components.last else { return nil }
        if components.count > 2 { return nil }
        if components.count == 2 {
            let parent = components[0].lowercased()
            guard parent == "inbox" || parent == "[gmail]" || parent == "[google mail]" else { return nil }
        }
        return nameTypes[last.lowercased()]
    }

    /// The type of one folder judged on its own: INBOX, then its special-use attribute, then
    /// its name; `.custom` otherwise.
    public static func folderType(for folder: IMAPFolder) -> FolderType {
        if folder.path.uppercased() == "INBOX" { return .inbox }
        return folderType(specialUse: folder.attributes)
            ?? folderType(forName: folder.path, delimiter: folder.delimiter).flatMap { serverManaged(folder, $0) ? nil : $0 }
            ?? .custom
    }

    /// The types of a whole LIST result, keyed by path. Special-use attributes win; a name only
    /// gives a role that no folder claims by attribute, and each role other than `.custom` goes
    /// to one folder at most (the first in server order). Unselectable folders are `.custom`.
    public static func folderTypes(for folders: [IMAPFolder]) -> [String: FolderType] {
        var result: [String: FolderType] = [:]
        var taken: Set<FolderType> = []
        for folder in folders where folder.path.uppercased() == "INBOX" {
            result[folder.path] = .inbox
            taken.insert(.inbox)
        }
        for folder in folders where result[folder.path] == nil && folder.isSelectable {
            if let type = folderType(specialUse: folder.attributes), !taken.contains(type) {
                result[folder.path] = type
                taken.insert(type)
            }
        }
        for folder in folders where result[folder.path] == nil && folder.isSelectable {
            if let type = folderType(forName: folder.path, delimiter: folder.delimiter), !taken.contains(type),
               !serverManaged(folder, type) {
                result[folder.path] = type
                taken.insert(type)
            }
        }
        for folder in folders where result[folder.path] == nil {
            result[folder.path] = .custom
        }
        return result
    }

    /// A mailbox named Snoozed that the server itself manages (the `\Snoozed` attribute of
    /// draft-murchison-email-snooze, whose servers refuse MOVE into it): not VaultMail's
    /// Snoozed mailbox (docs/snooze.md).
    static func serverManaged(_ folder: IMAPFolder, _ type: FolderType) -> Bool {
        type == .snoozed && folder.hasAttribute("\\Snoozed")
    }

    /// RFC 6154 attributes, plus the XLIST spellings older Gmail servers send.
    private static let attributeTypes: [String: FolderType] = [
        "\\inbox": .inbox,
        "\\sent": .sent,
        "\\drafts": .drafts,
        "\\trash": .trash,
        "\\junk": .spam,
        "\\spam": .spam,
        "\\archive": .archive,
        "\\all": .allMail,
        "\\allmail": .allMail,
        "\\flagged": .starred,
        "\\starred": .starred,
    ]

    /// Names used by Gmail, Outlook/Exchange, Apple Mail, Thunderbird, Yahoo and Courier.
    private static let nameTypes: [String: FolderType] = [
        "sent": .sent, "sent items": .sent, "sent messages": .sent, "sent mail": .sent, "sent-mail": .sent,
        "drafts": .drafts, "draft": .drafts,
        "trash": .trash, "deleted items": .trash, "deleted messages": .trash, "deleted": .trash, "bin": .trash,
        "junk": .spam, "spam": .spam, "junk e-mail": .spam, "junk email": .spam, "junk mail": .spam,
        "bulk mail": .spam,
        "archive": .archive, "archives": .archive,
        "all mail": .allMail,
        "starred": .starred,
        "snoozed": .snoozed, "vaultmail snoozed": .snoozed,
    ]
}
