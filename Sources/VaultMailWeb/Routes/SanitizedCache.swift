import Synchronization
import VaultMailCore

/// Sanitized message HTML, kept for the few messages on screen: the conversation needs the
/// outline (hidden images, referenced inline parts) and the frame the full document right after.
final class SanitizedCache: Sendable {
    private struct Entries {
        var values: [String: SanitizedHTML] = [:]
        var order: [String] = []
    }

    private let sanitizer = HTMLSanitizer()
    private let shield: TrackerShield?
    private let entries = Mutex(Entries())
    private let capacity = 64

    /// `shield`: removes trackers from every message (issue 30); nil removes none.
    init(shield: TrackerShield? = nil) {
        self.shield = shield
    }

    /// The message sanitized without inline images or remote content (what the page needs to
    /// know about it).
    func outline(emailId: String, html: String) -> SanitizedHTML {
        if let hit = cached("\(emailId)|outline") { return hit }
        return store("\(emailId)|outline", sanitizer.sanitize(html, options: .init(shield: shield)))
    }

    /// The message as its frame shows it; `inline` (its `cid:` images) is read only when the
    /// frame is not cached; `imageSource`: where remote images are asked for (the same for a
    /// message each time).
    func frame(emailId: String, html: String, remoteImages: Bool, imageSource: (@Sendable (String) -> String)? = nil,
               inline: () async -> [String: String]) async -> SanitizedHTML {
        let key = "\(emailId)|frame|\(remoteImages)"
        if let hit = cached(key) { return hit }
        let images = await inline()
        return store(key, sanitizer.sanitize(html, options: .init(allowRemoteImages: remoteImages, contentIdURLs: images, shield: shield,
                                                                  remoteImageSource: imageSource)))
    }

    private func cached(_ key: String) -> SanitizedHTML? {
        entries.withLock { $0.values[key] }
    }

    private func store(_ key: String, _ value: SanitizedHTML) -> SanitizedHTML {
        entries.withLock { entries in
            if entries.values.updateValue(value, forKey: key) == nil { entries.order.append(key) }
            while entries.order.count > capacity { entries.values[entries.order.removeFirst()] = nil }
        }
        return value
    }
}
