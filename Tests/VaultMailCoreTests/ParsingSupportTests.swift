import Foundation
import Testing
@testable import VaultMailCore
import VaultMailTesting

/// The pure-Swift helpers the parser and threading rely on: msg-id lists, HTML to text,
/// snippets and synthesized Message-IDs.
@Suite("Parsing support")
struct ParsingSupportTests {
    @Test("AC-F-06: msg-id lists are read through comments, phrases, missing brackets and folding")
    func messageIDs() {
        #expect(MessageIDs.parseList("<a@x> <b@x>\r\n\t<c@x>") == ["<a@x>", "<b@x>", "<c@x>"])
        #expect(MessageIDs.parseList("<a@x> (Ada's message of \"Mon, <not@id>\")") == ["<a@x>"])
        #expect(MessageIDs.parseList("Your message of Monday <a @ x >") == ["<a@x>"])
        #expect(MessageIDs.parseList("a@x, b@x") == ["<a@x>", "<b@x>"])
        #expect(MessageIDs.parseList("<a@x") == ["<a@x>"])
        #expect(MessageIDs.parseList("<> <yes>") == ["<yes>"])
        #expect(MessageIDs.parseList("no ids here").isEmpty)
        #expect(MessageIDs.parseFirst("<first@x> <second@x>") == "<first@x>")
        #expect(MessageIDs.bare("<a@x>") == "a@x")
    }

    @Test("The byte reader of msg-id lists agrees with the character reader on 20,000 random ASCII values")
    func messageIDsFastPath() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("<>()\"\\@ ,\t\r\nab.xy-1")
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let value = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(MessageIDs.parseListASCII(value) == MessageIDs.parseListCharacters(value), "\(value.debugDescription)")
        }
        #expect(MessageIDs.parseList("<é@x> <b@x>") == ["<é@x>", "<b@x>"])
    }

    @Test("E-10: HTML becomes text: scripts, styles, head and comments dropped; entities decoded; broken markup survives")
    func htmlText() {
        #expect(HTMLText.plainText("<p>a</p><p>b</p>") == "\na\n\nb\n")
        #expect(HTMLText.plainText("Fr<b>ö</b>sche") == "Frösche")
        #expect(HTMLText.plainText("<style>x{}</style><script>if (a < b) {}</script>ok<!-- hidden -->") == "ok")
        #expect(HTMLText.plainText("&lt;&amp;&gt; &eacute;&#233;&#xE9; &#150; &bogus; &") == "<&> ééé – &bogus; &")
        #expect(HTMLText.plainText("a < b and c<d") == "a < b and c", "\"<d\" opens a tag, as in a browser")
        #expect(HTMLText.plainText("<p title=\"a>b\">t</p>") == "\nt\n")
        #expect(HTMLText.plainText("<script>never closed") == "")
        #expect(HTMLText.plainText("<div unterminated") == "\n")
        #expect(HTMLText.decodeEntities("&nbsp;&yuml;&Agrave;") == "\u{A0}ÿÀ")
    }

    @Test("AC-U-02: snippets collapse whitespace, skip quoted lines, fall back to HTML and stop at 200 characters on a word")
    func snippets() throws {
        #expect(Snippet.make(plain: "  Hi\n\n  there\tyou ", html: nil) == "Hi there you")
        #expect(Snippet.make(plain: "> old words\nnew words", html: nil) == "new words")
        #expect(Snippet.make(plain: "> only quoted", html: nil) == "> only quoted")
        #expect(Snippet.make(plain: " \n ", html: "<p>from <i>html</i></p>") == "from html")
        #expect(Snippet.make(plain: nil, html: nil) == nil)
        #expect(Snippet.make(plain: "zero\u{200B}width\u{FEFF}", html: nil) == "zerowidth")
        let long = String(repeating: "word ", count: 100)
        let snippet = try #require(Snippet.make(plain: long, html: nil))
        #expect(snippet.count <= Snippet.maximumLength)
        #expect(snippet.hasSuffix("word"))
        let exact = String(repeating: "x", count: 200)
        #expect(Snippet.make(plain: exact, html: nil) == exact)
    }

    @Test("AC-F-05: a synthesized Message-ID depends on the header block only, not on line endings or the body")
    func synthesizedIds() {
        let lf = Array("Subject: a\nFrom: b@x\n\nbody one\n".utf8)
        let crlf = Array("Subject: a\r\nFrom: b@x\r\n\r\nbody two\r\n".utf8)
        let other = Array("Subject: c\nFrom: b@x\n\nbody one\n".utf8)
        let id = ParsedMessage.synthesizedMessageId(rawMessage: lf)
        #expect(id == ParsedMessage.synthesizedMessageId(rawMessage: crlf))
        #expect(id != ParsedMessage.synthesizedMessageId(rawMessage: other))
        #expect(id.hasPrefix("<") && id.hasSuffix("@synthesized.vaultmail>") && id.count == 1 + 32 + 23)
        #expect(!ParsedMessage.synthesizedMessageId(rawMessage: []).isEmpty)
    }

    @Test("AC-F-05: an attachment without a name gets one from its subject or part number")
    func suggestedNames() {
        #expect(ParsedAttachment(filename: "a.pdf", mimeType: "application/pdf", size: 1, partId: "2").suggestedFilename == "a.pdf")
        #expect(ParsedAttachment(filename: nil, mimeType: "image/png", size: 1, partId: "1.2").suggestedFilename == "part-1.2.png")
        #expect(ParsedAttachment(filename: " ", mimeType: "message/rfc822", size: 1, partId: "3", embeddedSubject: "Re: a/b")
            .suggestedFilename == "Re: a_b.eml")
    }
}

/// The snippet, computed the plain way (every line read, then joined), to check that
/// `Snippet.fromText`, which stops reading once the preview is full, gives the same result.
enum ReferenceSnippet {
    static func fromText(_ text: String) -> String? {
        var lines: [Substring] = []
        var quoted: [Substring] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0.isNewline }) {
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(">") { quoted.append(line) } else { lines.append(line) }
        }
        return collapse(lines) ?? collapse(quoted)
    }

    static func collapse(_ lines: [Substring]) -> String? {
        let words = lines.flatMap { $0.split(whereSeparator: { $0.isWhitespace }) }
            .map { String($0.filter { !invisible($0) }) }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return nil }
        var out = ""
        var truncated = false
        for word in words {
            let room = Snippet.maximumLength - out.count - (out.isEmpty ? 0 : 1)
            if room <= 0 || (!out.isEmpty && room < 1) {
                truncated = true
                break
            }
            if !out.isEmpty { out += " " }
            if word.count > room {
                out += word.prefix(room)
                truncated = true
                break
            }
            out += word
        }
        if truncated, let space = out.lastIndex(of: " "), out.distance(from: space, to: out.endIndex) < 40 {
            out = String(out[..<space])
        }
        return out
    }

    static func invisible(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        switch scalar.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F: return true
        default: return scalar.properties.generalCategory == .control
        }
    }
}

extension ParsingSupportTests {
    @Test("Snippets stop reading once full and agree with reading every line, on 5,000 random bodies")
    func snippetMatchesReference() {
        var generator = SplitMix64(seed: 11)
        let words = ["a", "word", "longerword", "> quoted", ">", "\n", "\r\n", "\n\n", " ", "\t", "\u{200B}", "é", "x" + String(repeating: "y", count: 45)]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...120, using: &generator)
            let text = (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: Bool.random(using: &generator) ? " " : "")
            #expect(Snippet.fromText(text) == ReferenceSnippet.fromText(text), "\(text.debugDescription)")
        }
    }
}
