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
        /// What `count` counts, for a screen reader ("unread"; Outbox "waiting", Drafts "drafts").
        var what = "unread"
    }

    struct AccountSection {
        var account: Account
        var folders: [Entry]
    }

    var top: [Entry]
    var accounts: [AccountSection]
    var current: Mailbox
    /// The changes waiting for the server (`PendingChangesView`), at the foot.
    var pending: Markup = .empty

    static let order: [FolderType] = [.inbox, .starred, .snoozed, .drafts, .sent, .archive, .allMail, .spam, .trash]

    static func sorted(_ folders: [Folder]) -> [Folder] {
        folders.sorted { a, b in
            let x = order.firstIndex(of: a.folderType) ?? order.count
            let y = order.firstIndex(of: b.folderType) ?? order.count
            return x != y ? x < y : a.name.localizedStandardCompare(b.name) == .orderedAscending
        }
    }

    func render() -> Markup {
        struct Item { var url: String; var current: Bool; var icon: Markup; var name: String; var count: Int?; var unknown: Bool; var what: String }
        struct Section { var headingId: String; var colour: String; var name: String; var email: String; var folders: [Item]; var empty: Bool }
        struct Model { var compose: String?; var composeIcon: Markup; var top: [Item]; var accounts: [Section]; var pending: Markup }
        func item(_ entry: Entry) -> Item {
            Item(url: entry.mailbox.url(), current: entry.mailbox == current, icon: (entry.icon ?? .read).svg(),
                 name: entry.name, count: entry.count == 0 ? nil : entry.count, unknown: entry.count == nil,
                 what: entry.mailbox == .outbox ? "waiting" : entry.what)
        }
        return Self.template.render(Model(
            compose: accounts.isEmpty ? nil : "/compose?return=\(WebForm.escape(current.url()))", composeIcon: Icon.compose.svg(),
            top: top.map(item),
            accounts: accounts.map { section in
                Section(headingId: "acct-\(section.account.id.prefix(12))", colour: Self.accountColour(section.account.id, among: accounts.map(\.account.id)),
                        name: section.account.name, email: section.account.email, folders: section.folders.map(item), empty: section.folders.isEmpty)
            }, pending: pending))
    }

    private static let item = """
        <li><a href="{{url}}"{{#current}} aria-current="page"{{/current}}>{{{icon}}}<span class="box-name">{{name}}</span>\
        {{#count}}<span class="count"><span class="visually-hidden">, </span>{{count}}<span class="visually-hidden"> {{what}}</span></span>{{/count}}\
        {{#unknown}}<span class="count" title="Count unavailable">—</span>{{/unknown}}</a></li>
        """

    private static let template = Template("""
        <nav class="sidebar" id="sidebar" aria-label="Mailboxes">\
        {{#compose}}<a class="compose-button" href="{{compose}}" title="New message (c)">{{{composeIcon}}}<span>New message</span></a>{{/compose}}\
        <h2 class="visually-hidden">Mailboxes</h2><ul class="boxes">{{#top}}\(item){{/top}}</ul>\
        {{#accounts}}<section class="account" aria-labelledby="{{headingId}}"><h3 id="{{headingId}}"><span class="acct-mark {{colour}}" aria-hidden="true"></span>{{name}}<span class="acct-email">{{email}}</span></h3>\
        {{#empty}}<p class="hint">No folders yet: the first sync is on its way.</p>{{/empty}}\
        {{^empty}}<ul class="boxes">{{#folders}}\(item){{/folders}}</ul>{{/empty}}\
        </section>{{/accounts}}\
        {{{pending}}}\
        <p class="sidebar-extra"><a href="/subscriptions">Subscriptions</a></p>\
        </nav>
        """)

    /// The colour class of an account's mark (the bar down a unified list's rows, AC-U-12): by
    /// its place among the accounts' ids in order, so two accounts never share a colour (up to
    /// six), the same in the sidebar and the list.
    static func accountColour<Ids: Sequence<String>>(_ id: String, among ids: Ids) -> String {
        "ac\((ids.sorted().firstIndex(of: id) ?? StableHash.bucket(id, 6)) % 6)"
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
        case .snoozed: .snooze
        case .custom: .move
        }
    }
}
