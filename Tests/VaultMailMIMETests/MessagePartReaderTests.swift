import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// Attachment downloads and `cid:` images read a part back out of the stored raw message by
/// the part number `parse` gave it (`MessagePartReader`): the bytes that come back are the
/// part's content with its transfer encoding undone, exactly `ParsedAttachment.size` of them,
/// for our own messages, for hand-written edge cases (nested and broken multiparts, attached
/// messages, an mbox separator) and for every attachment of three public corpora.
@Suite("Message part reader")
struct MessagePartReaderTests {
    let parser = GMimeMessageParser()

    /// `text` with LF line ends made CRLF, as bytes.
    static func crlf(_ text: String) -> [UInt8] {
        Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    /// `bytes` in base64, in lines of 76 characters (LF; `crlf` makes them CRLF).
    static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(encoded)
        while !rest.isEmpty {
            lines.append(rest.prefix(76))
            rest = rest.dropFirst(76)
        }
        return lines.joined(separator: "\n")
    }

    /// A 4×4 RGB PNG.
    static let png = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAKUlEQVR42g3HMQEAAAzCMIQhDGEVUVlbviSxcZGY1NZV+pmdm+yDxSF4F/IXwVmoCzoAAAAASUVORK5CYII=") ?? Data())

    // MARK: Our own messages

    /// Every byte value, then every byte value backwards: 512 bytes.
    static let allBytes: [UInt8] = Array(0...255) + Array((0...255).reversed())
    static let textFile = Array("Grüße aus Zürich\r\nline two\nline three without an end".utf8)

    static func outgoing(html: Bool) -> OutgoingMessage {
        OutgoingMessage(
            messageId: "<parts-\(html)@example.com>", date: Date(timeIntervalSince1970: 1_768_478_400),
            from: Participant(name: "Ada", email: "ada@example.com"), to: [Participant(email: "grace@example.com")],
            subject: "Files", textBody: "Three files and an empty one.\n",
            htmlBody: html ? "<p>Three files and an empty one.</p>" : nil,
            attachments: [
                DraftAttachment(filename: "every byte.bin", mimeType: "application/octet-stream", data: Data(allBytes)),
                DraftAttachment(filename: "grüße.txt", mimeType: "text/plain", data: Data(textFile)),
                DraftAttachment(filename: "pixel.png", mimeType: "image/png", data: Data(png)),
                DraftAttachment(filename: "empty.dat", mimeType: "application/octet-stream", data: Data()),
            ]
        )
    }

    @Test("Attachments the builder wrote (every byte value, UTF-8 text, a PNG, an empty file) read back byte for byte by their part number",
          arguments: [false, true])
    func builderAttachmentsReadBack(withHTML html: Bool) throws {
        let message = Self.outgoing(html: html)
        let raw = try RFC5322MessageBuilder().build(message)
        let parsed = parser.parse(raw)
        #expect(parsed.attachments.map(\.partId) == ["2", "3", "4", "5"])
        #expect(parsed.attachments.map(\.filename) == message.attachments.map(\.filename))
        for (attachment, original) in zip(parsed.attachments, message.attachments) {
            let content = try #require(parser.content(ofPart: attachment.partId, in: raw), "part \(attachment.partId)")
            #expect(content == Array(original.data), "\(attachment.partId) \(attachment.filename ?? "")")
            #expect(content.count == attachment.size)
        }
    }

    // MARK: Hand-written structures

    /// mixed ⊃ (related ⊃ (alternative ⊃ QP text, HTML), inline PNG with a Content-ID),
    /// a quoted-printable CSV attachment, an attached message.
    static let embeddedMessage = """
        From: Bob <bob@example.com>
        Subject: The forwarded one
        Message-ID: <inner@example.com>
        Content-Type: text/plain; charset=utf-8

        Inner body
        """
    static let nested = crlf("""
        From: Ada <ada@example.com>
        To: Grace <grace@example.com>
        Subject: Everything at once
        Message-ID: <nested@example.com>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="outer"

        This is a multi-part message in MIME format.
        --outer
        Content-Type: multipart/related; boundary="rel"

        --rel
        Content-Type: multipart/alternative; boundary="alt"

        --alt
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: quoted-printable

        Caf=C3=A9 au lait, see the logo.
        --alt
        Content-Type: text/html; charset=utf-8

        <p>Café au lait: <img src="cid:logo@example.com"></p>
        --alt--

        --rel
        Content-Type: image/png
        Content-Transfer-Encoding: base64
        Content-ID: <logo@example.com>

        \(base64Lines(png))
        --rel--

        --outer
        Content-Type: text/csv; charset=utf-8; name="prices.csv"
        Content-Disposition: attachment; filename="prices.csv"
        Content-Transfer-Encoding: quoted-printable

        name;price
        caf=C3=A9;2=E2=82=AC
        a line broken by a soft line break =
        goes on;tab=09and equals =3D
        --outer
        Content-Type: message/rfc822
        Content-Disposition: attachment

        \(embeddedMessage)
        --outer--
        """)

    @Test("Nested multiparts: an inline image found by its Content-ID, a quoted-printable attachment, a whole attached message, the body parts")
    func nestedParts() throws {
        let parsed = parser.parse(Self.nested)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.attachments.map(\.partId) == ["1.2", "2", "3"])

        let image = try #require(parsed.attachments.first { $0.contentId == "logo@example.com" })
        #expect(image.isInline)
        #expect(parser.content(ofPart: image.partId, in: Self.nested) == Self.png)

        let csv = try #require(parsed.attachments.first { $0.filename == "prices.csv" })
        #expect(parser.content(ofPart: csv.partId, in: Self.nested)
            == Array("name;price\r\ncafé;2€\r\na line broken by a soft line break goes on;tab\tand equals =".utf8))

        let attached = try #require(parsed.attachments.first { $0.mimeType == "message/rfc822" })
        let embedded = try #require(parser.content(ofPart: attached.partId, in: Self.nested))
        // GMime writes an attached message back out as it read it, with LF line ends.
        #expect(embedded == Array(Self.embeddedMessage.utf8))
        let inner = parser.parse(embedded)
        #expect(inner.subject == "The forwarded one")
        #expect(inner.messageId == "<inner@example.com>")
        #expect(inner.textPlain == "Inner body")

        #expect(parser.content(ofPart: "1.1.1", in: Self.nested) == Array("Café au lait, see the logo.".utf8))
        #expect(parser.content(ofPart: "1.1.2", in: Self.nested)
            == Array("<p>Café au lait: <img src=\"cid:logo@example.com\"></p>".utf8))
        for attachment in parsed.attachments {
            #expect(parser.content(ofPart: attachment.partId, in: Self.nested)?.count == attachment.size, "\(attachment.partId)")
        }
    }

    @Test("A leading mbox \"From \" line changes no part: every part number gives the same bytes as without it")
    func mboxSeparator() throws {
        let withSeparator = Array("From ada@example.com Thu Jan 15 12:00:00 2026\n".utf8) + Self.nested
        #expect(parser.parse(withSeparator).attachments == parser.parse(Self.nested).attachments)
        for partId in ["1", "1.1", "1.1.1", "1.1.2", "1.2", "2", "3"] {
            let content = parser.content(ofPart: partId, in: withSeparator)
            #expect(content != nil, "\(partId)")
            #expect(content == parser.content(ofPart: partId, in: Self.nested), "\(partId)")
        }
    }

    @Test("A message that is not multipart has one part, \"1\": a lone base64 attachment reads back whole")
    func singlePart() throws {
        let bytes = Self.allBytes + Self.png
        let raw = Self.crlf("""
            From: ada@example.com
            Subject: just a file
            Content-Type: application/pdf; name="report.pdf"
            Content-Disposition: attachment; filename="report.pdf"
            Content-Transfer-Encoding: base64

            \(Self.base64Lines(bytes))
            """)
        let parsed = parser.parse(raw)
        #expect(parsed.attachments.map(\.partId) == ["1"])
        #expect(parsed.attachments.first?.size == bytes.count)
        #expect(parser.content(ofPart: "1", in: raw) == bytes)
        #expect(parser.content(ofPart: "2", in: raw) == nil)
        #expect(parser.content(ofPart: "1.1", in: raw) == nil)
    }

    /// The top-level boundary names no delimiter line ("--actual" is used), and so does the
    /// boundary of the multipart that is part 2 of a well-formed one.
    static let brokenTop = crlf("""
        From: ada@example.com
        Subject: wrong boundary
        Content-Type: multipart/mixed; boundary="declared"

        --actual
        Content-Type: text/plain

        hello
        --actual
        Content-Type: application/octet-stream; name="a.bin"
        Content-Disposition: attachment; filename="a.bin"
        Content-Transfer-Encoding: base64

        AAEC/w==
        --actual--
        """) + [0x0D, 0x0A]
    static let brokenInner = crlf("""
        From: ada@example.com
        Subject: wrong inner boundary
        Content-Type: multipart/mixed; boundary="good"

        --good
        Content-Type: text/plain

        outer text
        --good
        Content-Type: multipart/mixed; boundary="declared"

        --actual
        Content-Type: text/plain

        inner text
        --actual
        Content-Type: image/png; name="inner.png"
        Content-Disposition: attachment; filename="inner.png"
        Content-Transfer-Encoding: base64

        \(base64Lines(png))
        --actual--
        --good--
        """)

    @Test("Multiparts whose boundary is wrong are salvaged as parse salvages them: the same part numbers give the parts found")
    func salvagedMultiparts() throws {
        let top = parser.parse(Self.brokenTop)
        #expect(top.problems.contains { $0.contains("boundary did not match") }, "\(top.problems)")
        #expect(top.attachments.map(\.partId) == ["2"])
        #expect(parser.content(ofPart: "2", in: Self.brokenTop) == [0x00, 0x01, 0x02, 0xFF])
        #expect(parser.content(ofPart: "1", in: Self.brokenTop) == Array("hello".utf8))

        let inner = parser.parse(Self.brokenInner)
        #expect(inner.problems.contains { $0.contains("boundary did not match") }, "\(inner.problems)")
        #expect(inner.attachments.map(\.partId) == ["2.2"])
        #expect(parser.content(ofPart: "2.2", in: Self.brokenInner) == Self.png)
        #expect(parser.content(ofPart: "2.1", in: Self.brokenInner) == Array("inner text".utf8))
        #expect(parser.content(ofPart: "2.3", in: Self.brokenInner) == nil)
    }

    @Test("A multipart with no delimiter line at all is shown as text; its part number gives that text")
    func unsalvageableMultipart() throws {
        let raw = Self.crlf("""
            From: ada@example.com
            Subject: no parts
            Content-Type: multipart/mixed; boundary="nowhere"

            just some text
            and more
            """)
        let parsed = parser.parse(raw)
        #expect(parsed.problems.contains { $0.contains("its text is shown as it is") }, "\(parsed.problems)")
        let content = try #require(parser.content(ofPart: "1", in: raw))
        #expect(String(decoding: content, as: UTF8.self) == parsed.textPlain)
        #expect(parsed.textPlain?.contains("just some text\nand more") == true)
        #expect(parser.content(ofPart: "2", in: raw) == nil)
    }

    // MARK: Part numbers and messages that name nothing

    @Test("Part numbers the message does not have give nil",
          arguments: ["9", "1.9.9", "", "abc", "0", "01", "1.0", "1.", ".1", "1..2", "-1", " 2", "2 ", "3.1", "1.2.1", "99999999999999999999"])
    func unknownPartNumbers(_ partId: String) {
        #expect(parser.content(ofPart: partId, in: Self.nested) == nil)
    }

    @Test("A message GMime cannot read at all gives nil for every part number, and no crash")
    func unreadableMessages() {
        for raw: [UInt8] in [[], Array("From only-an-mbox-line\n".utf8)] {
            #expect(parser.parse(raw).problems.contains { $0.hasPrefix("could not read the message structure") })
            for partId in ["1", "2", "1.1", ""] {
                #expect(parser.content(ofPart: partId, in: raw) == nil)
            }
        }
    }

    // MARK: Third-party messages

    static let corpora = ["mime/cpython-test_email", "mime/spamassassin-t", StalwartConformanceTests.folder]

    static func corpusMessages() throws -> [(name: String, raw: [UInt8])] {
        var messages: [(String, [UInt8])] = []
        for folder in corpora {
            let files = try TestMaterial.files(under: folder) { name in
                !MIMERobustnessTests.notMessages.contains(name) && (folder != StalwartConformanceTests.folder || name.hasSuffix(".eml"))
            }
            for file in files { messages.append(("\(folder)/\(file)", try TestMaterial.bytes(folder, file))) }
        }
        return messages
    }

    @Test("Every attachment of every CPython, SpamAssassin and Stalwart message reads back with exactly its reported size")
    func corpusAttachments() throws {
        let messages = try Self.corpusMessages()
        #expect(messages.count >= 290, "expected 48 CPython, 136 SpamAssassin and 107 Stalwart messages, found \(messages.count)")
        var total = 0, nested = 0, attachedMessages = 0, withContentId = 0
        for (name, raw) in messages {
            for attachment in parser.parse(raw).attachments {
                let content = parser.content(ofPart: attachment.partId, in: raw)
                #expect(content != nil, "\(name) part \(attachment.partId) (\(attachment.mimeType)) gave nil")
                #expect(content?.count == attachment.size, "\(name) part \(attachment.partId): \(content?.count ?? -1) bytes, size \(attachment.size)")
                total += 1
                if attachment.partId.contains(".") { nested += 1 }
                if attachment.mimeType == "message/rfc822" { attachedMessages += 1 }
                if attachment.contentId != nil { withContentId += 1 }
            }
        }
        print("part reader: \(total) corpus attachments read back (\(nested) nested, \(attachedMessages) attached messages, \(withContentId) with a Content-ID)")
        #expect(total >= 150)
        #expect(nested >= 20)
        #expect(attachedMessages >= 10)
        #expect(withContentId >= 20)
    }

    @Test("Base64 and quoted-printable attachments of the Stalwart messages decode to the bytes Stalwart mail-parser decodes them to")
    func agreesWithStalwartDecoding() throws {
        let folder = StalwartConformanceTests.folder
        var compared: [String: Int] = [:]
        for file in try TestMaterial.files(under: folder, where: { $0.hasSuffix(".eml") }) {
            let raw = try TestMaterial.bytes(folder, file)
            let theirs = try StalwartParts(json: TestMaterial.bytes(folder, String(file.dropLast(4)) + ".json")).attachments
            let ours = parser.parse(raw).attachments
            // Compare only where both name the same attachments (the conformance suite judges the rest).
            guard ours.map(\.mimeType) == theirs.map(\.mimeType) else { continue }
            for (attachment, expected) in zip(ours, theirs) where ["base64", "quoted-printable"].contains(expected.encoding) {
                let content = try #require(parser.content(ofPart: attachment.partId, in: raw))
                if let bytes = expected.bytes {
                    #expect(content == bytes, "\(file) part \(attachment.partId)")
                } else if let text = expected.text, attachment.mimeType.hasPrefix("text/"), let encoding = expected.stringEncoding {
                    let decoded = try #require(String(bytes: content, encoding: encoding), "\(file) part \(attachment.partId)")
                    #expect(Self.lf(decoded) == Self.lf(text), "\(file) part \(attachment.partId)")
                } else {
                    continue
                }
                compared[expected.encoding ?? "", default: 0] += 1
            }
        }
        print("part reader: attachments decoded as Stalwart decodes them: \(compared)")
        #expect(compared["base64", default: 0] >= 50)
        #expect(compared["quoted-printable", default: 0] >= 2)
    }

    static func lf(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test("2,000 mutated messages: every attachment parse reports reads back with its reported size, and no part number crashes")
    func mutatedMessages() throws {
        var seeds = [Self.nested, Self.brokenTop, Self.brokenInner]
        seeds += try Self.corpusMessages().map(\.raw).filter { parser.parse($0).attachments.count > 1 }.prefix(40)
        var random = SplitMix64(seed: 0xA77A_C4ED)
        var attachments = 0
        for round in 0..<2_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 4)) where !bytes.isEmpty {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.removeSubrange(position..<min(bytes.count, position + Int(random.next() % 64)))
                default: bytes = Array(bytes.prefix(position))
                }
            }
            for attachment in parser.parse(bytes).attachments {
                #expect(parser.content(ofPart: attachment.partId, in: bytes)?.count == attachment.size, "round \(round) part \(attachment.partId)")
                attachments += 1
            }
            _ = parser.content(ofPart: "\(1 + random.next() % 4).\(1 + random.next() % 4)", in: bytes)
        }
        #expect(attachments > 2_000)
    }
}

/// The attachments of one Stalwart `.json` parse, in order: declared type, transfer encoding,
/// charset, and the decoded body (bytes for binary parts, text for text parts).
struct StalwartParts {
    struct Part {
        var mimeType: String
        var encoding: String?
        var charset: String?
        var bytes: [UInt8]?
        var text: String?

        var stringEncoding: String.Encoding? {
            switch charset?.lowercased() {
            case nil, "us-ascii", "utf-8": .utf8
            case "iso-8859-1", "latin1": .isoLatin1
            case "windows-1252": .windowsCP1252
            default: nil
            }
        }
    }

    let attachments: [Part]

    init(json: [UInt8]) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let parts = root["parts"] as? [[String: Any]] else {
            throw MaterialMissing(path: "a Stalwart .json without parts")
        }
        func header(_ part: [String: Any], _ name: String) -> [String: Any]? {
            let headers = part["headers"] as? [[String: Any]] ?? []
            return headers.first { ($0["name"] as? String) == name }?["value"] as? [String: Any]
        }
        attachments = (root["attachments"] as? [Int] ?? []).filter { parts.indices.contains($0) }.map { index in
            let part = parts[index]
            let type = header(part, "content_type")?["ContentType"] as? [String: Any]
            let attributes = type?["attributes"] as? [[String: Any]] ?? []
            let body = part["body"] as? [String: Any] ?? [:]
            let binary = (body["Binary"] ?? body["InlineBinary"]) as? [Int]
            return Part(
                mimeType: "\((type?["c_type"] as? String ?? "text").lowercased())/\((type?["c_subtype"] as? String ?? "plain").lowercased())",
                encoding: (header(part, "content_transfer_encoding")?["Text"] as? String)?.lowercased(),
                charset: attributes.first { ($0["name"] as? String) == "charset" }?["value"] as? String,
                bytes: binary?.map { UInt8(truncatingIfNeeded: $0) },
                text: body["Text"] as? String
            )
        }
    }
}
