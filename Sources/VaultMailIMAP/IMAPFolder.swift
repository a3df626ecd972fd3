public import VaultMailCore

/// A mailbox as LIST reports it.
public struct IMAPFolder: Sendable, Hashable {
    /// The full name, decoded from IMAP's modified UTF-7 (`Entwürfe`, `[Gmail]/Sent Mail`).
    /// Pass it back as is to `select`, `append`, `move`: it is encoded again on the way out.
    public var path: String
    /// The hierarchy separator (`/` or `.`), nil for a flat namespace.
    public var delimiter: Character?
    /// Attributes as the server sent them, with the backslash: `\HasNoChildren`, `\Sent`, `\Noselect`.
    public var attributes: Set<String>

    public init(path: String, delimiter: Character?, attributes: Set<String>) {
        self.path = path
        self.delimiter = delimiter
        self.attributes = attributes
    }

    /// The last component of the path, as shown to the user ("Sent Mail" of `[Gmail]/Sent Mail`).
    public var name: String {
        if path.uppercased() == "INBOX" { return "Inbox" }
        guard let delimiter, let last = path.split(separator: delimiter, omittingEmptySubsequences: true).last else {
            return path
        }
        return String(last)
    }

    /// False for `\Noselect` / `\NonExistent` containers such as `[Gmail]`.
    public var isSelectable: Bool {
        !hasAttribute("\\Noselect") && !hasAttribute("\\NonExistent")
    }

    public func hasAttribute(_ attribute: String) -> Bool {
        attributes.contains { $0.lowercased() == attribute.lowercased() }
    }

    /// The role of this folder judged on its own (special-use attribute first, then its name).
    /// Use `FolderTypeMapping.folderTypes(for:)` on the whole list so each role goes to one folder.
    public var folderType: FolderType { FolderTypeMapping.folderType(for: self) }
}
