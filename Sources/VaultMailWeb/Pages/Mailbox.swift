import VaultMailCore

/// Which list the user is looking at, as it appears in URLs (`box=`).
enum Mailbox: Equatable, Sendable {
    /// Every account's inbox, merged by date (AC-U-12).
    case unified(FolderType)
    case folder(id: String)
    /// Queued, sending and failed messages (virtual, AC-U-05).
    case outbox

    static let allInboxes = Mailbox.unified(.inbox)

    init?(parameter: String?) {
        guard let parameter, !parameter.isEmpty else {
            self = .allInboxes
            return
        }
        if parameter == "inbox" {
            self = .allInboxes
        } else if parameter == "outbox" {
            self = .outbox
        } else if parameter.hasPrefix("all:"), let type = FolderType(rawValue: String(parameter.dropFirst(4))) {
            self = .unified(type)
        } else if parameter.hasPrefix("f:"), parameter.count > 2 {
            self = .folder(id: String(parameter.dropFirst(2)))
        } else {
            return nil
        }
    }

    var parameter: String {
        switch self {
        case .unified(.inbox): "inbox"
        case .unified(let type): "all:\(type.rawValue)"
        case .folder(let id): "f:\(id)"
        case .outbox: "outbox"
        }
    }

    /// The list's URL, with a category and an open thread when given.
    func url(category: AICategory? = nil, thread: String? = nil) -> String {
        var url = "/mail?box=\(WebForm.escape(parameter))"
        if let category { url += "&cat=\(category.rawValue)" }
        if let thread { url += "&t=\(WebForm.escape(thread))" }
        return url
    }
}
