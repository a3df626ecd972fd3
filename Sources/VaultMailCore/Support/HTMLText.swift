/// Plain text out of HTML, for snippets and for a plain-text fallback when a message has only
/// HTML (E-10). Not a renderer: it drops `<script>`, `<style>`, `<head>`, comments and tags,
/// turns block-level tags into line breaks and decodes character references. Any input,
/// however malformed, gives some text and never traps.
public enum HTMLText {
    /// The text of `html`; runs of spaces inside a line are kept as they are (collapse them
    /// yourself where you need to), block boundaries become "\n". With `visibleOnly`, an
    /// element a reader never sees is left out with all it holds (`hidden`, `aria-hidden`,
    /// `display:none`, `visibility:hidden`, `font-size:0`, `opacity:0`, `max-height:0`): the
    /// writing model reads only what the user can read (issue 35, injection).
    public static func plainText(_ html: String, visibleOnly: Bool = false) -> String {
        let scalars = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        let count = scalars.count
        while index < count {
            let scalar = scalars[index]
            if scalar == "<" {
                if let end = skipMarkup(scalars, from: index, into: &out, visibleOnly: visibleOnly) {
                    index = end
                    continue
                }
                out.append(scalar)
                index += 1
            } else if scalar == "&" {
                let (decoded, next) = decodeReference(scalars, from: index)
                out.append(contentsOf: decoded.unicodeScalars)
                index = next
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }

    /// Decodes character references (`&amp;`, `&#233;`, `&#x1F600;`) in `text`; unknown names
    /// are left as they are.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&" {
                let (decoded, next) = decodeReference(scalars, from: index)
                out.append(contentsOf: decoded.unicodeScalars)
                index = next
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }

    // MARK: Markup

    /// Elements whose whole content is not text.
    private static let skippedElements: Set<String> = ["script", "style", "head", "title", "template", "noscript"]
    /// Tags that end a line of text.
    private static let blockTags: Set<String> = [
        "br", "p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "dt", "dd", "body",
    ]

    /// Skips the markup starting at `start` (a "<"); returns the index after it, or nil when
    /// the "<" is literal text ("a < b").
    private static func skipMarkup(
        _ scalars: [Unicode.Scalar], from start: Int, into out: inout String.UnicodeScalarView, visibleOnly: Bool = false
    ) -> Int? {
        let count = scalars.count
        var index = start + 1
        guard index < count else { return nil }
        let first = scalars[index]
        if first == "!" {
            // Comment, CDATA or doctype.
            if matches(scalars, at: index + 1, "--") {
                return find(scalars, "-->", from: index + 3).map { $0 + 3 } ?? count
            }
            if matches(scalars, at: index + 1, "[CDATA[") {
                let contentStart = index + 8
                let end = find(scalars, "]]>", from: contentStart) ?? count
                out.append(contentsOf: scalars[min(contentStart, end)..<end])
                return min(end + 3, count)
            }
            return find(scalars, ">", from: index).map { $0 + 1 } ?? count
        }
        if first == "?" {
            return find(scalars, ">", from: index).map { $0 + 1 } ?? count
        }
        var isClosing = false
        if first == "/" {
            isClosing = true
            index += 1
        }
        guard index < count, isASCIILetter(scalars[index]) else { return nil }
        var name = ""
        while index < count, isASCIILetter(scalars[index]) || isASCIIDigit(scalars[index]) {
            name.unicodeScalars.append(asciiLowercase(scalars[index]))
            index += 1
        }
        // Find the end of the tag, stepping over quoted attribute values.
        var quote: Unicode.Scalar? = nil
        let attributesStart = index
        while index < count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                break
            }
            index += 1
        }
        let afterTag = min(index + 1, count)
        if blockTags.contains(name) { out.append("\n") }
        if visibleOnly, !isClosing, isHidden(String(String.UnicodeScalarView(scalars[attributesStart..<min(index, count)]))) {
            let selfClosing = index > attributesStart && scalars[index - 1] == "/"
            return voidElements.contains(name) || selfClosing ? afterTag : endOfElement(scalars, name: name, from: afterTag)
        }
        if !isClosing, skippedElements.contains(name) {
            // Skip to the matching end tag, or to the end when there is none.
            var search = afterTag
            while let lt = find(scalars, "</", from: search) {
                var nameIndex = lt + 2
                var closing = ""
                while nameIndex < count, isASCIILetter(scalars[nameIndex]) {
                    closing.unicodeScalars.append(asciiLowercase(scalars[nameIndex]))
                    nameIndex += 1
                }
                if closing == name {
                    return find(scalars, ">", from: nameIndex).map { $0 + 1 } ?? count
                }
                search = lt + 2
            }
            return count
        }
        return afterTag
    }

    // MARK: Hidden elements

    /// Elements that hold no content.
    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// True when a tag's attributes hide the element from the reader.
    static func isHidden(_ attributes: String) -> Bool {
        let lower = attributes.lowercased()
        let compact = lower.filter { !$0.isWhitespace }
        if compact.contains("aria-hidden=\"true\"") || compact.contains("aria-hidden='true'") || compact.contains("aria-hidden=true") {
            return true
        }
        // The bare `hidden` attribute (not a value such as overflow:hidden).
        let names = lower.split(whereSeparator: { $0.isWhitespace || $0 == "/" }).map { $0.split(separator: "=").first.map(String.init) ?? "" }
        if names.contains("hidden") { return true }
        for rule in ["display:none", "visibility:hidden", "mso-hide:all"] where compact.contains(rule) { return true }
        // A size or opacity of zero: "font-size:0", "font-size:0px", "opacity:0;" — not "font-size:0.9em".
        for property in ["font-size:", "opacity:", "max-height:", "line-height:"] {
            var search = compact[...]
            while let range = search.range(of: property) {
                let value = search[range.upperBound...]
                if value.hasPrefix("0") {
                    let after = value.dropFirst().first
                    if after == nil || !(after!.isNumber || after! == ".") { return true }
                }
                search = value
            }
        }
        return false
    }

    /// The index after the end tag that closes the element `name` opened just before `start`,
    /// counting nested elements of the same name; the end of the text when it is never closed.
    private static func endOfElement(_ scalars: [Unicode.Scalar], name: String, from start: Int) -> Int {
        var depth = 1
        var index = start
        while let lt = find(scalars, "<", from: index) {
            var position = lt + 1
            let closing = position < scalars.count && scalars[position] == "/"
            if closing { position += 1 }
            var tag = ""
            while position < scalars.count, isASCIILetter(scalars[position]) || isASCIIDigit(scalars[position]) {
                tag.unicodeScalars.append(asciiLowercase(scalars[position]))
                position += 1
            }
            let end = find(scalars, ">", from: position).map { $0 + 1 } ?? scalars.count
            if tag == name {
                let selfClosing = end >= 2 && scalars[end - 2] == "/"
                if closing { depth -= 1 } else if !selfClosing { depth += 1 }
                if depth == 0 { return end }
            }
            index = max(end, lt + 1)
        }
        return scalars.count
    }

    // MARK: Character references

    /// Decodes the reference starting at `start` (an "&"): the text it stands for and the
    /// index after it. An "&" that starts no known reference stands for itself.
    private static func decodeReference(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int) {
        let count = scalars.count
        var index = start + 1
        guard index < count else { return ("&", index) }
        if scalars[index] == "#" {
            index += 1
            var hex = false
            if index < count, scalars[index] == "x" || scalars[index] == "X" {
                hex = true
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < count, digits < 8 {
                let scalar = scalars[index]
                let digit: UInt32?
                if isASCIIDigit(scalar) {
                    digit = scalar.value - 48
                } else if hex {
                    let lower = asciiLowercase(scalar).value
                    digit = lower >= 97 && lower <= 102 ? lower - 87 : nil
                } else {
                    digit = nil
                }
                guard let digit else { break }
                value = value * (hex ? 16 : 10) + digit
                digits += 1
                index += 1
            }
            guard digits > 0 else { return ("&", start + 1) }
            if index < count, scalars[index] == ";" { index += 1 }
            return (String(numericReference(value)), index)
        }
        var name = ""
        while index < count, name.unicodeScalars.count < 10,
              isASCIILetter(scalars[index]) || isASCIIDigit(scalars[index]) {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard let decoded = namedReferences[name] else { return ("&", start + 1) }
        if index < count, scalars[index] == ";" { index += 1 }
        return (decoded, index)
    }

    /// The character a numeric reference stands for, as HTML reads it: 0x80…0x9F mean the
    /// windows-1252 characters, anything invalid becomes U+FFFD.
    private static func numericReference(_ value: UInt32) -> Character {
        if value >= 0x80, value <= 0x9F {
            let mapped = windows1252High[Int(value - 0x80)]
            if mapped != 0, let scalar = Unicode.Scalar(mapped) { return Character(scalar) }
        }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}"
    }

    /// windows-1252 0x80…0x9F (0 where the code page leaves a byte undefined).
    static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// The Latin-1 names, U+00A0 … U+00FF in order.
    static let latin1Names: [String] = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf", "laquo",
        "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot",
        "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc",
        "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute",
        "Icirc", "Iuml", "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash",
        "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde",
        "auml", "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc",
        "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave",
        "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ]

    private static let namedReferences: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "AMP": "&", "LT": "<", "GT": ">",
            "QUOT": "\"", "hellip": "\u{2026}", "mdash": "\u{2014}", "ndash": "\u{2013}", "lsquo": "\u{2018}",
            "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}",
            "bull": "\u{2022}", "trade": "\u{2122}", "euro": "\u{20AC}", "dagger": "\u{2020}", "Dagger": "\u{2021}",
            "permil": "\u{2030}", "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "ensp": "\u{2002}", "emsp": "\u{2003}",
            "thinsp": "\u{2009}", "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}",
            "OElig": "\u{0152}", "oelig": "\u{0153}", "Scaron": "\u{0160}", "scaron": "\u{0161}", "Yuml": "\u{0178}",
            "fnof": "\u{0192}", "circ": "\u{02C6}", "tilde": "\u{02DC}", "larr": "\u{2190}", "rarr": "\u{2192}",
            "uarr": "\u{2191}", "darr": "\u{2193}", "harr": "\u{2194}", "hearts": "\u{2665}", "check": "\u{2713}",
            "NBSP": "\u{00A0}", "COPY": "\u{00A9}", "REG": "\u{00AE}",
        ]
        for (offset, name) in latin1Names.enumerated() {
            if let scalar = Unicode.Scalar(UInt32(0xA0 + offset)) { table[name] = String(Character(scalar)) }
        }
        return table
    }()

    // MARK: Scanning helpers

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 65 && scalar.value <= 90) || (scalar.value >= 97 && scalar.value <= 122)
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 48 && scalar.value <= 57
    }

    private static func asciiLowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard scalar.value >= 65, scalar.value <= 90, let lower = Unicode.Scalar(scalar.value + 32) else { return scalar }
        return lower
    }

    /// Whether `literal` (ASCII, compared without case) starts at `index`.
    private static func matches(_ scalars: [Unicode.Scalar], at index: Int, _ literal: String) -> Bool {
        var position = index
        for expected in literal.unicodeScalars {
            guard position < scalars.count, asciiLowercase(scalars[position]) == asciiLowercase(expected) else {
                return false
            }
            position += 1
        }
        return true
    }

    /// The index where `literal` next starts at or after `start`, compared without case.
    private static func find(_ scalars: [Unicode.Scalar], _ literal: String, from start: Int) -> Int? {
        guard let first = literal.unicodeScalars.first else { return nil }
        var index = max(start, 0)
        let lowerFirst = asciiLowercase(first)
        while index < scalars.count {
            if asciiLowercase(scalars[index]) == lowerFirst, matches(scalars, at: index, literal) { return index }
            index += 1
        }
        return nil
    }
}
