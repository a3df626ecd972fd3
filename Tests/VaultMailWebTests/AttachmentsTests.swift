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
    static func messageWithAttachments(subject: String = "Agenda for the review") -> [UInt8] {
        func part(_ type: String, _ name: String, _ data: [UInt8]) -> [String] {
            ["--mix", "Content-Type: \(type); name=\"\(name)\"", "Content-Transfer-Encoding: base64",
             "Content-Disposition: attachment; filename=\"\(name)\"", "", Data(data).base64EncodedString(options: .lineLength76Characters)]
        }
        let pdf = Array("%PDF-1.4\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 48_000 - 9)
        let lines = ["--mix", "Content-Type: text/plain; charset=utf-8", "", "The agenda and the invitation are attached."]
            + part("application/pdf", "agenda.pdf", pdf) + part("image/png", "photo.png", Array(Data(base64Encoded: png)!))
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
}
