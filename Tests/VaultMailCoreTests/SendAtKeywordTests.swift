import Foundation
import Testing
@testable import VaultMailCore

/// Send later's keyword on the server and the Bcc header of the copy in Drafts (issue 33).
@Suite("Send later: the $SendAt keyword and the Drafts copy's Bcc")
struct SendAtKeywordTests {
    @Test("the keyword spells the time in UTC to the second, is read without regard to case, the earliest of several counts")
    func keyword() {
        let date = Date(timeIntervalSince1970: 1_796_112_000)  // 2026-12-01 08:00:00 UTC
        #expect(SendAtKeyword.keyword(for: date) == "$SendAt-20261201T080000Z")
        #expect(SendAtKeyword.date(of: "$sendat-20261201t080000z") == date)
        #expect(SendAtKeyword.date(of: "$SnoozedUntil-20261201T080000Z") == nil)
        #expect(SendAtKeyword.date(of: "$SendAt-2026") == nil)
        #expect(SendAtKeyword.date(in: ["\\Draft", "$SendAt-20261202T080000Z", "$SendAt-20261201T080000Z"]) == date)
        #expect(SendAtKeyword.date(in: ["\\Draft", "\\Seen"]) == nil)
    }

    @Test("the copy in Drafts names the Bcc recipients in a header the sent bytes never carry; taken out again byte for byte")
    func bccHeader() {
        let raw = Array("Date: Tue, 1 Dec 2026 09:00:00 +0100\r\nFrom: ada@example.com\r\nTo: grace@example.com\r\nSubject: Bcc: here\r\n\r\nBcc: in the body stays\r\n".utf8)
        let bcc = [Participant(name: "A", email: "a@example.com"), Participant(email: "b@example.com")]
        let copy = SendAtKeyword.serverCopy(of: raw, bcc: bcc)
        #expect(String(decoding: copy, as: UTF8.self).hasPrefix("Bcc: a@example.com, b@example.com\r\nDate:"))
        #expect(SendAtKeyword.forSending(copy) == raw)
        #expect(SendAtKeyword.serverCopy(of: raw, bcc: []) == raw)
        // A folded Bcc header goes with its continuation lines.
        let folded = Array("Bcc: a@example.com,\r\n b@example.com\r\nTo: c@example.com\r\n\r\nBody\r\n".utf8)
        #expect(String(decoding: SendAtKeyword.forSending(folded), as: UTF8.self) == "To: c@example.com\r\n\r\nBody\r\n")
    }
}
