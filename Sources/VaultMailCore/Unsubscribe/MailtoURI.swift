import Foundation

/// A `mailto:` URI (RFC 6068) as an unsubscribe header names it: the addresses to write to, and
/// the subject and body the list asks for. Other header fields in the URI (Cc, Bcc, From,
/// In-Reply-To …) are ignored: an unsubscribe request goes to the list's address only.
public struct MailtoURI: Sendable, Hashable {
    /// The addresses (the path, then any `to=` field), percent-decoded; never empty.
    public var to: [String]
    /// The `subject=` field, percent-decoded; empty when there is none.
    public var subject: String
    /// The `body=` field, percent-decoded; empty when there is none.
    public var body: String

    public init(to: [String], subject: String = "", body: String = "") {
        self.to = to
        self.subject = subject
        self.body = body
    }

    /// Reads `mailto:addr[,addr]?subject=…&body=…`. Throws `UnsubscribeError.malformedMailto`
    /// when it names no address or an address has no `@`.
    public static func parse(_ uri: String) throws -> MailtoURI {
        guard uri.lowercased().hasPrefix("mailto:") else {
            throw UnsubscribeError.malformedMailto(uri: uri, reason: "it does not start with mailto:")
        }
        let rest = uri.dropFirst("mailto:".count)
        let (path, query) = rest.firstIndex(of: "?").map { (rest[..<$0], rest[rest.index(after: $0)...]) } ?? (rest, "")
        var to = try addresses(String(path), uri: uri)
        var subject = "", body = ""
        for field in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(parts[0]), uri: uri).lowercased()
            let value = parts.count > 1 ? decode(String(parts[1]), uri: uri) : ""
            switch name {
            case "to": to += try addresses(value, uri: uri)
            case "subject": subject = value
            case "body": body = value
            default: continue
            }
        }
        guard !to.isEmpty else { throw UnsubscribeError.malformedMailto(uri: uri, reason: "it names no address to write to") }
        for address in to where !address.contains("@") || address.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" }) {
            throw UnsubscribeError.malformedMailto(uri: uri, reason: "\"\(address)\" is not an email address")
        }
        return MailtoURI(to: to, subject: subject, body: body.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    private static func addresses(_ text: String, uri: String) throws -> [String] {
        decode(text, uri: uri).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Percent-decoding (RFC 6068 §2: "+" is a plus, not a space); a broken escape stays as written.
    private static func decode(_ text: String, uri: String) -> String {
        text.removingPercentEncoding ?? text
    }
}
