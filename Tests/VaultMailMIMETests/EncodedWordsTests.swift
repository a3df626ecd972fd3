import Testing
import VaultMailCore
import VaultMailMIME

/// RFC 2047 in headers, as mail from the wild writes it (issue 17: subjects and names were cut
/// short after a padded base64 word followed by another word).
@Suite("RFC 2047 encoded-words in subjects and names")
struct EncodedWordsTests {
    func parse(subject: String, from: String, to: String = "ada@example.org") -> ParsedMessage {
        let raw = "From: \(from)\r\nTo: \(to)\r\nSubject: \(subject)\r\nMessage-ID: <x@example.org>\r\n\r\nbody\r\n"
        return GMimeMessageParser().parse(Array(raw.utf8))
    }

    @Test("Adjacent words join without the space between them, in subjects and in names", arguments: [
        ("=?UTF-8?B?0J/RgNC40LLQtdGC?= =?UTF-8?B?INC80LjRgA==?=", "Привет мир"),
        ("=?koi8-r?B?8NLJ18XU?=\r\n =?koi8-r?B?IMzJ0w==?=", "Привет лис"),
        ("=?UTF-8?Q?caf=C3=A9?= =?ISO-8859-1?Q?_na=EFve?=", "café naïve"),
        ("=?ISO-8859-7?B?1ePl6eE=?= =?ISO-8859-7?B?IOvv4+/y?=", "Υγεια λογος"),
        ("=?UTF-8?B?5pel5pys6Kqe?= and more", "日本語 and more"),
    ])
    func adjacent(encoded: String, text: String) {
        let message = parse(subject: encoded, from: "\(encoded) <anna@example.ru>")
        #expect(message.subject == text)
        #expect(message.from.first?.name == text)
        #expect(message.from.first?.email == "anna@example.ru")
    }

    @Test("A character split across two words survives; a word that cannot be read stays as written")
    func splitAndMalformed() {
        // "мир": the bytes of "и" are split between the two words.
        #expect(parse(subject: "=?UTF-8?B?0LzQ?= =?UTF-8?B?uNGA?=", from: "a@example.org").subject == "мир")
        #expect(parse(subject: "=?UTF-8?B?broken==?= plain", from: "a@example.org").subject == "=?UTF-8?B?broken==?= plain")
        #expect(parse(subject: "=?UTF-8?Q?bad=ZZ?= text", from: "a@example.org").subject == "=?UTF-8?Q?bad=ZZ?= text")
    }

    @Test("Names with commas or quotes, and several people in one header, keep their addresses")
    func specials() {
        // "Lovelace, Ada" and a name with a quote in it.
        let message = parse(subject: "x", from: "=?UTF-8?Q?Lovelace=2C_Ada?= <ada@example.org>",
                            to: "=?UTF-8?B?ItCQ0L3QvdCwIg==?= <anna@example.ru>, =?UTF-8?Q?Bj=C3=B6rk?= <bjork@example.is>, plain@example.com")
        #expect(message.from.first?.name == "Lovelace, Ada" && message.from.first?.email == "ada@example.org")
        #expect(message.to.map(\.email) == ["anna@example.ru", "bjork@example.is", "plain@example.com"])
        #expect(message.to.map(\.name) == ["\"Анна\"", "Björk", nil])
    }
}
