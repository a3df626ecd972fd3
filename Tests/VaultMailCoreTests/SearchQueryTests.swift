import Foundation
import Testing
@testable import VaultMailCore

/// The query language of issue 14: Gmail's and notmuch's words, phrases, negation, OR,
/// parentheses and operators, and errors that point at what could not be read.
@Suite("Search query language")
struct SearchQueryTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    /// 2024-03-15 12:00 in Paris.
    static let now = Date(timeIntervalSince1970: 1_710_500_400)

    func parse(_ text: String, timeZone: TimeZone = paris) throws -> SearchExpression {
        try SearchQuery.parse(text, now: Self.now, timeZone: timeZone).expression
    }

    func failure(_ text: String) -> SearchQueryError? {
        do {
            _ = try SearchQuery.parse(text, now: Self.now, timeZone: Self.paris)
            return nil
        } catch {
            return error
        }
    }

    static func word(_ text: String) -> SearchExpression { .term(.word(text, prefix: false)) }

    @Test("Bare words must all match; a phrase is one term; * makes a prefix")
    func wordsAndPhrases() throws {
        #expect(try parse("invoice") == Self.word("invoice"))
        #expect(try parse("  quarterly   invoice ") == .and([Self.word("quarterly"), Self.word("invoice")]))
        #expect(try parse("\"exact phrase\" here") == .and([.term(.phrase("exact phrase")), Self.word("here")]))
        #expect(try parse("invoic*") == .term(.word("invoic", prefix: true)))
        #expect(try parse("alice@example.org 10:30 e-mail") == .and([Self.word("alice@example.org"), Self.word("10:30"), Self.word("e-mail")]))
        #expect(try parse("http://example.org/x") == Self.word("http://example.org/x"))
        #expect(try parse("Crème brûlée") == .and([Self.word("Crème"), Self.word("brûlée")]))
        #expect(try parse("東京 Привет") == .and([Self.word("東京"), Self.word("Привет")]))
    }

    @Test("-word, NOT and AND; OR binds tighter than juxtaposition (a b OR c is a AND (b OR c))")
    func booleans() throws {
        #expect(try parse("-spam") == .not(Self.word("spam")))
        #expect(try parse("NOT spam") == .not(Self.word("spam")))
        #expect(try parse("-\"out of office\"") == .not(.term(.phrase("out of office"))))
        #expect(try parse("a AND b") == .and([Self.word("a"), Self.word("b")]))
        #expect(try parse("a b OR c") == .and([Self.word("a"), .or([Self.word("b"), Self.word("c")])]))
        #expect(try parse("a OR b OR c") == .or([Self.word("a"), Self.word("b"), Self.word("c")]))
        #expect(try parse("(a OR b) -c") == .and([.or([Self.word("a"), Self.word("b")]), .not(Self.word("c"))]))
        #expect(try parse("-(a b)") == .not(.and([Self.word("a"), Self.word("b")])))
        #expect(try parse("((a))") == Self.word("a"))
        #expect(try parse("a or b") == .and([Self.word("a"), Self.word("or"), Self.word("b")]), "lower-case or is a word")
        #expect(try parse("well-known") == Self.word("well-known"), "a dash inside a word is part of it")
    }

    @Test("Address, name and subject operators keep their value; quoted values too; names are case-insensitive")
    func fields() throws {
        #expect(try parse("from:alice@example.org") == .term(.field(.from, "alice@example.org")))
        #expect(try parse("from:example.org") == .term(.field(.from, "example.org")))
        #expect(try parse("FROM:\"Alice Smith\"") == .term(.field(.from, "Alice Smith")))
        #expect(try parse("to:bob cc:carol") == .and([.term(.field(.to, "bob")), .term(.field(.cc, "carol"))]))
        #expect(try parse("subject:\"quarterly report\"") == .term(.field(.subject, "quarterly report")))
        #expect(try parse("filename:pdf -filename:report.doc") == .and([.term(.field(.filename, "pdf")), .not(.term(.field(.filename, "report.doc")))]))
        #expect(try parse("from:alice OR from:bob") == .or([.term(.field(.from, "alice")), .term(.field(.from, "bob"))]))
    }

    @Test("has:, is:, in:, account: and category:")
    func states() throws {
        #expect(try parse("has:attachment") == .term(.hasAttachment))
        #expect(try parse("has:attachments") == .term(.hasAttachment))
        #expect(try parse("is:unread is:read is:starred") == .and([.term(.flag(.unread)), .term(.flag(.read)), .term(.flag(.starred))]))
        #expect(try parse("is:Unread") == .term(.flag(.unread)))
        #expect(try parse("in:inbox") == .term(.folder("inbox")))
        #expect(try parse("in:\"Project X\"") == .term(.folder("Project X")))
        #expect(try parse("account:work") == .term(.account("work")))
        #expect(try parse("category:promotions") == .term(.category(.promotions)))
        #expect(try parse("-is:unread") == .not(.term(.flag(.unread))))
    }

    @Test("after: and before: are local midnight in the user's time zone; both date spellings")
    func absoluteDates() throws {
        // 2024-01-31 00:00 in Paris is 2024-01-30 23:00 UTC.
        let midnight = Date(timeIntervalSince1970: 1_706_655_600)
        #expect(try parse("after:2024-01-31") == .term(.receivedOnOrAfter(midnight)))
        #expect(try parse("after:2024/01/31") == .term(.receivedOnOrAfter(midnight)))
        #expect(try parse("before:2024/1/31") == .term(.receivedBefore(midnight)))
        let utc = try parse("after:2024-01-31", timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc == .term(.receivedOnOrAfter(Date(timeIntervalSince1970: 1_706_659_200))))
        // Tokyo is 9 hours ahead of UTC.
        let tokyo = try parse("before:2024-02-01", timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo == .term(.receivedBefore(Date(timeIntervalSince1970: 1_706_713_200))))
    }

    @Test("older_than: and newer_than: count back from now in days, weeks, months and years")
    func relativeDates() throws {
        let day: TimeInterval = 86_400
        #expect(try parse("newer_than:7d") == .term(.receivedOnOrAfter(Self.now - 7 * day)))
        #expect(try parse("older_than:2w") == .term(.receivedBefore(Self.now - 14 * day)))
        // 2024-03-15 back 2 months is 2024-01-15, same time of day (no DST change in between in Paris).
        #expect(try parse("older_than:2m") == .term(.receivedBefore(Self.now - (31 + 29) * day)))
        #expect(try parse("newer_than:1y") == .term(.receivedOnOrAfter(Self.now - 366 * day)), "2024 has a 29 February")
    }

    @Test("Operators combine with words, negation, OR and parentheses")
    func combinations() throws {
        let expression = try parse("from:example.org (invoice OR receipt) -is:read after:2024/01/01 has:attachment")
        guard case .and(let items) = expression else { Issue.record("expected AND, got \(expression)"); return }
        #expect(items.count == 5)
        #expect(items[0] == .term(.field(.from, "example.org")))
        #expect(items[1] == .or([Self.word("invoice"), Self.word("receipt")]))
        #expect(items[2] == .not(.term(.flag(.read))))
        #expect(items[4] == .term(.hasAttachment))
        let terms = expression.terms()
        #expect(terms.filter(\.negated).map(\.term) == [.flag(.read)])
        let scoped = try SearchQuery.parse("invoice", now: Self.now, timeZone: Self.paris).and(.account("work"))
        #expect(scoped.expression == .and([Self.word("invoice"), .term(.account("work"))]))
    }

    @Test("An unreadable query says where (position and length) and what was expected",
          arguments: [
              ("", 0, "empty"),
              ("invoice form:alice", 8, "unknown operator \"form:\""),
              ("from: alice", 0, "needs a value right after the colon"),
              ("\"open phrase", 0, "never closed"),
              ("a (b OR c", 2, "\"(\" is never closed"),
              ("a b)", 3, "closes no \"(\""),
              ("a OR", 2, "OR needs a term on each side"),
              ("OR a", 0, "OR needs a term on each side"),
              ("a OR OR b", 2, "OR needs a term on each side"),
              ("a ()", 2, "parentheses are empty"),
              ("NOT", 0, "needs a term right after it"),
              ("is:maybe", 0, "expected is:unread, is:read or is:starred"),
              ("has:pictures", 0, "has:attachment"),
              ("category:spam", 0, "category:promotions"),
              ("after:2024-02-30", 0, "a date such as after:2024-01-31"),
              ("x before:yesterday", 2, "a date such as before:2024-01-31"),
              ("older_than:7x", 0, "an age such as older_than:7d"),
              ("\"\"", 0, "hold no word"),
              ("from:!!", 0, "letters or digits"),
              ("***", 0, "no letter or digit"),
              ("AND a", 0, "AND needs a term before it"),
          ])
    func errors(query: String, position: Int, reason: String) throws {
        let error = try #require(failure(query), "\(query) should not parse")
        #expect(error.position == position, "\(query): \(error)")
        #expect(error.reason.contains(reason), "\(query): \(error.reason)")
        #expect(error.description.contains("at character \(position + 1)"))
    }

    @Test("The error's pointer line puts carets under the unreadable part")
    func pointer() throws {
        let error = try #require(failure("in:inbox form:alice"))
        #expect(error.pointer == "in:inbox form:alice\n         ^^^^^")
        #expect(error.reason.contains("from:"), "it lists the operators")
    }

    @Test("Cursors read back what they print")
    func cursors() throws {
        let after = SearchCursor.after(date: Date(timeIntervalSince1970: 1_700_000_000.123), id: "abc")
        #expect(SearchCursor(encoded: after.encoded) == after)
        #expect(SearchCursor(encoded: "+50") == .offset(50))
        #expect(SearchCursor(encoded: "+x") == nil)
        #expect(SearchCursor(encoded: "nonsense") == nil)
    }

    @Test("Snippets read the store's match marks and fold whitespace")
    func snippets() {
        let snippet = SearchSnippet(marked: "the \u{1}invoice\u{2} is\n\n due")
        #expect(snippet.segments == [.init(text: "the ", isMatch: false), .init(text: "invoice", isMatch: true), .init(text: " is due", isMatch: false)])
        #expect(snippet.text == "the invoice is due")
        #expect(snippet.rendered { "[\($0)]" } == "the [invoice] is due")
        #expect(SearchSnippet(marked: "plain").hasMatch == false)
    }

    @Test("Text for the index: folding, and character pairs for scripts without spaces")
    func indexText() {
        #expect(SearchText.fold("José MÜLLER") == "jose muller")
        #expect(SearchText.grams("東京都に行く") == "東京 京都 都に に行 行く く")
        #expect(SearchText.grams("会議 meeting 明日") == "会議 議 明日 日")
        #expect(SearchText.grams("no such script") == nil)
        #expect(SearchText.queryGrams("京都") == "京都")
        #expect(SearchText.queryGrams("東京都") == "東京 京都")
        #expect(SearchText.queryGrams("東") == "東")
        #expect(SearchText.body(plain: nil, html: "<p>Hi <b>there</b></p>")?.contains("Hi there") == true)
        #expect(SearchText.body(plain: "text", html: "<p>html</p>") == "text")
    }

    func marks(_ query: String, in text: String) throws -> [String]? {
        let highlighter = SearchHighlighter(try parse(query))
        return highlighter.snippet(text)?.segments.filter(\.isMatch).map(\.text)
    }

    @Test("The highlighter marks words, phrases and prefixes as the index matches them: case and accents folded, negated words not")
    func highlighter() throws {
        #expect(try marks("invoice", in: "The INVOICE and the invoices") == ["INVOICE"])
        #expect(try marks("invoic*", in: "The INVOICE and the invoices") == ["INVOICE", "invoices"])
        #expect(try marks("cafe", in: "Un café, deux Cafés") == ["café"])
        #expect(try marks("\"quarterly report\"", in: "a quarterly plan, the quarterly report, a report") == ["quarterly report"])
        #expect(try marks("report -plan", in: "the plan and the report") == ["report"])
        #expect(try marks("東京", in: "明日の東京都での会議") == ["東京"])
        #expect(try marks("from:alice", in: "alice wrote") == nil, "operators mark nothing")
        #expect(try marks("zanzibar", in: "nothing here") == nil)
        let long = String(repeating: "filler words here ", count: 20) + "the needle is here " + String(repeating: "and more text ", count: 30)
        let snippet = try #require(SearchHighlighter(try parse("needle")).snippet(long))
        #expect(snippet.text.hasPrefix("…") && snippet.text.hasSuffix("…"))
        #expect(snippet.text.count < 220)
        #expect(!snippet.text.hasPrefix("…ere"), "the window starts at a word")
    }
}
