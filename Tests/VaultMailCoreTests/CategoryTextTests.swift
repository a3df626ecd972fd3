import Testing
@testable import VaultMailCore

/// The categorizer's word search (`CategoryText.contains`): whole words only, over any text.
@Suite("Category text: whole-word search")
struct CategoryTextTests {
    @Test("Whole words and phrases are found at the start, middle and end, and not inside other words",
          arguments: [
              ("sale now on", "sale", true), ("big sale", "sale", true), ("the sale, today", "sale", true),
              ("wholesale prices", "sale", false), ("sales report", "sale", false), ("resale", "sale", false),
              ("last chance to save", "last chance", true), ("lastchance", "last chance", false),
              ("get 20% off today", "% off", true), ("a digest, vol 3", "vol", true), ("volume", "vol", false),
              ("", "sale", false), ("sale", "", false), ("sa", "sale", false),
          ])
    func words(text: String, phrase: String, found: Bool) {
        #expect(CategoryText.contains(text, phrase) == found)
    }

    @Test("Byte search (domains in header values): anywhere, at either end, never past the end",
          arguments: [
              ("bounce-123@mcsv.net", "mcsv.net", true), ("mcsv.net", "mcsv.net", true), ("<https://list-manage.com/x>", "list-manage.com", true),
              ("mcsv.ne", "mcsv.net", false), ("m", "mcsv.net", false), ("", "mcsv.net", false), ("anything", "", true),
              ("ssubstack.com", "substack.com", true), ("substack.co", "substack.com", false), ("réponse@brevo.com", "brevo.com", true),
          ])
    func bytes(text: String, part: String, found: Bool) {
        #expect(CategoryText.containsBytes(text, part) == found)
    }

    @Test("Non-ASCII text: letters around a match join it, a combining accent is part of its letter")
    func unicode() {
        #expect(CategoryText.contains("große sale — jetzt", "sale"))
        #expect(CategoryText.contains("日本語 sale 日本語", "sale"))
        #expect(!CategoryText.contains("ésale", "sale"), "é is a letter joined to the word")
        #expect(!CategoryText.contains("sale\u{301} x", "sale"), "the accent makes the last letter é")
        #expect(CategoryText.contains("x sale\u{301} sale", "sale"), "a later whole match is still found")
        #expect(CategoryText.contains("soldes d'été", "été"))
    }
}
