import Foundation

/// What a message's `List-Unsubscribe` (RFC 2369 §3.2) and `List-Unsubscribe-Post`
/// (RFC 8058) headers offer, and the one way VaultMail unsubscribes by them (`method`).
///
/// RFC 2369: the value is a comma-separated list of URIs in angle brackets, in the list's
/// order of preference, with optional comments in parentheses; whitespace inside the brackets
/// (left by folding) is ignored, and URIs of schemes a client does not know are skipped.
public struct ListUnsubscribe: Sendable, Hashable {
    /// The URIs in the header's order, whitespace removed.
    public var uris: [String]
    /// RFC 8058 §3.1: `List-Unsubscribe-Post: List-Unsubscribe=One-Click` is present.
    public var oneClick: Bool

    public init(uris: [String], oneClick: Bool) {
        self.uris = uris
        self.oneClick = oneClick
    }

    /// Reads the two headers (raw, unfolded values). Throws `UnsubscribeError.malformedHeader`
    /// when the value holds no `<URI>` or a bracket is not closed.
    public static func parse(listUnsubscribe value: String, listUnsubscribePost post: String?) throws -> ListUnsubscribe {
        var uris: [String] = []
        var index = value.startIndex
        var sawSeparatorOrStart = true
        while index < value.endIndex {
            let character = value[index]
            switch character {
            case "<":
                guard let close = value[index...].firstIndex(of: ">") else {
                    throw UnsubscribeError.malformedHeader(value: value, reason: "a '<' is not closed by '>'")
                }
                let uri = String(value[value.index(after: index)..<close].filter { !$0.isWhitespace })
                if uri.isEmpty { throw UnsubscribeError.malformedHeader(value: value, reason: "'<>' holds no address") }
                if !sawSeparatorOrStart {
                    throw UnsubscribeError.malformedHeader(value: value, reason: "two addresses are not separated by a comma")
                }
                uris.append(uri)
                sawSeparatorOrStart = false
                index = value.index(after: close)
            case "(":
                index = try skipComment(value, from: index)
            case ",":
                sawSeparatorOrStart = true
                index = value.index(after: index)
            case _ where character.isWhitespace:
                index = value.index(after: index)
            default:
                throw UnsubscribeError.malformedHeader(
                    value: value, reason: "\"\(value[index...].prefix(40))\" is outside angle brackets")
            }
        }
        guard !uris.isEmpty else { throw UnsubscribeError.malformedHeader(value: value, reason: "it holds no <address>") }
        return ListUnsubscribe(uris: uris, oneClick: isOneClick(post))
    }

    /// RFC 8058 §3.1: the POST header's value is exactly `List-Unsubscribe=One-Click` (ASCII
    /// case-insensitive, surrounding whitespace ignored).
    static func isOneClick(_ post: String?) -> Bool {
        guard let post else { return false }
        return post.trimmingCharacters(in: .whitespaces).lowercased() == "list-unsubscribe=one-click"
    }

    /// A parenthesized comment (nested comments and `\` escapes, RFC 5322 §3.2.2); returns the index after it.
    private static func skipComment(_ value: String, from start: String.Index) throws -> String.Index {
        var depth = 0
        var index = start
        while index < value.endIndex {
            switch value[index] {
            case "\\": index = value.index(after: index)
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return value.index(after: index) }
            default: break
            }
            if index < value.endIndex { index = value.index(after: index) }
        }
        throw UnsubscribeError.malformedHeader(value: value, reason: "a comment '(' is not closed by ')'")
    }

    /// The first `https:` URI, as a URL with a host.
    public var httpsURL: URL? {
        uris.lazy.compactMap { uri -> URL? in
            guard uri.lowercased().hasPrefix("https:"), let url = URL(string: uri), url.host?.isEmpty == false else { return nil }
            return url
        }.first
    }

    /// The first `mailto:` URI that can be used.
    public var mailto: MailtoURI? {
        uris.lazy.filter { $0.lowercased().hasPrefix("mailto:") }.compactMap { try? MailtoURI.parse($0) }.first
    }

    /// How VaultMail unsubscribes (never a GET to a link, which a sender can count as a click
    /// and which may ask for more on a web page):
    /// 1. One-Click present and an https URI → the RFC 8058 POST to it;
    /// 2. else a mailto: URI → the mail it names, from the user's account;
    /// 3. else not offered, with the reason in words.
    public var method: UnsubscribeMethod {
        if oneClick, let url = httpsURL { return .oneClick(url) }
        if let mailto { return .mail(mailto) }
        let web = uris.contains { $0.lowercased().hasPrefix("https:") || $0.lowercased().hasPrefix("http:") }
        if oneClick, uris.contains(where: { $0.lowercased().hasPrefix("http:") }) {
            return .notOffered(reason: "the sender's one-click address uses http, which VaultMail refuses: the request "
                + "would travel unencrypted, so anyone on the way could read or change it (RFC 8058 asks for https)")
        }
        if web {
            return .notOffered(reason: "the sender offers only a web page (no one-click request, no mailto: address); "
                + "VaultMail does not open unsubscribe links for you, since opening one tells the sender the mail was read "
                + "and the page may ask for more — open it yourself from the message if you trust it")
        }
        return .notOffered(reason: "the List-Unsubscribe header names neither an https nor a mailto: address")
    }
}
