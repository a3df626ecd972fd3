import Foundation

/// A plain-text message as HTML (AC-U-06): line breaks kept, web and mail addresses as links
/// that open in a new tab, and quoted text folded (the trailing quote, and any long one, with
/// the "On … wrote:" line before it).
enum PlainTextRenderer {
    /// Quote blocks at least this long are folded even in the middle of a message.
    static let longQuote = 6

    static func render(_ text: String) -> Markup {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [(quoted: Bool, lines: [String])] = []
        for line in lines {
            let quoted = isQuoted(line)
            if let last = blocks.last, last.quoted == quoted {
                blocks[blocks.count - 1].lines.append(line)
            } else {
                blocks.append((quoted, [line]))
            }
        }
        // The attribution line ("On Tue, Ada wrote:") travels with the quote it introduces.
        for index in blocks.indices.dropFirst() where blocks[index].quoted {
            var before = blocks[index - 1].lines
            while let last = before.last, last.trimmingCharacters(in: .whitespaces).isEmpty { before.removeLast() }
            if let last = before.last, isAttribution(last), !blocks[index - 1].quoted {
                blocks[index - 1].lines = Array(before.dropLast())
                blocks[index].lines.insert(last, at: 0)
            }
        }
        let lastContent = blocks.lastIndex { block in block.lines.contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
        struct Block { var folded: Bool; var quoted: Bool; var plain: Bool; var html: Markup; var separator: String }
        struct Model { var blocks: [Block] }
        let newline = escaped("\n")
        return template.render(Model(blocks: blocks.enumerated().map { index, block in
            let html = block.lines.map(linkify).enumerated().map { $0 == 0 ? $1 : newline + $1 }.joined()
            let folded = block.quoted && (index == lastContent || block.lines.count >= longQuote)
            return Block(folded: folded, quoted: block.quoted && !folded, plain: !block.quoted, html: html,
                         separator: index < blocks.count - 1 ? "\n" : "")
        }))
    }

    private static let template = Template("""
        <div class="plain">{{#blocks}}\
        {{#folded}}<details class="quoted"><summary>Show quoted text</summary><blockquote>{{{html}}}</blockquote></details>{{/folded}}\
        {{#quoted}}<blockquote>{{{html}}}</blockquote>{{/quoted}}\
        {{#plain}}{{{html}}}{{separator}}{{/plain}}\
        {{/blocks}}</div>
        """)

    private static let textTemplate = Template("{{text}}")
    private static let linkTemplate = Template("""
        <a href="{{url}}" target="_blank" rel="noopener noreferrer" title="{{url}}">{{url}}</a>
        """)
    private static let mailtoTemplate = Template("""
        <a href="mailto:{{address}}">{{address}}</a>
        """)

    private struct Text { var text: String }

    private static func escaped(_ text: some StringProtocol) -> Markup {
        textTemplate.render(Text(text: String(text)))
    }

    static func isQuoted(_ line: String) -> Bool {
        line.drop(while: { $0 == " " }).first == ">"
    }

    static func isAttribution(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.hasSuffix(":") && (trimmed.contains("wrote") || trimmed.contains("schrieb") || trimmed.contains("a écrit")
            || trimmed.contains("escribió") || trimmed.contains("написал"))
    }

    /// One line, escaped, with http(s) URLs and mail addresses made links.
    static func linkify(_ line: String) -> Markup {
        struct Link { var url: String }
        var out = Markup.empty
        var rest = Substring(line)
        while let start = [rest.range(of: "http://"), rest.range(of: "https://")].compactMap({ $0?.lowerBound }).min() {
            out += linkifyAddresses(rest[..<start])
            let end = rest[start...].firstIndex { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" } ?? rest.endIndex
            var url = rest[start..<end]
            while let last = url.last,
                  ".,;:!?'".contains(last) || (last == ")" && url.filter { $0 == "(" }.count < url.filter { $0 == ")" }.count) {
                url = url.dropLast()
            }
            out += url.hasSuffix("://") ? escaped(url) : linkTemplate.render(Link(url: String(url)))
            rest = rest[url.endIndex...]
        }
        return out + linkifyAddresses(rest)
    }

    /// The text escaped, with `name@domain.tld` made mailto: links.
    static func linkifyAddresses(_ text: Substring) -> Markup {
        guard text.contains("@") else { return escaped(text) }
        struct Address { var address: String }
        var out = Markup.empty
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += escaped(" ") }
            let core = word.trimmingCharacters(in: CharacterSet(charactersIn: "<>()[],;:.\"'"))
            if isAddress(core), let range = word.range(of: core) {
                out += escaped(word[..<range.lowerBound]) + mailtoTemplate.render(Address(address: core)) + escaped(word[range.upperBound...])
            } else {
                out += escaped(word)
            }
        }
        return out
    }

    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasSuffix("."), !parts[1].hasPrefix(".") else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "@._%+-".contains($0) }
    }
}
