import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// What `GMimeMessageParser` reads out of hand-written messages, one concern per test
/// (AC-F-05: headers From, To, CC, Subject, Date, Message-ID, References, In-Reply-To; plain
/// and HTML bodies).
@Suite("GMime message parser")
struct GMimeMessageParserTests {
    let parser = GMimeMessageParser()

    func parse(_ text: String) -> ParsedMessage {
        parser.parse(Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    func parse(bytes: [UInt8]) -> ParsedMessage {
        parser.parse(bytes)
    }

    @Test("AC-F-05: headers are decoded: RFC 2047 words (adjacent, mixed charsets, inside a word), addresses, date, ids")
    func headers() throws {
        let message = parse("""
            From: =?ISO-8859-1?Q?Andr=E9?= Pirard <PIRARD@vm1.ulg.ac.be>
            To: "Ada L." <ada@example.com>, bob@example.com, Team: carol@example.com, dan@example.com;
            Cc: =?UTF-8?B?5bGx55Sw?= <yamada@example.jp>
            Subject: =?utf-8?q?caf=C3=A9?= =?iso-8859-1?q?_cr=E8me?= and=?utf-8?q?_more?=
            Date: Tue, 1 Jul 2003 10:52:37 +0200
            Message-ID: <  abc.123@example.com >
            In-Reply-To: <parent@example.com> (Ada's message of Monday)
            References: <root@example.com>
             <parent@example.com> <root@example.com>

            Hello
            """)
        #expect(message.subject == "café crème and more")
        #expect(message.from == [Participant(name: "André Pirard", email: "PIRARD@vm1.ulg.ac.be")])
        #expect(message.to.map(\.email) == ["ada@example.com", "bob@example.com", "carol@example.com", "dan@example.com"])
        #expect(message.to.first?.name == "Ada L.")
        #expect(message.cc == [Participant(name: "山田", email: "yamada@example.jp")])
        #expect(message.date == Date(timeIntervalSince1970: 1_057_049_557))
        #expect(message.messageId == "<abc.123@example.com>")
        #expect(message.stableMessageId == "<abc.123@example.com>")
        #expect(message.inReplyTo == "<parent@example.com>")
        #expect(message.references == ["<root@example.com>", "<parent@example.com>"])
        #expect(message.textPlain == "Hello")
        #expect(message.problems.isEmpty, "\(message.problems)")
    }

    @Test("AC-F-05: undeclared 8-bit headers read as UTF-8 when they are, else in the body's charset, else windows-1252")
    func eightBitHeaders() throws {
        var utf8 = Array("Subject: Grüße\r\nFrom: Jürgen <j@example.com>\r\n\r\nbody\r\n".utf8)
        #expect(parse(bytes: utf8).subject == "Grüße")
        #expect(parse(bytes: utf8).from.first?.name == "Jürgen")

        // "Müller" and a curly quote in windows-1252, no charset anywhere.
        utf8 = Array("Subject: M".utf8) + [0xFC] + Array("ller ".utf8) + [0x93] + Array("x".utf8) + [0x94]
            + Array("\r\n\r\nbody\r\n".utf8)
        #expect(parse(bytes: utf8).subject == "Müller “x”")

        // KOI8-R subject, body declared koi8-r: the body's charset is the better guess.
        let koi8Privet: [UInt8] = [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]
        let russian = Array("Subject: ".utf8) + koi8Privet
            + Array("\r\nContent-Type: text/plain; charset=koi8-r\r\n\r\n".utf8) + koi8Privet + [0x0D, 0x0A]
        let parsed = parse(bytes: russian)
        #expect(parsed.subject == "Привет")
        #expect(parsed.textPlain == "Привет\n")
    }

    @Test("AC-F-05: raw 8-bit bytes inside a Q-encoded word are read once, in the word's charset")
    func eightBitInsideEncodedWord() throws {
        let raw = Array("To: =?iso-8859-1?Q?J".utf8) + [0xFC] + Array("rgen?= <j@example.com>\r\n\r\nx\r\n".utf8)
        #expect(parse(bytes: raw).to.first?.name == "Jürgen")
    }

    @Test("AC-F-05: bodies are decoded: quoted-printable Latin-1, base64 UTF-8, windows-1252 under an ISO-8859-1 label, ISO-2022-JP, UTF-7")
    func bodyCharsets() throws {
        func body(_ type: String, _ encoding: String, _ content: String) -> String? {
            parse("Subject: x\nContent-Type: \(type)\nContent-Transfer-Encoding: \(encoding)\n\n\(content)").textPlain
        }
        #expect(body("text/plain; charset=iso-8859-1", "quoted-printable", "caf=E9 na=EFve=\n!") == "café naïve!")
        #expect(body("text/plain; charset=utf-8", "base64", "w6l0w6kg4oKsCg==") == "été €\n")
        #expect(body("text/plain; charset=iso-8859-1", "quoted-printable", "=93quoted=94") == "“quoted”")
        #expect(body("text/plain; charset=iso-2022-jp", "7bit", "\u{1B}$B$3$s$K$A$O\u{1B}(B") == "こんにちは")
        #expect(body("text/plain; charset=utf-7", "7bit", "Fr+APY-sche") == "Frösche")
    }

    @Test("AC-F-05: an unknown or lying charset still gives readable text and says what happened")
    func badCharsets() throws {
        let unknown = parse(bytes: Array("Content-Type: text/plain; charset=x-no-such-charset\r\n\r\nna".utf8) + [0xEF] + Array("ve\r\n".utf8))
        #expect(unknown.textPlain == "naïve\n")
        #expect(unknown.problems.contains { $0.contains("unknown charset") })
        let lying = parse(bytes: Array("Content-Type: text/plain; charset=utf-8\r\n\r\nFr".utf8) + [0xF6] + Array("sche\r\n".utf8))
        #expect(lying.textPlain == "Frösche\n")
    }

    @Test("AC-F-05: multipart/alternative gives the plain part as text, the HTML part as HTML, and a snippet from the plain text")
    func alternative() throws {
        let message = parse("""
            Subject: alt
            Content-Type: multipart/alternative; boundary="b"

            --b
            Content-Type: text/plain; charset=utf-8

            Plain   words
            here.
            --b
            Content-Type: text/html; charset=utf-8

            <p>HTML <b>words</b></p>
            --b--
            """)
        #expect(message.textPlain == "Plain   words\nhere.")
        #expect(message.textHTML == "<p>HTML <b>words</b></p>")
        #expect(message.snippet == "Plain words here.")
        #expect(message.attachments.isEmpty)
    }

    @Test("E-10: an HTML-only message gets a snippet without tags, scripts or styles, with entities decoded")
    func htmlSnippet() throws {
        let message = parse("""
            Content-Type: text/html; charset=utf-8

            <html><head><title>T</title><style>p{color:red}</style></head><body>
            <script>alert("x")</script><p>Caf&eacute; &amp; cr&#xE8;me&nbsp;&lt;3</p><div>next<br>line</div><p>unclosed <b
            """)
        #expect(message.textPlain == nil)
        #expect(message.snippet == "Café & crème <3 next line unclosed")
    }

    @Test("AC-F-05: attachments carry decoded RFC 2231 / RFC 2047 names, type, decoded size, Content-ID, inline flag and IMAP part number")
    func attachments() throws {
        let message = parse("""
            Subject: files
            Content-Type: multipart/mixed; boundary="outer"

            --outer
            Content-Type: multipart/related; boundary="inner"

            --inner
            Content-Type: text/html; charset=utf-8

            <img src="cid:logo@x">
            --inner
            Content-Type: image/png
            Content-ID: <logo@x>
            Content-Transfer-Encoding: base64

            iVBORw0KGgo=
            --inner--
            --outer
            Content-Type: application/pdf
            Content-Disposition: attachment; filename*0*=UTF-8''na%C3%AFve%20;
             filename*1*=report.pdf
            Content-Transfer-Encoding: base64

            JVBERi0xLjQK
            --outer
            Content-Type: text/plain; name="=?UTF-8?B?w6l0w6kudHh0?="
            Content-Disposition: attachment

            summer
            --outer--
            """)
        #expect(message.attachments.count == 3)
        let logo = try #require(message.attachments.first)
        #expect(logo.mimeType == "image/png")
        #expect(logo.contentId == "logo@x")
        #expect(logo.isInline)
        #expect(logo.partId == "1.2")
        #expect(logo.size == 8)
        let pdf = message.attachments[1]
        #expect(pdf.filename == "naïve report.pdf")
        #expect(pdf.mimeType == "application/pdf")
        #expect(pdf.size == 9)
        #expect(pdf.partId == "2")
        #expect(!pdf.isInline)
        #expect(message.attachments[2].filename == "été.txt")
        #expect(message.attachments[2].partId == "3")
        #expect(message.textHTML == "<img src=\"cid:logo@x\">")
    }

    @Test("AC-F-05: an attached message is one attachment named after its subject; its text stays out of the body")
    func attachedMessage() throws {
        let message = parse("""
            Subject: Fwd: plans
            Content-Type: multipart/mixed; boundary="m"

            --m
            Content-Type: text/plain

            See below.
            --m
            Content-Type: message/rfc822

            Subject: The plans
            From: a@example.com

            Inner body.
            --m--
            """)
        #expect(message.textPlain == "See below.")
        let attached = try #require(message.attachments.first)
        #expect(attached.mimeType == "message/rfc822")
        #expect(attached.filename == nil)
        #expect(attached.embeddedSubject == "The plans")
        #expect(attached.suggestedFilename == "The plans.eml")
        #expect(attached.size > 20)
    }

    @Test("NOTIF-12: X-Spam-Flag: YES and X-Spam-Status: Yes tag spam; No does not; List headers are kept")
    func spamAndListHeaders() throws {
        #expect(parse("X-Spam-Flag: YES\n\nx").isSpamTagged)
        #expect(parse("X-Spam-Status: Yes, score=9.1 required=5.0\n\nx").isSpamTagged)
        #expect(!parse("X-Spam-Status: No, score=0.1\nX-Spam-Flag: NO\n\nx").isSpamTagged)
        let list = parse("List-Id: Dev list <dev.lists.example.com>\nList-Unsubscribe: <mailto:leave@example.com>\n\nx")
        #expect(list.listId == "Dev list <dev.lists.example.com>")
        #expect(list.keptHeaders["list-unsubscribe"] == "<mailto:leave@example.com>")
    }

    @Test("AC-F-05: a message without Message-ID gets a stable synthesized id: the same for CRLF and LF copies, different for other headers")
    func synthesizedMessageId() throws {
        let text = "From: a@example.com\nSubject: no id\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\nbody\n"
        let lf = parser.parse(Array(text.utf8))
        let crlf = parse(text)
        #expect(lf.messageId == nil)
        #expect(lf.stableMessageId == crlf.stableMessageId)
        #expect(lf.stableMessageId.hasSuffix("@synthesized.vaultmail>"))
        let other = parser.parse(Array(text.replacingOccurrences(of: "no id", with: "other").utf8))
        #expect(other.stableMessageId != lf.stableMessageId)
        #expect(parser.parse(Array((text + "more body").utf8)).stableMessageId == lf.stableMessageId, "only the header block counts")
    }

    @Test("E-10: empty input, binary noise, a bare mbox separator and a headerless text never crash and keep what they have")
    func oddInputs() throws {
        let empty = parser.parse([])
        #expect(!empty.problems.isEmpty)
        #expect(empty.stableMessageId.hasPrefix("<"))

        var random = SplitMix64(seed: 7)
        let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        _ = parser.parse(noise)

        let mbox = parser.parse(Array("From sender@example.com Mon Jan  1 00:00:00 2024\nSubject: from mbox\n\nbody\n".utf8))
        #expect(mbox.subject == "from mbox")
        #expect(mbox.textPlain == "body\n")

        let headerless = parser.parse(Array("just some words\nand more\n".utf8))
        #expect(headerless.textPlain != nil || !headerless.problems.isEmpty)
    }

    @Test("E-07: a 50 MB attachment is listed with its exact decoded size and the body still reads")
    func largeAttachment() throws {
        let size = 50 * 1024 * 1024
        let chunk = [UInt8](repeating: 0x41, count: 57)
        var base64Line = Data(chunk).base64EncodedString()
        base64Line += "\r\n"
        var raw = Array("Subject: big\r\nContent-Type: multipart/mixed; boundary=\"z\"\r\n\r\n--z\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n--z\r\nContent-Type: application/octet-stream; name=\"big.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n".utf8)
        let lineBytes = Array(base64Line.utf8)
        raw.reserveCapacity(raw.count + (size / 57 + 1) * lineBytes.count + 16)
        for _ in 0..<(size / 57) { raw.append(contentsOf: lineBytes) }
        raw.append(contentsOf: Array("--z--\r\n".utf8))
        let started = Date()
        let message = parser.parse(raw)
        let seconds = Date().timeIntervalSince(started)
        #expect(message.textPlain == "See attached.")
        let attachment = try #require(message.attachments.first)
        #expect(attachment.filename == "big.bin")
        #expect(attachment.size == (size / 57) * 57)
        #expect(seconds < 60, "parsing took \(seconds) s")
    }
}
