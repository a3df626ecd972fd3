/// Sanitizes mail CSS, from `<style>` elements and `style` attributes.
///
/// The CSS is read into rules and declarations and written back from what was read: comments go,
/// `@import`, `@font-face` and other at-rules go (`@media`, `@supports` and `@keyframes` stay,
/// with their rules sanitized), and a declaration goes when it could run code or escape the frame:
/// `expression()`, `behavior`, `-moz-binding`, `javascript:`, any backslash (so no CSS escape can
/// spell `url(`), `position: fixed|absolute|sticky`. Every `url()` is replaced by what
/// `ResourcePolicy` allows (a `cid:` image, an inline image, a remote one when shown) or by `none`.
/// The result never contains `<`, so it cannot close its `<style>` element.
struct CSSSanitizer {
    private var resources: ResourcePolicy
    private let css: [UInt8]

    /// Nesting allowed for `@media`/`@supports` blocks.
    private static let maximumBlockDepth = 3

    private init(_ source: some Sequence<UInt8>, resources: ResourcePolicy) {
        self.resources = resources
        css = Self.withoutComments(source)
    }

    /// The sanitized text of a style sheet.
    static func sanitizeStyleSheet(_ source: some Sequence<UInt8>, resources: inout ResourcePolicy) -> [UInt8] {
        var sanitizer = CSSSanitizer(source, resources: resources)
        var output: [UInt8] = []
        sanitizer.appendRules(in: 0..<sanitizer.css.count, depth: 0, to: &output)
        resources = sanitizer.resources
        return output
    }

    /// The sanitized value of a `style` attribute ("" when nothing is left).
    static func sanitizeDeclarations(_ source: String, resources: inout ResourcePolicy) -> String {
        var sanitizer = CSSSanitizer(source.utf8, resources: resources)
        let output = sanitizer.declarations(in: 0..<sanitizer.css.count)
        resources = sanitizer.resources
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Rules

    private mutating func appendRules(in range: Range<Int>, depth: Int, to output: inout [UInt8]) {
        var index = range.lowerBound
        while index < range.upperBound {
            while index < range.upperBound, isWhitespace(css[index]) || css[index] == ascii(";") { index += 1 }
            guard index < range.upperBound else { break }
            let preludeEnd = scan(from: index, to: range.upperBound, stoppingAt: [ascii("{"), ascii(";"), ascii("}")])
            let prelude = trimmed(index..<preludeEnd)
            guard preludeEnd < range.upperBound, css[preludeEnd] == ascii("{") else {
                // A statement at-rule (@import, @charset, @namespace) or stray text: dropped.
                if css[index] == ascii("@"), atRuleName(prelude) == "import" {
                    noteDroppedRemoteReference(in: prelude)
                }
                index = preludeEnd + 1
                continue
            }
            let blockEnd = matchingBrace(after: preludeEnd, limit: range.upperBound)
            let block = (preludeEnd + 1)..<blockEnd
            index = blockEnd + 1

            if css[prelude.lowerBound] == ascii("@") {
                let name = atRuleName(prelude)
                switch name {
                case "media", "supports", "keyframes", "-webkit-keyframes", "-moz-keyframes":
                    guard depth < Self.maximumBlockDepth, isSafeSelector(prelude) else { continue }
                    var inner: [UInt8] = []
                    appendRules(in: block, depth: depth + 1, to: &inner)
                    guard !inner.isEmpty else { continue }
                    output.append(contentsOf: css[prelude])
                    output.append(ascii("{"))
                    output.append(contentsOf: inner)
                    output.append(contentsOf: "}\n".utf8)
                case "font-face":
                    noteDroppedRemoteReference(in: block)
                default:
                    continue  // @page, @layer, @font-feature-values, ...: not needed for mail
                }
            } else {
                guard isSafeSelector(prelude) else { continue }
                let body = declarations(in: block)
                guard !body.isEmpty else { continue }
                output.append(contentsOf: css[prelude])
                output.append(ascii("{"))
                output.append(contentsOf: body)
                output.append(contentsOf: "}\n".utf8)
            }
        }
    }

    private func atRuleName(_ prelude: Range<Int>) -> String {
        let start = prelude.lowerBound + 1
        var end = start
        while end < prelude.upperBound, isNameByte(css[end]) { end += 1 }
        return String(decoding: css[start..<end], as: UTF8.self).lowercased()
    }

    /// A dropped `@import` or `@font-face` that pointed at the network counts as blocked content.
    private mutating func noteDroppedRemoteReference(in range: Range<Int>) {
        if contains(css[range], "//") { resources.noteDroppedRemoteResource() }
    }

    /// Selectors and at-rule preludes are kept only when they are plain: no escapes, no functions
    /// that load anything, nothing that could end the rule early.
    private func isSafeSelector(_ range: Range<Int>) -> Bool {
        let text = css[range]
        guard !text.isEmpty, balancedQuotes(text) else { return false }
        if text.contains(where: { $0 == ascii("\\") || $0 == ascii("<") || $0 == ascii("{") || $0 == ascii("}") || $0 == ascii(";") }) {
            return false
        }
        let lower = lowercased(text)
        // The prelude's own "@" is fine; another one is not.
        if lower.dropFirst().contains(ascii("@")) { return false }
        return !["url(", "expression", "javascript:", "vbscript:", "image(", "image-set(", "src("].contains { contains(lower, $0) }
    }

    // MARK: - Declarations

    /// `name:value;name:value` for the declarations in `range` that are safe.
    private mutating func declarations(in range: Range<Int>) -> [UInt8] {
        var output: [UInt8] = []
        var start = range.lowerBound
        while start < range.upperBound {
            let end = scan(from: start, to: range.upperBound, stoppingAt: [ascii(";")])
            if let declaration = declaration(in: start..<end) {
                if !output.isEmpty { output.append(ascii(";")) }
                output.append(contentsOf: declaration)
            }
            start = end + 1
        }
        return output
    }

    private static let forbiddenInValues = [
        "expression", "javascript:", "vbscript:", "livescript:", "@import", "-moz-binding", "behavior",
        "progid", "image(", "image-set(", "src(",
    ]
    private static let forbiddenProperties: Set<String> = ["behavior", "-ms-behavior", "-moz-binding", "-o-link", "-o-link-source"]
    private static let allowedPositions: Set<String> = ["static", "relative", "inherit", "initial", "unset", "revert"]

    private mutating func declaration(in range: Range<Int>) -> [UInt8]? {
        guard let colon = css[range].firstIndex(of: ascii(":")) else { return nil }
        let nameBytes = css[trimmed(range.lowerBound..<colon)]
        let value = css[trimmed((colon + 1)..<range.upperBound)]
        guard isPropertyName(nameBytes), !value.isEmpty, balancedQuotes(value) else { return nil }
        let name = String(decoding: lowercased(nameBytes), as: UTF8.self)
        guard !Self.forbiddenProperties.contains(name) else { return nil }
        if value.contains(where: { $0 == ascii("\\") || $0 == ascii("<") || $0 == ascii("{") || $0 == ascii("}") }) {
            return nil
        }
        let lower = lowercased(value)
        guard !Self.forbiddenInValues.contains(where: { contains(lower, $0) }) else { return nil }
        if name == "position" {
            // The keyword before any "!important"; var() and anything else is refused.
            let keyword = lower.prefix { $0 != ascii("!") }.filter { !isWhitespace($0) }
            guard Self.allowedPositions.contains(String(decoding: keyword, as: UTF8.self)) else { return nil }
        }
        guard let rewritten = rewritingURLs(Array(value), lowercased: lower) else { return nil }
        return Array(nameBytes) + [ascii(":")] + rewritten
    }

    /// The value with each `url(...)` replaced by `url("allowed")` or `none`; nil when one is malformed.
    private mutating func rewritingURLs(_ value: [UInt8], lowercased lower: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        var index = 0
        while index < value.count {
            guard let found = find(Array("url(".utf8), in: lower, from: index) else {
                output.append(contentsOf: value[index...])
                break
            }
            output.append(contentsOf: value[index..<found])
            var cursor = found + 4
            while cursor < value.count, isWhitespace(value[cursor]) { cursor += 1 }
            guard cursor < value.count else { return nil }
            let argument: ArraySlice<UInt8>
            if value[cursor] == ascii("\"") || value[cursor] == ascii("'") {
                guard let close = value[(cursor + 1)...].firstIndex(of: value[cursor]) else { return nil }
                argument = value[(cursor + 1)..<close]
                cursor = close + 1
                while cursor < value.count, isWhitespace(value[cursor]) { cursor += 1 }
                guard cursor < value.count, value[cursor] == ascii(")") else { return nil }
            } else {
                guard let close = value[cursor...].firstIndex(of: ascii(")")) else { return nil }
                argument = value[cursor..<close]
                if argument.contains(where: { $0 == ascii("\"") || $0 == ascii("'") || $0 == ascii("(") }) { return nil }
                cursor = close
            }
            if let url = resources.styleURL(String(decoding: argument, as: UTF8.self)) {
                output.append(contentsOf: "url(\"".utf8)
                output.append(contentsOf: Self.quotedURL(url))
                output.append(contentsOf: "\")".utf8)
            } else {
                output.append(contentsOf: "none".utf8)
            }
            index = cursor + 1
        }
        return output
    }

    /// A URL made safe inside `url("...")` and a `<style>` element: characters that could end the
    /// string, start an escape or close the element are percent-encoded.
    private static func quotedURL(_ url: String) -> [UInt8] {
        var output: [UInt8] = []
        for byte in url.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == ascii("\"") || byte == ascii("'") || byte == ascii("\\")
                || byte == ascii("<") || byte == ascii(">") {
                output.append(ascii("%"))
                if byte < 0x10 { output.append(ascii("0")) }
                output.append(contentsOf: String(byte, radix: 16, uppercase: true).utf8)
            } else {
                output.append(byte)
            }
        }
        return output
    }

    // MARK: - Scanning

    /// The CSS with comments, `<!--`/`-->` and NULs removed (outside strings), each comment
    /// replaced by a space as it separates tokens.
    private static func withoutComments(_ source: some Sequence<UInt8>) -> [UInt8] {
        let input = Array(source)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        var quote: UInt8? = nil
        while index < input.count {
            let byte = input[index]
            if byte == 0 { index += 1; continue }
            if let open = quote {
                output.append(byte)
                if byte == ascii("\\"), index + 1 < input.count {
                    output.append(input[index + 1])
                    index += 2
                    continue
                }
                if byte == open || byte == 0x0A { quote = nil }
                index += 1
                continue
            }
            if byte == ascii("/"), index + 1 < input.count, input[index + 1] == ascii("*") {
                var end = index + 2
                while end + 1 < input.count, !(input[end] == ascii("*") && input[end + 1] == ascii("/")) { end += 1 }
                index = min(end + 2, input.count)
                output.append(0x20)
                continue
            }
            if byte == ascii("<"), input[index...].starts(with: "<!--".utf8) { index += 4; output.append(0x20); continue }
            if byte == ascii("-"), input[index...].starts(with: "-->".utf8) { index += 3; output.append(0x20); continue }
            if byte == ascii("\"") || byte == ascii("'") { quote = byte }
            output.append(byte)
            index += 1
        }
        return output
    }

    /// The index of the first byte of `stops` at nesting level zero (outside strings and
    /// parentheses) from `start`, or `end`.
    private func scan(from start: Int, to end: Int, stoppingAt stops: [UInt8]) -> Int {
        var index = start
        var parentheses = 0
        while index < end {
            let byte = css[index]
            if byte == ascii("\"") || byte == ascii("'") {
                index = stringEnd(from: index, limit: end)
                continue
            }
            if byte == ascii("(") { parentheses += 1 } else if byte == ascii(")") { parentheses = max(0, parentheses - 1) }
            if parentheses == 0, stops.contains(byte) { return index }
            index += 1
        }
        return end
    }

    /// The index of the `}` closing the block opened at `open`, or `limit`.
    private func matchingBrace(after open: Int, limit: Int) -> Int {
        var depth = 0
        var index = open
        while index < limit {
            let byte = css[index]
            if byte == ascii("\"") || byte == ascii("'") {
                index = stringEnd(from: index, limit: limit)
                continue
            }
            if byte == ascii("{") { depth += 1 }
            if byte == ascii("}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return limit
    }

    /// The index just past the string starting at `start` (which ends at its quote or a newline).
    private func stringEnd(from start: Int, limit: Int) -> Int {
        let quote = css[start]
        var index = start + 1
        while index < limit {
            if css[index] == ascii("\\") { index += 2; continue }
            if css[index] == quote || css[index] == 0x0A { return index + 1 }
            index += 1
        }
        return limit
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(css[lower]) { lower += 1 }
        while upper > lower, isWhitespace(css[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}

// MARK: - Byte helpers

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

private func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= ascii("a") && byte <= ascii("z")) || (byte >= ascii("A") && byte <= ascii("Z"))
        || (byte >= ascii("0") && byte <= ascii("9")) || byte == ascii("-") || byte == ascii("_")
}

/// A property name: letters, digits, `-` and `_`, not starting with a digit (custom properties
/// `--name` included).
private func isPropertyName(_ name: ArraySlice<UInt8>) -> Bool {
    guard let first = name.first(where: { $0 != ascii("-") }), !(first >= ascii("0") && first <= ascii("9")) else { return false }
    return name.allSatisfy(isNameByte)
}

private func lowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    bytes.map { $0 >= ascii("A") && $0 <= ascii("Z") ? $0 + 32 : $0 }
}

private func contains(_ haystack: some Collection<UInt8>, _ needle: String) -> Bool {
    find(Array(needle.utf8), in: Array(haystack), from: 0) != nil
}

private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var index = start
    while index + needle.count <= haystack.count {
        if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        index += 1
    }
    return nil
}

/// Whether every string in `text` closes on its line (no escapes: those are rejected anyway).
private func balancedQuotes(_ text: ArraySlice<UInt8>) -> Bool {
    var quote: UInt8? = nil
    for byte in text {
        if let open = quote {
            if byte == open { quote = nil } else if byte == 0x0A || byte == 0x0C || byte == 0x0D { return false }
        } else if byte == ascii("\"") || byte == ascii("'") {
            quote = byte
        }
    }
    return quote == nil
}
