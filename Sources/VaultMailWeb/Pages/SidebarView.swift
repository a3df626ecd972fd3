import VaultMailCore

/// The left pane (AC-M-01/02): the unified inbox, the Outbox, then each account with its
/// folders, system folders first in a fixed order, then the account's own, by name.
struct SidebarView {
    struct Entry {
        var mailbox: Mailbox
        var name: String
        /// Unread conversations (Outbox: messages waiting); nil when it could not be counted.
        var count: Int?
        var icon: Icon?
    }

    struct AccountSection {
        var account: Account
        var folders: [Entry]
    }

    var top: [Entry]
    var accounts: [AccountSection]
    var current: Mailbox

    static let order: [FolderType] = [.inbox, .starred, .drafts, .sent, .archive, .allMail, .spam, .trash]

    static func sorted(_ folders: [Folder]) -> [Folder] {
        folders.sorted { a, b in
            let x = order.firstIndex(of: a.folderType) ?? order.count
            let y = order.firstIndex(of: b.folderType) ?? order.count
            return x != y ? x < y : a.name.localizedStandardCompare(b.name) == .orderedAscending
        }
    }

    func render() -> String {
        var out = "<nav class=\"sidebar\" id=\"sidebar\" aria-label=\"Mailboxes\">"
        if !accounts.isEmpty {
            out += "<a class=\"compose-button\" href=\"/compose?return=\(FormFields.encode(current.url()))\" title=\"New message (c)\">\(Icon.compose.svg())<span>New message</span></a>"
        }
        out += "<h2 class=\"visually-hidden\">Mailboxes</h2><ul class=\"boxes\">"
        for entry in top { out += item(entry) }
        out += "</ul>"
        for section in accounts {
            let headingId = "acct-\(section.account.id.prefix(12))"
            out += "<section class=\"account\" aria-labelledby=\"\(headingId)\"><h3 id=\"\(headingId)\"><span class=\"acct-dot \(Self.accountColour(section.account.id))\" aria-hidden=\"true\"></span>\(HTML.escape(section.account.name))<span class=\"acct-email\">\(HTML.escape(section.account.email))</span></h3>"
            if section.folders.isEmpty {
                out += "<p class=\"hint\">No folders yet: the first sync is on its way.</p>"
            } else {
                out += "<ul class=\"boxes\">" + section.folders.map(item).joined() + "</ul>"
            }
            out += "</section>"
        }
        return out + "</nav>"
    }

    private func item(_ entry: Entry) -> String {
        let current = entry.mailbox == self.current ? " aria-current=\"page\"" : ""
        let count: String
        switch entry.count {
        case .some(0): count = ""
        case .some(let n): count = "<span class=\"count\"><span class=\"visually-hidden\">, </span>\(n)<span class=\"visually-hidden\"> \(entry.mailbox == .outbox ? "waiting" : "unread")</span></span>"
        case .none: count = "<span class=\"count\" title=\"Count unavailable\">—</span>"
        }
        return "<li><a href=\"\(HTML.escape(entry.mailbox.url()))\"\(current)>\((entry.icon ?? .read).svg())<span class=\"box-name\">\(HTML.escape(entry.name))</span>\(count)</a></li>"
    }

    /// A colour class from the account id (the unified inbox's dot, AC-U-12).
    static func accountColour(_ id: String) -> String {
        "ac\(StableHash.bucket(id, 6))"
    }
}

/// A small stable hash for colour choices (not security).
enum StableHash {
    static func bucket(_ text: String, _ buckets: Int) -> Int {
        var hash: UInt32 = 2166136261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16777619 }
        return Int(hash % UInt32(buckets))
    }
}

extension FolderType {
    var icon: Icon {
        switch self {
        case .inbox: .unread
        case .starred: .star
        case .sent: .move
        case .drafts: .read
        case .trash: .trash
        case .spam: .mute
        case .archive, .allMail: .archive
        case .custom: .move
        }
    }
}
