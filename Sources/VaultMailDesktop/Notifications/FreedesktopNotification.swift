import Foundation
import VaultMailCore
import VaultMailNotifications

/// The wire format of the freedesktop Desktop Notifications protocol for one thread's
/// notification: what `Notify` is called with.
struct FreedesktopNotification {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The action key a server sends for a click on the notification itself.
    static let defaultActionKey = "default"
    /// KDE's action key that asks the server for a text field (`inline-reply` capability).
    static let inlineReplyKey = "inline-reply"
    /// The action key of the suggested reply at an index: "reply-suggestion-0" sends the first.
    static let suggestionKeyPrefix = "reply-suggestion-"
    /// The longest label of a suggested reply's button.
    static let suggestionLabelLength = 48

    struct Options {
        var appName: String
        var appIcon: String
        var desktopEntry: String
        var capabilities: Set<String>
    }

    /// `Notify`'s eight arguments for a thread group: the newest request first, the others
    /// counted as "and N more".
    static func arguments(for group: [NotificationRequest], replacing replacesId: UInt32, options: Options) -> [DBusValue] {
        let newest = group[0]
        let content = newest.content
        let markup = options.capabilities.contains("body-markup")
        let text = { (raw: String) in markup ? escapeMarkup(raw) : raw }
        var lines: [String] = []
        if !content.subtitle.isEmpty { lines.append(markup ? "<b>\(text(content.subtitle))</b>" : content.subtitle) }
        if !content.body.isEmpty { lines.append(text(content.body)) }
        if group.count > 1 {
            let more = "and \(group.count - 1) more"
            lines.append(markup ? "<i>\(more)</i>" : more)
        }
        return [
            .string(options.appName),
            .uint32(replacesId),
            .string(options.appIcon),
            .string(content.title),
            .string(lines.joined(separator: "\n")),
            // The quiet hours' digest is about no one email: nothing to act on; a follow-up
            // reminder only opens its conversation.
            .stringArray(content.categoryIdentifier == AppConstants.notificationCategoryDigest ? []
                         : content.categoryIdentifier == AppConstants.notificationCategoryFollowUp
                         ? (options.capabilities.contains("actions") ? [defaultActionKey, "Open"] : [])
                         : actions(capabilities: options.capabilities, suggestions: content.suggestedReplies)),
            .vardict(hints(for: content, options: options)),
            .int32(-1),
        ]
    }

    /// Action keys and labels, in pairs: the default click opens the thread; Reply is an
    /// inline text field where the server offers one, else an ordinary button; each suggested
    /// reply is a button that sends it.
    static func actions(capabilities: Set<String>, suggestions: [String] = []) -> [String] {
        guard capabilities.contains("actions") else { return [] }
        var actions = [
            defaultActionKey, "Open",
            AppConstants.notificationActionMarkRead, "Mark Read",
            AppConstants.notificationActionArchive, "Archive",
            AppConstants.notificationActionDelete, "Delete",
        ]
        actions += capabilities.contains("inline-reply")
            ? [inlineReplyKey, "Reply"]
            : [AppConstants.notificationActionReply, "Reply"]
        for (index, text) in suggestions.enumerated() {
            actions += [suggestionKeyPrefix + String(index), "↩ " + label(text)]
        }
        return actions
    }

    /// A suggested reply shortened to a button's width, at a word.
    static func label(_ text: String) -> String {
        guard text.count > suggestionLabelLength else { return text }
        let head = text.prefix(suggestionLabelLength - 1)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return cut.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)) + "…"
    }

    /// The text of the suggested reply an action key sends, nil for any other key.
    static func suggestion(for key: String, in content: NotificationContent) -> String? {
        guard key.hasPrefix(suggestionKeyPrefix), let index = Int(key.dropFirst(suggestionKeyPrefix.count)),
              content.suggestedReplies.indices.contains(index) else { return nil }
        return content.suggestedReplies[index]
    }

    static func hints(for content: NotificationContent, options: Options) -> [(String, DBusValue)] {
        var hints: [(String, DBusValue)] = [
            ("category", .string("email.arrived")),
            ("desktop-entry", .string(options.desktopEntry)),
            ("urgency", .byte(content.interruptionLevel == .timeSensitive || content.interruptionLevel == .critical ? 2 : 1)),
            ("x-kde-reply-placeholder-text", .string("Type your reply...")),
            ("x-dunst-stack-tag", .string(content.threadIdentifier)),
        ]
        switch content.sound {
        case .default: hints.append(("sound-name", .string("message-new-email")))
        case .none: hints.append(("suppress-sound", .bool(true)))
        }
        return hints
    }

    /// Escapes the three characters the body-markup subset gives meaning to.
    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
