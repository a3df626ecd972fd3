import Foundation
import VaultMailCore

/// One line of `vaultmail threads` at 80 columns: markers, short id, sender summary,
/// subject and preview, relative time. Unread (●), starred (★), attachments (+) and muted for
/// notifications (⊘) are symbols, never colour alone.
public struct ThreadRow: Sendable {
    public static let width = 80
    public static let idLength = 10

    /// `me`: the addresses of the user's accounts, shown as "me" among the participants.
    public static func render(_ thread: EmailThread, dates: RelativeDate, me: Set<String> = [], muted: Bool = false) -> String {
        let markers = (thread.isUnread ? "●" : " ") + (thread.isStarred ? "★" : " ") + (thread.hasAttachments ? "+" : " ") + (muted ? "⊘" : " ")
        let id = String(thread.id.prefix(idLength))
        let sender = fit(thread.senderSummary(me: me), 18)
        let time = dates.string(for: thread.latestDate)
        let fixed = DisplayWidth.of(markers) + 1 + id.count + 1 + 18 + 1 + 1 + 8
        let room = max(10, width - fixed)
        let preview = (thread.snippet ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let text = preview.isEmpty ? thread.subject : "\(thread.subject) — \(preview)"
        return "\(markers) \(id) \(sender) \(fit(text, room)) \(pad(time, 8, leading: true))"
    }

    /// `text` cut to `width` columns (with "…") or padded to it; wide characters count two.
    static func fit(_ text: String, _ width: Int) -> String {
        pad(cut(text, width), width)
    }

    /// `text` on one line, cut to `width` columns (with "…"): for a line's last column.
    static func cut(_ text: String, _ width: Int) -> String {
        DisplayWidth.cut(text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " "), width)
    }

    static func pad(_ text: String, _ width: Int, leading: Bool = false) -> String {
        DisplayWidth.pad(text, width, leading: leading)
    }
}
