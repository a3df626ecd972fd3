import Crypto
import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// AC-F-07 (message building): what `RFC5322MessageBuilder` writes reads back unchanged
/// through our GMime parser and through CPython's `email` package, and is well-formed on the
/// wire (CRLF only, lines ≤ 998, headers folded at 78 where a token allows).
@Suite("Message builder round trip")
struct MessageBuilderRoundTripTests {
    static let date = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15 12:00 UTC
    static let binary = Data((0..<5000).map { UInt8(($0 * 7 + 3) % 256) })

    /// Messages that exercise every encoding path.
    static let cases: [(String, OutgoingMessage)] = [
        ("plain ASCII", OutgoingMessage(
            messageId: "<ascii@example.com>", date: date, from: Participant(name: "Ada Lovelace", email: "ada@example.com"),
            to: [Participant(email: "grace@example.com")], subject: "Meeting notes",
            textBody: "Hi Grace,\n\nsee you at 10.\n.\n..hidden dots\nFrom the desk of Ada\n")),
        ("non-ASCII names, subject and body (quoted-printable)", OutgoingMessage(
            messageId: "<umlaut@example.com>", date: date,
            from: Participant(name: "Jürgen Müller", email: "jm@example.de"),
            to: [Participant(name: "Zoë Ångström", email: "zoe@example.se"), Participant(name: "Lovelace, Ada", email: "ada@example.com")],
            cc: [Participant(name: "O'Brien \"Bob\"", email: "bob@example.ie")],
            subject: "Grüße aus Zürich — Straße №5 ☕️ und ein sehr langer Betreff, der über mehrere Zeilen gefaltet werden muss",
            textBody: "Grüße!\r\nDie Straße ist naß. Preis: 5 € \nTrailing space here \nTab\tinside and trailing\t\n= sign and =?not encoded?=\n")),
        ("CJK and emoji body (base64) with an HTML alternative", OutgoingMessage(
            messageId: "<cjk@example.jp>", date: date, from: Participant(name: "山田太郎", email: "yamada@example.jp"),
            to: [Participant(email: "ada@example.com")], subject: "会議の議事録 🎉",
            textBody: String(repeating: "日本語のテキストです。絵文字👩‍👩‍👧もあります。\n", count: 20),
            htmlBody: "<html><body><p>日本語 <b>太字</b> 👩‍👩‍👧</p></body></html>")),
        ("long lines, a reply with a long References chain and attachments", OutgoingMessage(
            messageId: "<reply@example.com>", date: date, from: Participant(email: "ada@example.com"),
            to: [Participant(name: "Grace Hopper", email: "grace@example.com")],
            subject: "Re: " + String(repeating: "word ", count: 40).trimmingCharacters(in: .whitespaces),
            textBody: String(repeating: "x", count: 2500) + "\nshort\n" + String(repeating: "long words ", count: 150),
            inReplyTo: "<parent@example.com>",
            references: (1...30).map { "<ref-\($0)-\(String(repeating: "a", count: 20))@example.com>" } + ["<parent@example.com>"],
            attachments: [
                DraftAttachment(filename: "Präsentation – 2026 ✓.pdf", mimeType: "application/pdf", data: binary),
                DraftAttachment(
                    filename: "a very long file name that needs rfc 2231 continuations to stay within the line limit.tar.gz",
                    mimeType: "application/gzip", data: Data("tiny".utf8)),
                DraftAttachment(filename: "notes \"quoted\".txt", mimeType: "text/plain", data: Data("line 1\r\nline 2\r\n".utf8)),
                DraftAttachment(filename: "empty.bin", mimeType: "not a mime type", data: Data()),
            ])),
    ]

    static let parser = GMimeMessageParser()

    @Test("AC-F-07: the builder's output is CRLF only, lines ≤ 998, headers folded, ends in CRLF, no Bcc header",
          arguments: cases.map(\.0))
    func wellFormed(_ name: String) throws {
        var message = try #require(Self.cases.first { $0.0 == name }?.1)
        message.bcc = [Participant(name: "Secret", email: "hidden@example.com")]
        let raw = try RFC5322MessageBuilder().build(message)
        #expect(raw.suffix(2) == [0x0D, 0x0A])
        var lineStart = 0
        var inHeader = true
        for index in raw.indices {
            if raw[index] == 0x0A {
                #expect(index > 0 && raw[index - 1] == 0x0D, "bare LF at \(index)")
                let length = index - 1 - lineStart
                #expect(length <= 998)
                if inHeader {
                    if length == 0 { inHeader = false }
                    let line = String(decoding: raw[lineStart..<index - 1], as: UTF8.self)
                    #expect(length <= 78 || !line.contains(" ") || line.hasPrefix(" "), "unfolded header line: \(line)")
                    #expect(!line.lowercased().hasPrefix("bcc:"))
                }
                lineStart = index + 1
            } else if raw[index] == 0x0D {
                #expect(index + 1 < raw.count && raw[index + 1] == 0x0A, "bare CR at \(index)")
            }
        }
        #expect(!String(decoding: raw, as: UTF8.self).contains("hidden@example.com"))
        #expect(try RFC5322MessageBuilder().build(message) == raw, "the same message must build to the same bytes")
    }

    @Test("AC-F-07: what the builder writes reads back unchanged through our MIME parser", arguments: cases.map(\.0))
    func throughOurParser(_ name: String) throws {
        let message = try #require(Self.cases.first { $0.0 == name }?.1)
        let parsed = Self.parser.parse(try RFC5322MessageBuilder().build(message))
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.messageId == message.messageId)
        #expect(parsed.subject == message.subject)
        #expect(parsed.from == [message.from])
        #expect(parsed.to == message.to)
        #expect(parsed.cc == message.cc)
        #expect(parsed.bcc.isEmpty)
        #expect(parsed.date == message.date)
        #expect(parsed.inReplyTo == message.inReplyTo)
        #expect(parsed.references == message.references)
        #expect(Self.lines(parsed.textPlain) == Self.lines(message.textBody))
        #expect(Self.lines(parsed.textHTML) == Self.lines(message.htmlBody))
        #expect(parsed.attachments.map(\.filename) == message.attachments.map(\.filename))
        #expect(parsed.attachments.map(\.size) == message.attachments.map(\.data.count))
        #expect(parsed.attachments.map(\.mimeType) == message.attachments.map { Self.expectedType($0.mimeType) })
    }

    @Test("AC-F-07: what the builder writes reads back unchanged through Python's email package", arguments: cases.map(\.0))
    func throughPython(_ name: String) throws {
        let message = try #require(Self.cases.first { $0.0 == name }?.1)
        let parsed = try PythonEmailParser.parse(Data(try RFC5322MessageBuilder().build(message)))
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.mimeVersion == "1.0")
        #expect(parsed.messageId == message.messageId)
        #expect(parsed.subject == message.subject)
        #expect(parsed.from == [Self.address(message.from)])
        #expect(parsed.to == message.to.map(Self.address))
        #expect(parsed.cc == message.cc.map(Self.address))
        #expect(!parsed.hasBcc)
        #expect(parsed.date == message.date.timeIntervalSince1970)
        #expect(parsed.inReplyTo == message.inReplyTo)
        #expect(parsed.references.map { $0.split(separator: " ").map(String.init) } ?? [] == message.references)
        #expect(Self.lines(parsed.text) == Self.lines(message.textBody))
        #expect(Self.lines(parsed.html) == Self.lines(message.htmlBody))
        #expect(parsed.attachments.map(\.filename) == message.attachments.map(\.filename))
        #expect(parsed.attachments.map(\.sha256) == message.attachments.map { Self.sha256Hex($0.data) })
        #expect(parsed.attachments.map(\.contentType) == message.attachments.map { Self.expectedType($0.mimeType) })
        let expectedType = message.attachments.isEmpty ? (message.htmlBody == nil ? "text/plain" : "multipart/alternative") : "multipart/mixed"
        #expect(parsed.contentType == expectedType)
    }

    @Test("AC-F-07: an address that cannot be written is refused with the field named")
    func invalidAddresses() throws {
        for bad in ["no-at-sign", "two words@example.com", "ünïcode@example.com", "a@b@", "<x@y>@z", "a@-bad-.com"] {
            var message = Self.cases[0].1
            message.to = [Participant(email: bad)]
            #expect(throws: ComposeError.self) { try RFC5322MessageBuilder().build(message) }
            do {
                _ = try RFC5322MessageBuilder().build(message)
            } catch let error as ComposeError {
                #expect(error.description.contains("in To"))
            }
        }
    }

    // MARK: Helpers

    /// The text's lines: line ends made LF, one final line break (the builder adds it).
    static func lines(_ text: String?) -> String? {
        guard var text = text?.replacingOccurrences(of: "\r\n", with: "\n") else { return nil }
        if !text.hasSuffix("\n") { text += "\n" }
        return text
    }

    static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).hexString
    }

    static func address(_ participant: Participant) -> PythonEmailParser.Address {
        PythonEmailParser.Address(name: participant.name ?? "", email: participant.email)
    }

    static func expectedType(_ declared: String) -> String {
        declared.contains("/") && !declared.contains(" ") ? declared : "application/octet-stream"
    }
}
