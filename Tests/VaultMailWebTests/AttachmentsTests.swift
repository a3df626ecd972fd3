import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Attachments people can see (issue 29): friendly types and sizes, thumbnails from our own
/// route, "Download all" as one ZIP with safe, unique names, an event card for a calendar
/// invitation read with libical.
@Suite("Attachments: chips, thumbnails, Download all, event cards (issue 29)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct AttachmentsTests {
    /// A 1×1 PNG.
    static let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

    static func calendar(_ event: String, method: String = "REQUEST", timeZones: String = berlin) -> String {
        ["BEGIN:VCALENDAR", "PRODID:-//VaultMail//Tests//EN", "VERSION:2.0", "METHOD:\(method)", timeZones, "BEGIN:VEVENT",
         "UID:event-1@example.org", "DTSTAMP:20261120T120000Z", event, "END:VEVENT", "END:VCALENDAR", ""]
            .filter { !$0.isEmpty }.joined(separator: "\r\n") + "\r\n"
    }

    static let berlin = """
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        TZNAME:CET\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:19700329T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        TZNAME:CEST\r
        END:DAYLIGHT\r
        END:VTIMEZONE
        """

    /// An invitation as calendar programs send it: a folded SUMMARY, an escaped comma, a TZID
    /// defined by the calendar's own VTIMEZONE, an organizer with a name.
    static let invitation = calendar("""
        DTSTART;TZID=Europe/Berlin:20261201T100000\r
        DTEND;TZID=Europe/Berlin:20261201T113000\r
        SUMMARY:Quarterly review with the whole team and our partners from the \r
         north office\r
        LOCATION:Room 4\\, Main building\r
        ORGANIZER;CN="Grace Hopper":mailto:grace@example.org
        """)

    static func iso(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test("RFC 5545 as invitations carry it: unfolding, escapes, TZID with its VTIMEZONE, UTC, floating, all-day, cancelled")
    func calendarEvents() throws {
        let event = try #require(CalendarEvent.read(Array(Self.invitation.utf8)))
        #expect(event.title == "Quarterly review with the whole team and our partners from the north office")
        #expect(event.location == "Room 4, Main building")
        #expect(event.organizer == "Grace Hopper <grace@example.org>")
        #expect(event.start == Self.iso("2026-12-01T09:00:00Z"), "10:00 in Berlin in winter is 09:00 UTC")
        #expect(event.end == Self.iso("2026-12-01T10:30:00Z"))
        #expect(!event.allDay && !event.floating && !event.cancelled)

        let summer = try #require(CalendarEvent.read(Array(Self.calendar("DTSTART;TZID=Europe/Berlin:20260701T100000\r\nSUMMARY:Summer").utf8)))
        #expect(summer.start == Self.iso("2026-07-01T08:00:00Z"), "daylight saving time from the VTIMEZONE")

        let utc = try #require(CalendarEvent.read(Array(Self.calendar("DTSTART:20261201T090000Z\r\nDURATION:PT45M\r\nSUMMARY:Call", timeZones: "").utf8)))
        #expect(utc.start == Self.iso("2026-12-01T09:00:00Z") && utc.end == Self.iso("2026-12-01T09:45:00Z"), "DURATION gives the end")
        #expect(utc.location == nil && utc.organizer == nil)

        let allDay = try #require(CalendarEvent.read(Array(Self.calendar("DTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261225\r\nSUMMARY:Holiday", timeZones: "").utf8)))
        #expect(allDay.allDay && allDay.start == Self.iso("2026-12-24T00:00:00Z"))

        let floating = try #require(CalendarEvent.read(Array(Self.calendar("DTSTART:20261201T100000\r\nSUMMARY:Wherever you are", timeZones: "").utf8)))
        #expect(floating.floating && floating.start == Self.iso("2026-12-01T10:00:00Z"), "a floating time keeps its wall clock")

        let cancelled = try #require(CalendarEvent.read(Array(Self.calendar("DTSTART:20261201T090000Z", method: "CANCEL", timeZones: "").utf8)))
        #expect(cancelled.cancelled && cancelled.title == "Untitled event")

        #expect(CalendarEvent.read(Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8)) == nil, "no event")
        #expect(CalendarEvent.read(Array(Self.calendar("SUMMARY:No start", timeZones: "").utf8)) == nil, "no DTSTART")
        #expect(CalendarEvent.read(Array("%PDF-1.4 not a calendar".utf8)) == nil)
        #expect(CalendarEvent.read([0x42, 0x00, 0x45]) == nil)
    }

    @Test("Friendly types, never a MIME type; friendly sizes, never a byte count")
    func friendlyWords() {
        let cases: [(String, String, String)] = [
            ("application/pdf", "a.pdf", "PDF document"), ("image/png", "a.png", "PNG image"), ("image/jpeg", "a.jpg", "JPEG image"),
            ("text/calendar", "invite.ics", "Calendar invitation"), ("application/octet-stream", "invite.ics", "Calendar invitation"),
            ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a.docx", "Word document"),
            ("application/msword", "a.doc", "Word document"), ("application/octet-stream", "report.docx", "Word document"),
            ("application/vnd.ms-excel", "a.xls", "Excel spreadsheet"), ("application/zip", "a.zip", "ZIP archive"),
            ("message/rfc822", "Fwd.eml", "Email message"), ("text/plain", "notes.txt", "Text file"),
            ("application/x-something", "data.bin", "BIN file"), ("application/x-something", "no-extension", "File"),
            ("application/octet-stream", "weird.<script>", "File"), ("audio/mpeg", "a.mp3", "Audio file"),
        ]
        for (type, name, expected) in cases {
            let kind = AttachmentKind.of(mimeType: type, filename: name)
            #expect(kind.name == expected, "\(type) \(name)")
            #expect(!kind.name.contains("/"), "a raw MIME type: \(kind.name)")
        }
        let photo = Attachment(emailId: "e", filename: "photo.jpg", mimeType: "image/jpeg", sizeBytes: 2_000_000)
        #expect(AttachmentKind.isPreviewable(photo))
        #expect(!AttachmentKind.isPreviewable(Attachment(emailId: "e", filename: "huge.jpg", mimeType: "image/jpeg", sizeBytes: 40_000_000)),
                "too large to load for a thumbnail")
        #expect(!AttachmentKind.isPreviewable(Attachment(emailId: "e", filename: "logo.svg", mimeType: "image/svg+xml", sizeBytes: 2_000)),
                "raster images only")
        #expect(ByteSize.string(48_000) == "48 KB")
        #expect(ByteSize.string(1_234_567) == "1.2 MB")
    }

    @Test("ZIP: every file, in order, under a safe and unique name; what unzip reads back is what went in")
    func zipArchive() throws {
        let files = [
            ZipArchive.File(name: "agenda.pdf", data: Array("%PDF-1.4 one".utf8), modified: MailFixtures.referenceDate),
            ZipArchive.File(name: "Agenda.PDF", data: Array(repeating: 7, count: 70_000), modified: MailFixtures.referenceDate),
            ZipArchive.File(name: "../../etc/passwd", data: Array("root".utf8), modified: MailFixtures.referenceDate),
            ZipArchive.File(name: "Überblick: Q4?.txt", data: Array("ü".utf8), modified: MailFixtures.referenceDate),
            ZipArchive.File(name: "..", data: [1], modified: MailFixtures.referenceDate),
        ]
        let entries = try Self.unzip(try ZipArchive.make(files))
        #expect(entries.map(\.name) == ["agenda.pdf", "Agenda (2).PDF", "passwd", "Überblick_ Q4_.txt", "attachment"])
        #expect(entries.map(\.data) == files.map(\.data))
    }

    struct Entry: Decodable { var name: String; var data: [UInt8] }

    /// The entries of a ZIP as Python's zipfile reads them (after checking every CRC).
    static func unzip(_ zip: [UInt8]) throws -> [Entry] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-\(UUID().uuidString.prefix(8)).zip")
        try Data(zip).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None, "a CRC does not match"
            print(json.dumps([{"name": i.filename, "data": list(z.read(i))} for i in z.infolist()]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3's zipfile could not read the archive")
        return try JSONDecoder().decode([Entry].self, from: data)
    }

    /// A message with a PDF (twice, the same name), an image, an invitation and a Word file
    /// sent as octet-stream with a path in its name.
    static func messageWithAttachments(subject: String = "Agenda for the review", image: [UInt8]? = nil) -> [UInt8] {
        func part(_ type: String, _ name: String, _ data: [UInt8]) -> [String] {
            ["--mix", "Content-Type: \(type); name=\"\(name)\"", "Content-Transfer-Encoding: base64",
             "Content-Disposition: attachment; filename=\"\(name)\"", "", Data(data).base64EncodedString(options: .lineLength76Characters)]
        }
        let pdf = Array("%PDF-1.4\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 48_000 - 9)
        let lines = ["--mix", "Content-Type: text/plain; charset=utf-8", "", "The agenda and the invitation are attached."]
            + part("application/pdf", "agenda.pdf", pdf) + part("image/png", "photo.png", image ?? Array(Data(base64Encoded: png)!))
            + part("text/calendar; method=REQUEST; charset=utf-8", "invite.ics", Array(invitation.utf8))
            + part("application/octet-stream", "Quarterly report.docx", Array(repeating: 1, count: 1_300_000))
            + part("application/pdf", "agenda.pdf", Array("%PDF-1.4 second".utf8)) + ["--mix--"]
        return Array(TestMessage(from: "Grace Hopper <grace@example.org>", to: "Me <me@example.com>", subject: subject,
                                 contentType: "multipart/mixed; boundary=\"mix\"", body: lines.joined(separator: "\r\n")).data)
    }

    @Test("AC-U-07: chips with name, type and size, a thumbnail from our route, the invitation's card, Download all as one ZIP")
    func conversation() async throws {
        try await WebFixture.with { web in
            let incoming = StoredMail.incoming(Self.messageWithAttachments(), accountId: web.account.id, folder: web.folders.of(.inbox))
            try await web.app.emailRepository.saveEmails([incoming])
            let session = try await web.signIn()
            let page = try await web.get("/mail/conversation?box=inbox&t=\(incoming.email.threadId)", cookie: session.cookie)
            #expect(page.status == 200)
            let html = page.text
            let metas = html.matches(of: /<span class="att-meta">([^<]*)<\/span>/).map { String($0.1) }
            #expect(metas == ["PDF document · 48 KB", "PNG image · 70 bytes", "Calendar invitation · \(ByteSize.string(Self.invitation.utf8.count))",
                              "Word document · 1.3 MB", "PDF document · 15 bytes"], "\(metas)")
            #expect(!html.contains("application/pdf") && !html.contains("text/calendar"), "a raw MIME type on the page")
            // The card: title, place, organizer, the start as an instant for the page's script to write in the reader's locale.
            #expect(html.contains("<h4 class=\"event-title\">Quarterly review with the whole team and our partners from the north office</h4>"))
            #expect(html.contains("Room 4, Main building") && html.contains("Grace Hopper &lt;grace@example.org&gt;"))
            #expect(html.contains("<time datetime=\"2026-12-01T09:00:00Z\" data-local=\"datetime\">"), "the start")
            #expect(html.contains("<time datetime=\"2026-12-01T10:30:00Z\" data-local=\"time\">"), "the end, the same day: its time only")
            #expect(html.contains("class=\"msg-clip\""), "the paperclip in the message's summary")

            // The thumbnail: only the image, from our route, with its size fixed in the markup.
            let thumbs = html.matches(of: /<img class="att-thumb" src="([^"]+)" alt="" width="96" height="72"/).map { String($0.1) }
            #expect(thumbs.count == 1)
            let png = incoming.attachments.first { $0.filename == "photo.png" }!
            #expect(thumbs.first == "/message/\(incoming.email.id)/attachment/\(png.id)/preview")
            let preview = try await web.get(thumbs[0], cookie: session.cookie)
            #expect(preview.status == 200 && preview.headers["content-type"] == "image/png" && Array(preview.body) == Array(Data(base64Encoded: Self.png)!))
            #expect(preview.headers["content-security-policy"] == "default-src 'none'; sandbox")
            let pdf = incoming.attachments.first { $0.filename == "agenda.pdf" }!
            let refused = try await web.get("/message/\(incoming.email.id)/attachment/\(pdf.id)/preview", cookie: session.cookie)
            #expect(refused.status == 415 && refused.text.contains("download it instead"))
            #expect(try await web.get(thumbs[0], cookie: nil).status != 200, "a preview without a session")

            // Download all: one ZIP of every listed attachment, named after the subject.
            #expect(html.contains("href=\"/message/\(incoming.email.id)/attachments.zip\" download"))
            let zip = try await web.get("/message/\(incoming.email.id)/attachments.zip", cookie: session.cookie)
            #expect(zip.status == 200 && zip.headers["content-type"] == "application/zip")
            #expect(zip.headers["content-disposition"] == "attachment; filename=\"Agenda for the review.zip\"; filename*=UTF-8''Agenda%20for%20the%20review.zip")
            let entries = try Self.unzip(Array(zip.body))
            #expect(entries.map(\.name) == ["agenda.pdf", "photo.png", "invite.ics", "Quarterly report.docx", "agenda (2).pdf"])
            #expect(entries[2].data == Array(Self.invitation.utf8) && entries[3].data.count == 1_300_000)
            #expect(try await web.get("/message/\(incoming.email.id)/attachments.zip", cookie: nil).status != 200)
            #expect(try await web.get("/message/nope/attachments.zip", cookie: session.cookie).status == 404)
        }
    }

    @Test("A name that is not ASCII reaches the ZIP's Content-Disposition only as RFC 6266 filename*, the quoted one with _")
    func zipNameHeader() {
        let header = WebApp.disposition(filename: "Réunion \"budget\"\r\nX-Evil: 1.zip")
        #expect(header == "attachment; filename=\"R_union _budget__X-Evil: 1.zip\"; filename*=UTF-8''R%C3%A9union%20%22budget%22_X-Evil%3A%201.zip")
        #expect(!header.contains("\r") && !header.contains("\n"))
    }

    /// A PNG of `width` × `height`: a diagonal gradient (uncompressed deflate), so a thumbnail shows something.
    static func gradientPNG(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return ~crc
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                let t = Double(x + y) / Double(width + height)
                raw += [UInt8(59 + t * (242 - 59)), UInt8(79 + t * (179 - 79)), UInt8(216 + t * (75 - 216))]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += be32(b << 16 | a)
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    @Test("In Chromium: thumbnails at their fixed size, the card's time in the browser's locale, a paperclip on the folded message; axe finds nothing light, dark or at 420 px")
    func inTheBrowser() async throws {
        try #require(FileManager.default.fileExists(atPath: WebWritingBrowserTests.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        try await WebFixture.with { web in
            let inbox = web.folders.of(.inbox)
            var first = StoredMail.incoming(Self.messageWithAttachments(subject: "Agenda for the review", image: Self.gradientPNG(width: 240, height: 180)),
                                            accountId: web.account.id, folder: inbox, isRead: true, number: 1)
            var second = StoredMail.incoming(Self.messageWithAttachments(subject: "Re: Agenda for the review", image: Self.gradientPNG(width: 180, height: 240)),
                                             accountId: web.account.id, folder: inbox, number: 2)
            second.email.threadId = first.email.threadId
            first.email.snippet = "The agenda and the invitation are attached."
            try await web.app.emailRepository.saveEmails([first, second])
            let browser = try await MessageFrameTests.signedIn(web, thread: first.email.threadId)
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#conversation .message').length === 2", timeout: 30)
            // The read message is folded, with its paperclip in the summary line.
            #expect(try await browser.js("const m = document.querySelector('#conversation .message'); return [m.querySelector('details').open, m.querySelector('summary .msg-clip') !== null]") as? [Bool] == [false, true])
            let last = "#conversation .message:last-child"
            try await browser.wait("const i = document.querySelector('\(last) .att-thumb'); return i && i.complete && i.naturalWidth === 180", timeout: 20)
            let box = try await browser.js("const r = document.querySelector('\(last) .att-thumb').getBoundingClientRect(); return [r.width, r.height]") as? [Double]
            #expect(box == [96, 72], "the thumbnail keeps its box: \(box ?? [])")
            let chips = try await browser.js("return Array.from(document.querySelectorAll('\(last) .att-chip')).map(a => a.getBoundingClientRect().height)") as? [Double] ?? []
            #expect(chips.count == 5 && Set(chips).count == 1, "every chip the same height: \(chips)")
            // The invitation's start in the browser's locale (en-US here), with its zone applied.
            let when = try await browser.js("""
                const t = document.querySelector('\(last) .event-when time');
                return [t.textContent, new Date('2026-12-01T09:00:00Z').toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' })]
                """) as? [String] ?? []
            #expect(when.count == 2 && when[0] == when[1] && when[0].contains("December 1, 2026"), "\(when)")

            for (variant, scheme, width, height) in [("light", "light", 1280, 800), ("dark", "dark", 1280, 800), ("narrow", "light", 420, 860)] {
                try await browser.call(["cmd": "scheme", "value": scheme])
                try await browser.setSize(width: width, height: height)
                let violations = try await browser.axe(script: WebWritingBrowserTests.axeScript)
                    .filter { ["serious", "critical"].contains($0["impact"] as? String ?? "") }
                #expect(violations.isEmpty, "axe (\(variant)): \(violations)")
            }
            try await browser.call(["cmd": "scheme", "value": "light"])
            try await browser.setSize(width: 1280, height: 800)
            try FileManager.default.createDirectory(at: WebWritingBrowserTests.screenshots, withIntermediateDirectories: true)
            let shot = { (variant: String) in WebWritingBrowserTests.screenshots.appendingPathComponent("attachments-\(variant).png").path }
            // The attachments just below the conversation's (sticky) header.
            let reveal = """
                const a = document.querySelector('\(last) .attachments'), pane = document.querySelector('#reading-pane');
                pane.scrollTop += a.getBoundingClientRect().top - document.querySelector('.conv-head').getBoundingClientRect().bottom - 8;
                """
            try await browser.js(reveal)
            try await browser.screenshot(shot("light"))
            try await browser.screenshot(shot("dark"), dark: true)
            try await browser.setSize(width: 420, height: 860)
            try await browser.js(reveal)
            try await browser.screenshot(shot("narrow"), width: 420, height: 860)
        }
    }
}
