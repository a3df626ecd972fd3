import Foundation

/// A notification as the notification server received it from the daemon.
struct ShownNotification: Sendable {
    /// The server's id for it (what `ActionInvoked` and `CloseNotification` name).
    var serverId: UInt32
    /// The title: the sender's name.
    var summary: String
    var subject: String
    /// The preview under the subject.
    var text: String
    /// Button labels, in order.
    var actions: [String]
    /// Button label → the action key the server reports when it is pressed.
    var actionKeys: [String: String]

    /// Reads a `Notify` call recorded by the recording server. The body is the subject (in
    /// bold when the server speaks body markup) and the preview, one per line.
    init(notifyCall event: [String: Any]) {
        serverId = UInt32(event["id"] as? Int ?? 0)
        summary = event["summary"] as? String ?? ""
        let lines = (event["body"] as? String ?? "").split(separator: "\n", maxSplits: 1).map { Self.plain(String($0)) }
        subject = lines.first ?? ""
        text = lines.count > 1 ? lines[1] : ""
        let raw = event["actions"] as? [String] ?? []
        var labels: [String] = []
        var keys: [String: String] = [:]
        for index in stride(from: 0, to: raw.count - 1, by: 2) {
            labels.append(raw[index + 1])
            keys[raw[index + 1]] = raw[index]
        }
        actions = labels
        actionKeys = keys
    }

    /// What a notification server shows for `message` (for servers the demo cannot listen to).
    init(message: SampleMessage) {
        serverId = 0
        summary = message.name
        subject = message.subject
        text = message.body.split(separator: "\n").first.map(String.init) ?? ""
        actions = []
        actionKeys = [:]
    }

    /// The text without the body-markup subset's tags and entities.
    static func plain(_ markup: String) -> String {
        var text = markup
        for tag in ["<b>", "</b>", "<i>", "</i>", "<u>", "</u>"] {
            text = text.replacingOccurrences(of: tag, with: "")
        }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
