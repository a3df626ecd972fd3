/// One `Authentication-Results` header field (RFC 8601): the server that wrote it
/// (`authservId`) and what each of its checks (DKIM, SPF, DMARC, …) found. Comments are
/// dropped; names, results and property names are lowercased; values are as written, unquoted.
///
/// Only a field written by the user's own server means anything: anyone can put one in a
/// message, and the receiving server removes those that claim its name (RFC 8601 §5).
public struct AuthenticationResults: Sendable, Equatable {
    /// One check: `dkim=pass header.d=example.com` is method `dkim`, result `pass`, property
    /// `header.d` = `example.com`.
    public struct Check: Sendable, Equatable {
        public let method: String
        public let result: String
        public let properties: [String: String]

        public init(method: String, result: String, properties: [String: String] = [:]) {
            self.method = method
            self.result = result
            self.properties = properties
        }

        /// `dkim=pass header.d=example.com`, for the words that explain a decision.
        public var summary: String {
            ([method + "=" + result] + properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
                .joined(separator: " ")
        }
    }

    /// The server that wrote the field, lowercased.
    public let authservId: String
    public let checks: [Check]

    public init(authservId: String, checks: [Check]) {
        self.authservId = authservId
        self.checks = checks
    }

    /// Reads one field's value; nil when it names no server.
    public init?(_ value: String) {
        let parts = Self.split(Self.withoutComments(value), on: ";")
        guard let head = parts.first.flatMap({ Self.words($0).first }), !head.contains("=") else { return nil }
        authservId = Self.unquoted(head).lowercased()
        checks = parts.dropFirst().compactMap(Self.check)
    }

    /// `method[/version]=result [reason=…] [ptype.property=value …]`; nil for `none` and
    /// anything without a result.
    private static func check(_ text: String) -> Check? {
        let items = words(text.replacingOccurrences(of: #"\s*=\s*"#, with: "=", options: .regularExpression))
        guard let first = items.first, let equals = first.firstIndex(of: "=") else { return nil }
        let method = first[..<equals].split(separator: "/").first.map(String.init)?.lowercased() ?? ""
        let result = unquoted(String(first[first.index(after: equals)...])).lowercased()
        guard !method.isEmpty, !result.isEmpty else { return nil }
        var properties: [String: String] = [:]
        for item in items.dropFirst() {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let name = item[..<equals].lowercased()
            guard name != "reason", properties[name] == nil else { continue }
            properties[name] = unquoted(String(item[item.index(after: equals)...]))
        }
        return Check(method: method, result: result, properties: properties)
    }

    /// The text without its (possibly nested) comments; quoted strings are kept whole.
    static func withoutComments(_ text: String) -> String {
        var out = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                if depth == 0 { out.append(character) }
                continue
            }
            switch character {
            case "\\": escaped = true
                if depth == 0 { out.append(character) }
            case "\"" where depth == 0: quoted.toggle(); out.append(character)
            case "(" where !quoted: depth += 1; out.append(" ")
            case ")" where !quoted && depth > 0: depth -= 1
            default: if depth == 0 { out.append(character) }
            }
        }
        return out
    }

    /// `text` split at `separator` outside quoted strings.
    static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped { escaped = false; current.append(character); continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle() }
            if character == separator, !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// The whitespace-separated words of `text`, quoted strings kept whole.
    static func words(_ text: String) -> [String] {
        split(text.map { $0.isWhitespace ? " " : $0 }.reduce(into: "") { $0.append($1) }, on: " ")
            .filter { !$0.isEmpty }
    }

    /// A quoted string's content, or the text itself.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
    }
}
