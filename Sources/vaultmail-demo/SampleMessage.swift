import Foundation

/// One message of the demo's mailbox: who sent it, about what, when, and whether it has
/// been read. `rfc5322(to:)` renders it as a server would store it.
struct SampleMessage: Sendable {
    var name: String
    var address: String
    var subject: String
    var body: String
    /// How long before the demo started it was sent; zero for mail delivered during the demo.
    var age: TimeInterval = 0
    var isRead = false
    var messageId: String
    /// The message ids of the conversation this message answers, oldest first (its
    /// References header); the last is the one it answers directly (In-Reply-To).
    var references: [String] = []

    init(_ name: String, _ address: String, _ subject: String, _ body: String, age: TimeInterval = 0, isRead: Bool = false,
         replyTo: SampleMessage? = nil) {
        self.name = name
        self.address = address
        self.subject = subject
        self.body = body
        self.age = age
        self.isRead = isRead
        if let replyTo { references = replyTo.references + [replyTo.messageId] }
        messageId = "<\(UUID().uuidString.lowercased())@\(address.split(separator: "@").last ?? "example.org")>"
    }

    var sender: String { "\(name) <\(address)>" }

    /// The message as bytes, with CRLF line ends, dated `age` before `now`.
    func rfc5322(to recipient: String, now: Date = Date()) -> Data {
        var headers = [
            "From: \(sender)",
            "To: \(recipient)",
            "Subject: \(subject)",
            "Date: \(Self.dateFormatter.string(from: now.addingTimeInterval(-age)))",
            "Message-ID: \(messageId)",
        ]
        if let inReplyTo = references.last {
            headers.append("In-Reply-To: \(inReplyTo)")
            headers.append("References: \(references.joined(separator: " "))")
        }
        headers += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
        let lines = headers + [""] + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()
}
