import Foundation

/// A plain-text message as HTML (AC-U-06): line breaks kept, web and mail addresses as links
/// that open in a new tab, and quoted text folded (the trailing quote, and any long one, with
/// the "On … wrote:" line before it).
enum PlainTextRenderer {
    /// Quote blocks at least this long are folded even in the middle of a message.
    static let longQuote = 6

    static func render(_ text: String) -> String {
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
        var out = "<div class=\"plain\">"
        for (index, block) in blocks.enumerated() {
            let html = block.lines.map(linkify).joined(separator: "\n")
            if block.quoted, index == lastContent || block.lines.count >= longQuote {
                out += "<details class=\"quoted\"><summary>Show quoted text</summary><blockquote>\(html)</blockquote></details>"
            } else if block.quoted {
                out += "<blockquote>\(html)</blockquote>"
            } else {
                out += html + (index < blocks.count - 1 ? "\n" : "")
            }
        }
        return out + "</div>"
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
    static func linkify(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let start = [rest.range(of: "http://"), rest.range(of: "https://")].compactMap({ $0?.lowerBound }).min() {
            out += linkifyAddresses(rest[..<start])
            let end = rest[start...].firstIndex { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" } ?? rest.endIndex
            var url = rest[start..<end]
            while let last = url.last,
                  ".,;:!?'".contains(last) || (last == ")" && url.filter { $0 == "(" }.count < url.filter { $0 == ")" }.count) {
                url = url.dropLast()
            }
            let href = HTML.escape(String(url))
            if url.hasSuffix("://") {
                out += href
            } else {
                out += "<a href=\"\(href)\" target=\"_blank\" rel=\"noopener noreferrer\" title=\"\(href)\">\(href)</a>"
            }
            rest = rest[url.endIndex...]
        }
        return out + linkifyAddresses(rest)
    }

    /// Escaped text with `name@domain.tld` made mailto: links.
    static func linkifyAddresses(_ text: Substring) -> String {
        guard text.contains("@") else { return HTML.escape(String(text)) }
        var out = ""
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += " " }
            let core = word.trimmingCharacters(in: CharacterSet(charactersIn: "<>()[],;:.\"'"))
            if isAddress(core), let range = word.range(of: core) {
                let address = HTML.escape(core)
                out += HTML.escape(String(word[..<range.lowerBound]))
                out += "<a href=\"mailto:\(address)\">\(address)</a>"
                out += HTML.escape(String(word[range.upperBound...]))
            } else {
                out += HTML.escape(String(word))
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
