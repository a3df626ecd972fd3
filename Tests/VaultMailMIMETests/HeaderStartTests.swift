import Testing
import VaultMailCore
import VaultMailMIME

/// Header blocks that do not start cleanly are still read, as Python's `email` and Dovecot
/// read them (issue 17): before, the whole message became its body.
@Suite("A header block that does not start cleanly")
struct HeaderStartTests {
    static let headers = "From: Ada <ada@example.org>\r\nSubject: Hello there\r\nMessage-ID: <id1@example.org>\r\n\r\nThe body.\r\n"

    @Test("Leading junk before the first header is skipped", arguments: [
        ("a line of spaces", "   \r\n"), ("a line with a tab", "\t\r\n"), ("an empty line", "\r\n"), ("two empty lines", "\n\n"),
        ("a first line that is a continuation", " folded onto nothing\r\n"),
        ("an mbox From line", "From ada@example.org Mon Jan  1 00:00:00 2024\r\n"),
        ("an mbox From line after a line of spaces", "  \r\nFrom ada@example.org Mon Jan  1 00:00:00 2024\r\n"),
    ])
    func leadingJunk(_ kind: String, prefix: String) {
        let message = GMimeMessageParser().parse(Array((prefix + Self.headers).utf8))
        #expect(message.subject == "Hello there", "\(kind)")
        #expect(message.from.first?.email == "ada@example.org", "\(kind)")
        #expect(message.messageId == "<id1@example.org>", "\(kind)")
        #expect(message.textPlain?.trimmingCharacters(in: .whitespacesAndNewlines) == "The body.", "\(kind)")
    }

    @Test("A message that truly has no headers keeps its text as the body")
    func noHeaders() {
        let message = GMimeMessageParser().parse(Array("\r\nJust some text, no headers at all.\r\n".utf8))
        #expect(message.subject.isEmpty)
        #expect(message.textPlain?.contains("Just some text") == true)
    }
}
