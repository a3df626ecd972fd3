import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// Which parts a message lists as attachments and under which name, as Thunderbird and Gmail
/// list them (the table "Attachments" in docs/mime-and-threading.md). Listed means in
/// `attachments` with `isInline` false; a part the HTML body shows by its Content-ID is in
/// `attachments` with `isInline` true and not listed.
@Suite("Attachments as mail clients list them")
struct AttachmentListingTests {
    let parser = GMimeMessageParser()

    func parse(_ text: String) -> ParsedMessage {
        parser.parse(Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    /// Listed attachments as (shown name, type).
    func listed(_ message: ParsedMessage) -> [String] {
        message.attachments.filter { !$0.isInline }.map { "\($0.suggestedFilename) (\($0.mimeType))" }
    }

    // MARK: Third-party messages

    @Test("A delivery report (CPython msg_16): the status and the returned message are listed, the message by its subject; the explanation is the body")
    func deliveryReportWithReturnedMessage() throws {
        let message = parser.parse(try TestMaterial.bytes("mime/cpython-test_email", "msg_16.txt"))
        #expect(listed(message) == ["delivery-status.txt (message/delivery-status)", "[scr] yeah for Ians!!.eml (message/rfc822)"])
        #expect(message.textPlain?.contains("Delivery has failed") == true || message.textPlain?.isEmpty == false)
    }

    @Test("A delivery report with returned headers (CPython msg_25): delivery-status and text/rfc822-headers are listed")
    func deliveryReportWithHeaders() throws {
        let message = parser.parse(try TestMaterial.bytes("mime/cpython-test_email", "msg_25.txt"))
        #expect(message.attachments.map(\.mimeType) == ["message/delivery-status", "text/rfc822-headers"])
        #expect(message.attachments.allSatisfy { !$0.isInline })
    }

    @Test("A report whose parts are all Content-Disposition: inline (CPython msg_43) still lists its status and headers")
    func inlineReportParts() throws {
        let message = parser.parse(try TestMaterial.bytes("mime/cpython-test_email", "msg_43.txt"))
        let listedTypes = message.attachments.filter { !$0.isInline }.map(\.mimeType)
        #expect(listedTypes.contains("message/delivery-status"))
        #expect(listedTypes.contains("text/rfc822-headers"))
        #expect(message.textPlain?.isEmpty == false, "the human-readable part is the body")
    }

    @Test("RFC 2231 names with a charset (Stalwart legacy/045): filename*= and name*= in ISO-8859-1 are decoded")
    func rfc2231FromStalwart() throws {
        let message = parser.parse(try TestMaterial.bytes("mime/stalwart-mail-parser/eml/legacy", "045.eml"))
        #expect(message.attachments.contains { $0.filename == "HasenundFrösche.txt" && !$0.isInline })
    }

    // MARK: Constructed messages of each shape

    @Test("A forwarded message (message/rfc822) is listed, named after its subject + .eml, whether attachment, inline or without disposition")
    func forwardedMessage() {
        for disposition in ["Content-Disposition: attachment\n", "Content-Disposition: inline\n", ""] {
            let message = parse("""
                Subject: Fwd: plans
                Content-Type: multipart/mixed; boundary="m"

                --m
                Content-Type: text/plain

                See below.
                --m
                Content-Type: message/rfc822
                \(disposition)
                Subject: =?UTF-8?Q?Pl=C3=A4ne_f=C3=BCr/Juni?=
                From: grace@example.com

                The plans.
                --m--
                """)
            #expect(listed(message) == ["Pläne für_Juni.eml (message/rfc822)"], "\(disposition)")
            #expect(message.textPlain == "See below.")
        }
    }

    @Test("A forwarded message with a declared name keeps that name")
    func namedForwardedMessage() {
        let message = parse("""
            Content-Type: multipart/mixed; boundary="m"

            --m
            Content-Type: text/plain

            Here.
            --m
            Content-Type: message/rfc822; name="original.eml"
            Content-Disposition: attachment; filename="original.eml"

            Subject: Something else

            Body.
            --m--
            """)
        #expect(listed(message) == ["original.eml (message/rfc822)"])
    }

    @Test("A delivery report: delivery-status, text/rfc822-headers and the returned message are listed; the notice is the body")
    func constructedReport() {
        let message = parse("""
            Subject: Undelivered Mail Returned to Sender
            Content-Type: multipart/report; report-type=delivery-status; boundary="r"

            --r
            Content-Type: text/plain

            Your message could not be delivered.
            --r
            Content-Type: message/delivery-status

            Reporting-MTA: dns; mail.example.com

            Final-Recipient: rfc822; nobody@example.com
            Action: failed
            Status: 5.1.1
            --r
            Content-Type: text/rfc822-headers

            Subject: Lunch?
            From: ada@example.com
            --r
            Content-Type: message/rfc822

            Subject: Lunch?
            From: ada@example.com

            At noon?
            --r--
            """)
        #expect(listed(message) == [
            "delivery-status.txt (message/delivery-status)", "part-3.txt (text/rfc822-headers)", "Lunch?.eml (message/rfc822)",
        ])
        #expect(message.textPlain == "Your message could not be delivered.")
    }

    @Test("Inline images: shown by cid: in the HTML they are not listed (even marked attachment); an inline image no HTML refers to is listed")
    func inlineImages() {
        let message = parse("""
            Content-Type: multipart/mixed; boundary="o"

            --o
            Content-Type: multipart/related; boundary="r"

            --r
            Content-Type: text/html; charset=utf-8

            <p>Logo <img src="CID:Logo%40example.com"> and <td style="background:url(cid:bg@example.com)">x</td></p>
            --r
            Content-Type: image/png; name="logo.png"
            Content-Disposition: inline; filename="logo.png"
            Content-ID: <logo@example.com>
            Content-Transfer-Encoding: base64

            iVBORw0KGgo=
            --r
            Content-Type: image/gif
            Content-Disposition: attachment; filename="bg.gif"
            Content-ID: <bg@example.com>

            GIF89a
            --r
            Content-Type: image/jpeg; name="unused.jpg"
            Content-Disposition: inline; filename="unused.jpg"
            Content-ID: <unused@example.com>

            jpeg
            --r--
            --o
            Content-Type: image/png
            Content-Disposition: inline; filename="photo.png"

            png
            --o--
            """)
        let byName = Dictionary(uniqueKeysWithValues: message.attachments.map { ($0.suggestedFilename, $0.isInline) })
        #expect(byName["logo.png"] == true, "shown in the body by cid:, case and %40 as the HTML writes it")
        #expect(byName["bg.gif"] == true, "a CSS url(cid:) shows it too")
        #expect(byName["unused.jpg"] == false, "an inline image no HTML refers to is listed")
        #expect(byName["photo.png"] == false, "an inline image without Content-ID in a mixed message is listed")
        #expect(listed(message) == ["unused.jpg (image/jpeg)", "photo.png (image/png)"])
    }

    @Test("A Content-ID referenced only from the plain text is not shown by anything: the image is listed")
    func cidInPlainTextOnly() {
        let message = parse("""
            Content-Type: multipart/related; boundary="r"

            --r
            Content-Type: text/plain

            [cid:logo@example.com]
            --r
            Content-Type: image/png
            Content-ID: <logo@example.com>

            png
            --r--
            """)
        #expect(message.attachments.map(\.isInline) == [false])
    }

    @Test("A part named only by the Content-Type name= parameter is an attachment under that name")
    func nameParameterOnly() {
        let message = parse("""
            Content-Type: multipart/mixed; boundary="m"

            --m
            Content-Type: text/plain

            Invoice attached.
            --m
            Content-Type: application/pdf; name="invoice 42.pdf"
            Content-Transfer-Encoding: base64

            JVBERi0xLjQK
            --m
            Content-Type: text/plain; name="notes.txt"

            Some notes.
            --m--
            """)
        #expect(listed(message) == ["invoice 42.pdf (application/pdf)", "notes.txt (text/plain)"])
        #expect(message.textPlain == "Invoice attached.")
    }

    @Test(
        "RFC 2231 names: filename*= with a charset, filename*0*= continuations, plain continuations, name*= alone",
        arguments: [
            ("Content-Disposition: attachment; filename*=UTF-8''%E2%82%AC%20rates.pdf", "€ rates.pdf"),
            ("Content-Disposition: attachment; filename*0*=UTF-8''%E6%97%A5%E6%9C%AC; filename*1*=%E8%AA%9E.txt", "日本語.txt"),
            ("Content-Disposition: attachment; filename*0=\"a very long \"; filename*1=\"file name.pdf\"", "a very long file name.pdf"),
            ("Content-Disposition: attachment; filename*=iso-8859-1'fr'caf%E9.txt", "café.txt"),
            ("Content-Disposition: attachment; filename=\"=?UTF-8?B?w6l0w6kudHh0?=\"", "été.txt"),
            ("Content-Disposition: attachment", "part-2.pdf"),
        ])
    func rfc2231Names(disposition: String, name: String) {
        for (where_, contentType, dispositionLine) in [
            ("disposition", "Content-Type: application/pdf", disposition),
            ("type", "Content-Type: application/pdf; " + disposition.replacingOccurrences(of: "Content-Disposition: attachment; ", with: "")
                .replacingOccurrences(of: "filename", with: "name"), ""),
        ] where where_ == "disposition" || disposition.contains(";") {
            let message = parse("""
                Content-Type: multipart/mixed; boundary="m"

                --m
                Content-Type: text/plain

                Body.
                --m
                \(contentType)
                \(dispositionLine)

                content
                --m--
                """)
            #expect(listed(message) == ["\(name) (application/pdf)"], "in the \(where_) header")
        }
    }
}
