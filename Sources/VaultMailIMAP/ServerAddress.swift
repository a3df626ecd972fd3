import Foundation

/// `host:port`, with IPv6 literals in brackets.
enum ServerAddress {
    static func text(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// An error's text: "cannot log in to host:port as ada: [server's words] — our reason. Hint."
    static func errorText(operation: String, host: String, port: Int, user: String?, details: [String?], hint: String?) -> String {
        var text = "cannot \(operation) \(self.text(host: host, port: port))"
        if let user { text += " as \(user)" }
        let present = details.compactMap { $0 }.filter { !$0.isEmpty }
        text += ": " + (present.isEmpty ? "no further detail" : present.joined(separator: " — "))
        if let hint { text += (text.hasSuffix(".") ? " " : ". ") + hint }
        return text
    }
}
