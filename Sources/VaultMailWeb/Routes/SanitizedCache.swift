import Foundation
import VaultMailCore

/// Sanitized message HTML, kept for the few messages on screen: the conversation needs the
/// outline (hidden images, referenced inline parts) and the frame the full document right after.
final class SanitizedCache: Sendable {
    private let sanitizer = HTMLSanitizer()
    private let entries = Locked<[String: SanitizedHTML]>([:])
    private let order = Locked<[String]>([])
    private let capacity = 64

    /// The message sanitized without inline images or remote content (what the page needs to
    /// know about it).
    func outline(emailId: String, html: String) -> SanitizedHTML {
        cached("\(emailId)|outline") { sanitizer.sanitize(html) }
    }

    /// The message as its frame shows it.
    func frame(emailId: String, html: String, remoteImages: Bool, inline: [String: String]) -> SanitizedHTML {
        cached("\(emailId)|frame|\(remoteImages)") {
            sanitizer.sanitize(html, options: .init(allowRemoteImages: remoteImages, contentIdURLs: inline))
        }
    }

    private func cached(_ key: String, _ make: () -> SanitizedHTML) -> SanitizedHTML {
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = make()
        entries.withLock { $0[key] = value }
        let evicted = order.withLock { order -> [String] in
            order.append(key)
            guard order.count > capacity else { return [] }
            let drop = Array(order.prefix(order.count - capacity))
            order.removeFirst(drop.count)
            return drop
        }
        if !evicted.isEmpty { entries.withLock { for key in evicted { $0[key] = nil } } }
        return value
    }
}

/// A value behind a lock, for small shared state touched from request handlers.
final class Locked<Value: Sendable>: @unchecked Sendable {  // every access holds `lock`
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
