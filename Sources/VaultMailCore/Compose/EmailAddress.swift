/// Reading and checking the addresses a user types ("ada@example.com",
/// "Ada Lovelace <ada@example.com>", "\"Lovelace, Ada\" <ada@example.com>").
public enum EmailAddress {
    /// The participant `text` names. Throws `ComposeError.invalidAddress` for anything that is
    /// not one address (`field` names the header in the error).
    public static func parse(_ text: String, field: String) throws(ComposeError) -> Participant {
        let trimmed = text.trimmingWhitespace()
        var name: String?
        var address = trimmed
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
                .trimmingWhitespace()
            var phrase = String(trimmed[..<open]).trimmingWhitespace()
            if phrase.count >= 2, phrase.hasPrefix("\""), phrase.hasSuffix("\"") {
                phrase = unquote(String(phrase.dropFirst().dropLast()))
            }
            name = phrase.isEmpty ? nil : phrase
        }
        try validate(address, field: field, original: text)
        return Participant(name: name, email: address)
    }

    /// Throws unless `address` is an addr-spec we can put in a header and an SMTP envelope:
    /// ASCII, one `@`, a non-empty local part without spaces or specials, a domain of letters,
    /// digits, hyphens and dots (or an address literal in brackets).
    public static func validate(_ address: String, field: String, original: String? = nil) throws(ComposeError) {
        let shown = original ?? address
        func fail(_ reason: String) -> ComposeError { .invalidAddress(shown, field: field, reason: reason) }
        guard !address.isEmpty else { throw fail("it is empty") }
        guard address.unicodeScalars.allSatisfy({ $0.isASCII }) else {
            throw fail("addresses with non-ASCII characters cannot be sent (the server would need SMTPUTF8)")
        }
        guard let at = address.lastIndex(of: "@") else { throw fail("it has no @") }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else { throw fail("the part before or after @ is empty") }
        guard address.utf8.count <= 254 else { throw fail("it is longer than 254 characters") }
        let specials: Set<Character> = ["(", ")", "<", ">", "[", "]", ":", ";", "@", "\\", ",", "\"", " "]
        for character in local where specials.contains(character) || character.asciiValue.map({ $0 < 0x21 || $0 == 0x7F }) == true {
            throw fail("'\(character == " " ? "space" : String(character))' is not allowed before the @")
        }
        if local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") {
            throw fail("the part before @ has a misplaced dot")
        }
        if domain.hasPrefix("[") && domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" || $0.isLetter }) else {
                throw fail("the address literal after @ is malformed")
            }
            return
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw fail("'\(domain)' is not a valid domain")
            }
        }
    }

    /// `text` without quoted-pair backslashes.
    private static func unquote(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}

extension EmailAddress {
    /// The addresses of a field as typed: split at commas and semicolons outside quotes and
    /// angle brackets (`"Lovelace, Ada" <ada@example.com>, bob@example.com` is two), trimmed,
    /// empty ones dropped.
    public static func split(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false, angled = false, escaped = false
        for character in text {
            if escaped { current.append(character); escaped = false; continue }
            switch character {
            case "\\" where quoted: escaped = true; current.append(character)
            case "\"": quoted.toggle(); current.append(character)
            case "<" where !quoted: angled = true; current.append(character)
            case ">" where !quoted: angled = false; current.append(character)
            case _ where !quoted && !angled && (character == "," || character == ";" || character == "\n"):
                parts.append(current)
                current = ""
            default: current.append(character)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}
