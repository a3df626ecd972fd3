/// Rewrites mail HTML before gumbo parses it, so that parsing stays fast on hostile markup.
///
/// gumbo's tree builder spends time proportional to the number of open elements on most tags
/// (10 MB of `<div>`s would take hours). This pass reads the markup as an HTML tokenizer does and
/// drops the start tags (and matching end tags) that would keep more than `maximumDepth`
/// elements open: the content they held stays, flattened. It also caps how many formatting
/// elements the parser keeps reopening (`maximumReopened`), and drops `<frameset>`.
///
/// Two things make the number it counts an upper bound of what gumbo keeps open, for any input:
/// - Its output has no ambiguous markup: comments and bogus comments are removed, `<` that starts
///   no tag is written `&lt;` (also inside tags), and the text of raw-text elements (`script`,
///   `style`, `textarea`, ...) loses every `<`. So gumbo's tokenizer, whatever state the tree puts
///   it in, sees exactly the tags this pass saw. (The sanitizer drops all of that text anyway,
///   except `<style>`'s, whose CSS never needs `<`.)
/// - It models the tree builder's stack of open elements (`OpenElements`), closing an element
///   only where the parser certainly does (end tags in scope, `<p>`, `<li>`, table cells, foreign
///   content break-outs, ...) and counting the formatting elements the parser may reopen.
///   Where unsure, it keeps elements open: it may flatten a little early, never too late.
///
/// The tree itself can still grow deeper than that (the adoption agency algorithm moves built
/// subtrees under new elements): nothing downstream recurses over it (see `GumboDocument`).
struct NestingLimiter {
    /// The deepest nesting let through (gumbo adds a few implied elements: html, body, tbody, tr).
    static let maximumDepth = 512
    /// The parser reopens each formatting element closed implicitly (`<p><b>bold<p>still bold`)
    /// in every block that follows, until closed explicitly: with many such elements that is
    /// quadratic in size. Beyond this many, this pass closes them with end tags first.
    static let maximumReopened = 3

    /// The rewritten markup, as UTF-8 bytes.
    static func limit(_ html: String) -> [UInt8] {
        var html = html
        return html.withUTF8 { input in
            var limiter = NestingLimiter(input: input)
            limiter.run()
            return limiter.output
        }
    }

    private let input: UnsafeBufferPointer<UInt8>
    private var output: [UInt8] = []
    private var tree = OpenElements()
    /// Start tags dropped for depth, by name: as many of their end tags are dropped too.
    private var excess: [String: Int] = [:]
    /// The attribute names of the tag being read (only `<font>`'s are looked at).
    private var attributeNames: [Range<Int>] = []

    private init(input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        output.reserveCapacity(input.count + input.count / 16)
    }

    // MARK: - Tokenizing

    private mutating func run() {
        var index = 0
        while index < input.count {
            var next = index
            while next < input.count, input[next] != ascii("<") { next += 1 }
            output.append(contentsOf: input[index..<next])
            guard next < input.count else { break }
            index = markup(at: next)
        }
    }

    /// Handles what starts with `<` at `start`; returns where reading goes on.
    private mutating func markup(at start: Int) -> Int {
        let second = byte(at: start + 1)
        if isASCIILetter(second) { return startTag(at: start) }
        if second == ascii("/") {
            let third = byte(at: start + 2)
            if isASCIILetter(third) { return endTag(at: start) }
            if third == ascii(">") { return start + 3 }  // "</>" is ignored
            if start + 2 >= input.count {
                output.append(contentsOf: "&lt;/".utf8)
                return input.count
            }
            return index(after: ascii(">"), from: start + 2)  // bogus comment
        }
        if second == ascii("!") {
            if matches("<!--", at: start) { return commentEnd(from: start + 4) }
            if matches("<!doctype", at: start) {
                // Kept: it decides quirks mode. It ends at the first ">" in every tokenizer state.
                let end = index(after: ascii(">"), from: start + 2)
                appendTag(start..<end)
                return end
            }
            return index(after: ascii(">"), from: start + 2)  // bogus comment, CDATA outside foreign content
        }
        if second == ascii("?") { return index(after: ascii(">"), from: start + 1) }
        output.append(contentsOf: "&lt;".utf8)
        return start + 1
    }

    private mutating func startTag(at start: Int) -> Int {
        guard let tag = scanTag(nameStart: start + 1) else { return input.count }  // a tag cut by the end is dropped
        let name = lowercasedName(tag.name)
        // A frameset would make gumbo discard the body built so far (recursively) and ignore
        // the rest; frames are never shown anyway.
        if name == "frameset" { return tag.end }
        let traits = ElementTraits.of(name)
        if open(name, traits: traits, selfClosing: tag.selfClosing, signature: tag.signature) {
            if name == "annotation-xml" {
                // Without its encoding attribute it is never an HTML integration point, which
                // keeps the model simple (MathML is dropped by the sanitizer anyway).
                output.append(contentsOf: tag.selfClosing ? "<annotation-xml/>".utf8 : "<annotation-xml>".utf8)
            } else {
                appendTag(start..<tag.end)
            }
        }
        if name == "plaintext" { return input.count }  // the rest is its text, dropped by the sanitizer
        guard traits.contains(.rawText) else { return tag.end }
        let close = rawTextEnd(name, from: tag.end)
        if name == "style" {
            // CSS needs no "<": "<!--" (which old mail wraps style sheets in) goes whole.
            var index = tag.end
            while index < close {
                if input[index] != ascii("<") {
                    output.append(input[index])
                } else if matches("<!--", at: index) {
                    index += 3
                }
                index += 1
            }
        }
        return close
    }

    private mutating func endTag(at start: Int) -> Int {
        guard let tag = scanTag(nameStart: start + 2) else { return input.count }
        let name = lowercasedName(tag.name)
        if name == "frameset" { return tag.end }
        if let dropped = excess[name], dropped > 0 {
            excess[name] = dropped - 1
        } else {
            close(name)
            appendTag(start..<tag.end)
        }
        return tag.end
    }

    private struct Tag {
        var name: Range<Int>
        var end: Int
        var selfClosing: Bool
        /// The tag's attributes as written, which tells formatting elements apart.
        var signature: Range<Int>
    }

    /// Reads a tag from its name to its `>` with the tokenizer's rules for attributes and quotes;
    /// nil when the input ends first.
    private mutating func scanTag(nameStart: Int) -> Tag? {
        var index = nameStart
        while index < input.count, !isSpace(input[index]), input[index] != ascii("/"), input[index] != ascii(">") { index += 1 }
        let name = nameStart..<index
        attributeNames.removeAll(keepingCapacity: true)
        while true {
            while index < input.count, isSpace(input[index]) { index += 1 }
            guard index < input.count else { return nil }
            switch input[index] {
            case ascii(">"):
                return Tag(name: name, end: index + 1, selfClosing: false, signature: name.upperBound..<index)
            case ascii("/"):
                index += 1
                if byte(at: index) == ascii(">") {
                    return Tag(name: name, end: index + 1, selfClosing: true, signature: name.upperBound..<index)
                }
            default:
                let attributeStart = index
                index += 1  // the first character belongs to the name, even "="
                while index < input.count, !isSpace(input[index]), input[index] != ascii("/"),
                      input[index] != ascii(">"), input[index] != ascii("=") { index += 1 }
                attributeNames.append(attributeStart..<index)
                while index < input.count, isSpace(input[index]) { index += 1 }
                guard byte(at: index) == ascii("=") else { continue }
                index += 1
                while index < input.count, isSpace(input[index]) { index += 1 }
                guard index < input.count else { return nil }
                let quote = input[index]
                if quote == ascii("\"") || quote == ascii("'") {
                    index += 1
                    while index < input.count, input[index] != quote { index += 1 }
                    guard index < input.count else { return nil }
                    index += 1
                } else {
                    while index < input.count, !isSpace(input[index]), input[index] != ascii(">") { index += 1 }
                }
            }
        }
    }

    /// The end of a comment opened before `bodyStart`: after `-->`, `--!>`, or the abrupt `<!-->`
    /// and `<!--->`; the end of the input if it is never closed.
    private func commentEnd(from bodyStart: Int) -> Int {
        if byte(at: bodyStart) == ascii(">") { return bodyStart + 1 }
        if byte(at: bodyStart) == ascii("-"), byte(at: bodyStart + 1) == ascii(">") { return bodyStart + 2 }
        var index = bodyStart
        while index + 2 < input.count {
            if input[index] == ascii("-"), input[index + 1] == ascii("-") {
                if input[index + 2] == ascii(">") { return index + 3 }
                if input[index + 2] == ascii("!"), byte(at: index + 3) == ascii(">") { return index + 4 }
            }
            index += 1
        }
        return input.count
    }

    /// Where the text of raw-text element `name` ends: at its end tag (`</name` then a space, `/`
    /// or `>`, in any case), or at the end of the input.
    private func rawTextEnd(_ name: String, from start: Int) -> Int {
        let nameBytes = Array(name.utf8)
        var index = start
        while index + 1 < input.count {
            if input[index] == ascii("<"), input[index + 1] == ascii("/") {
                let nameEnd = index + 2 + nameBytes.count
                if nameEnd <= input.count,
                   zip(input[(index + 2)..<nameEnd], nameBytes).allSatisfy({ lowercased($0) == $1 }),
                   nameEnd == input.count || isSpace(input[nameEnd]) || input[nameEnd] == ascii("/") || input[nameEnd] == ascii(">") {
                    return index
                }
            }
            index += 1
        }
        return input.count
    }

    /// Copies a tag as written, with any `<` after its first byte written `&lt;` (the same
    /// attribute value once decoded).
    private mutating func appendTag(_ range: Range<Int>) {
        output.append(ascii("<"))
        for byte in input[(range.lowerBound + 1)..<range.upperBound] {
            if byte == ascii("<") { output.append(contentsOf: "&lt;".utf8) } else { output.append(byte) }
        }
    }

    private func lowercasedName(_ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { name in
            for offset in 0..<range.count { name[offset] = lowercased(input[range.lowerBound + offset]) }
            return range.count
        }
    }

    private func byte(at index: Int) -> UInt8 { index < input.count ? input[index] : 0 }

    private func index(after byte: UInt8, from start: Int) -> Int {
        var index = start
        while index < input.count, input[index] != byte { index += 1 }
        return min(index + 1, input.count)
    }

    /// Whether `prefix` (lowercase ASCII) is at `start`, in any case.
    private func matches(_ prefix: StaticString, at start: Int) -> Bool {
        let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard start + bytes.count <= input.count else { return false }
        return zip(input[start..<(start + bytes.count)], bytes).allSatisfy { lowercased($0) == $1 }
    }

    // MARK: - Tree building

    /// Applies a start tag to the model of the parser's stack; false when the tag must be dropped
    /// because it would nest too deep.
    private mutating func open(_ name: String, traits: ElementTraits, selfClosing: Bool, signature: Range<Int>) -> Bool {
        // In foreign content (<svg>, <math>) a tag from HTML's break-out list first closes the
        // foreign elements; any other tag is a foreign element, nested even when self-closing
        // (an over-count, never an under-count). In an integration point HTML rules apply again,
        // except to MathML's <mglyph> and <malignmark>.
        if let top = tree.top, top.foreign,
           !top.integrationPoint || (top.namespace == .math && (name == "mglyph" || name == "malignmark")) {
            if Self.foreignBreakouts.contains(name) || (name == "font" && hasFontBreakoutAttribute) {
                tree.pop(to: tree.foreignContentStart, explicitTarget: false)
            } else {
                guard !traits.contains(.rawText) else { return true }
                guard tree.depth + 1 <= Self.maximumDepth else { return drop(name) }
                let namespace = name == "svg" && top.name == "annotation-xml" ? .svg : top.namespace
                tree.push(name, traits: traits, namespace: namespace, signature: nil)
                return true
            }
        }
        if name == "html" || name == "head" || name == "body" { return true }  // merged into the existing ones
        if name == "svg" || name == "math" {
            if selfClosing { return true }
            guard tree.depth + 1 <= Self.maximumDepth else { return drop(name) }
            tree.push(name, traits: traits, namespace: name == "svg" ? .svg : .math, signature: nil)
            return true
        }
        if tree.inSelect, let select = tree.topmost(.select) {
            // The parser ignores most tags inside <select>; these close it.
            let closesSelect = Self.selectClosers.contains(name)
                || (traits.contains(.tablePart) || name == "table") && tree.topmost(.tableLike).map { $0 < select } == true
            if closesSelect {
                tree.pop(to: select, explicitTarget: false)
                if name == "select" { return true }
            } else {
                return pushIgnoringRules(name, traits: traits)
            }
        }
        if traits.contains(.tablePart), tree.tableInScope == nil { return true }  // ignored outside tables

        var target: Int? = nil
        func close(_ candidate: Int?) {
            if let candidate { target = min(target ?? candidate, candidate) }
        }
        if name == "a" || name == "nobr" { close(tree.topmostNamed(name, above: .special)) }
        if name == "button" { close(tree.topmostNamed(name, above: .scopeBoundary)) }
        if traits.contains(.listItem) { close(tree.topmost(.listItem, above: .itemStop)) }
        if traits.contains(.definitionItem) { close(tree.topmost(.definitionItem, above: .itemStop)) }
        if traits.contains(.closesParagraph) { close(tree.topmost(.paragraph, above: .buttonScopeBoundary)) }
        if traits.contains(.tableCell) { close(tree.topmost(.tableCell, above: .tableScopeBoundary)) }
        if name == "tr" {
            close(tree.topmost(.tableRow, above: .tableScopeBoundary) ?? tree.topmost(.tableCell, above: .tableScopeBoundary))
        }
        if traits.contains(.tablePart), Self.tableContextTags.contains(name), let table = tree.tableInScope,
           table + 1 < tree.count {
            close(table + 1)  // back to the table
        }
        if name == "table", let last = tree.topmost(.tableLike), let table = tree.tableInScope,
           tree.isTableBody(at: last) {
            close(table)  // <table> directly in a table closes it
        }

        let pushes = !traits.contains(.void) && !traits.contains(.rawText) && name != "plaintext"
        if pushes, target == nil, tree.depth + 1 > Self.maximumDepth { return drop(name) }
        if let target {
            // <a> and <nobr> close their previous one as its end tag would.
            let closesItself = (name == "a" || name == "nobr") && tree.entries[target].name == name
            closeExplicitlyIfReopeningTooMany(from: closesItself ? target + 1 : target)
            tree.pop(to: target, explicitTarget: closesItself)
        }
        if name == "a" { tree.forgetPendingAnchor() }
        if pushes {
            let isFormatting = traits.contains(.formatting)
            tree.push(name, traits: traits, namespace: .html,
                      signature: isFormatting ? name + String(decoding: input[signature], as: UTF8.self) : nil)
        }
        return true
    }

    /// Inside `<select>` the parser ignores the tag; it is counted anyway (an over-count).
    private mutating func pushIgnoringRules(_ name: String, traits: ElementTraits) -> Bool {
        guard !traits.contains(.void), !traits.contains(.rawText) else { return true }
        guard tree.depth + 1 <= Self.maximumDepth else { return drop(name) }
        tree.push(name, traits: traits, namespace: .html, signature: nil)
        return true
    }

    private mutating func drop(_ name: String) -> Bool {
        excess[name, default: 0] += 1
        return false
    }

    private var hasFontBreakoutAttribute: Bool {
        attributeNames.contains { range in
            let name = lowercasedName(range)
            return name == "color" || name == "face" || name == "size"
        }
    }

    /// Applies an end tag to the model: pops only what the parser certainly pops.
    private mutating func close(_ name: String) {
        if let top = tree.top, top.foreign {
            if let match = tree.topmostForeign(named: name) {
                tree.pop(to: match, explicitTarget: true)
                return
            }
        }
        var target: Int?
        switch name {
        case "html", "head", "body", "br":
            target = nil
        case "p":
            target = tree.topmost(.paragraph, above: .buttonScopeBoundary)
        case "li":
            target = tree.topmost(.listItem, above: .listScopeBoundary)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            target = tree.topmost(.heading, above: .scopeBoundary)
        case "form":
            target = tree.top.map { $0.name == "form" && !$0.foreign } == true ? tree.count - 1 : nil
        case "select":
            target = tree.inSelect ? tree.topmost(.select) : nil
        case "colgroup":
            target = tree.top.map { $0.name == "colgroup" && !$0.foreign } == true ? tree.count - 1 : nil
        case "table", "tbody", "thead", "tfoot", "tr", "td", "th":
            target = tree.topmostNamed(name, above: .tableScopeBoundary)
        case _ where Self.endTagsClosingInScope.contains(name):
            target = tree.topmostNamed(name, above: .scopeBoundary)
        default:
            target = tree.topmostNamed(name, above: .special)  // "any other end tag"
        }
        if let target {
            closeExplicitlyIfReopeningTooMany(from: target + 1)
            tree.pop(to: target, explicitTarget: true)
        }
    }

    /// Before the parser closes the elements from `start` up implicitly: when that would leave
    /// more than `maximumReopened` formatting elements to reopen, writes their end tags (and
    /// those of the elements above them) so that they close for good.
    private mutating func closeExplicitlyIfReopeningTooMany(from start: Int) {
        guard start < tree.count, tree.pendingCount + tree.formattingCount(from: start) > Self.maximumReopened else { return }
        while tree.count > start, let entry = tree.top {
            output.append(contentsOf: "</".utf8)
            for byte in entry.name.utf8 {
                if byte == ascii("<") { output.append(contentsOf: "&lt;".utf8) } else { output.append(byte) }
            }
            output.append(ascii(">"))
            tree.pop(to: tree.count - 1, explicitTarget: true)
        }
    }

    private static let selectClosers: Set<String> = ["select", "input", "keygen", "textarea"]
    /// End tags that close their element when it is "in scope" (the others close it only when no
    /// special element is above it).
    private static let endTagsClosingInScope: Set<String> = [
        "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu", "nav", "ol",
        "pre", "section", "summary", "ul", "dd", "dt", "applet", "marquee", "object", "template", "caption",
    ]
    /// Start tags that first close the table's open row group, row or cell.
    private static let tableContextTags: Set<String> = ["tbody", "thead", "tfoot", "caption", "colgroup", "col"]

    /// Start tags that leave `<svg>`/`<math>` content (and `<font>` with color, face or size).
    private static let foreignBreakouts: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
        "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
        "ul", "var",
    ]
}

// MARK: - Byte helpers

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= ascii("a") && byte <= ascii("z")) || (byte >= ascii("A") && byte <= ascii("Z"))
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

private func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= ascii("A") && byte <= ascii("Z") ? byte + 32 : byte
}
