import Testing
import VaultMailMarkdown

@Suite("Markdown bodies (cmark-gfm)")
struct MarkdownRendererTests {
    let renderer = CmarkMarkdownRenderer()

    @Test("Emphasis, lists, links, tables and quotes become HTML; a line break stays a line break")
    func formatting() {
        let html = renderer.fragment("Hello **Grace**,\nsecond line\n\n- one\n- two\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee https://example.org")
        #expect(html.contains("Hello <strong>Grace</strong>,<br />\nsecond line"))
        #expect(html.contains("<li>one</li>"))
        #expect(html.contains("<blockquote>\n<p>quoted</p>"))
        #expect(html.contains("<td>1</td>"))
        #expect(html.contains("<a href=\"https://example.org\">https://example.org</a>"))
    }

    @Test("HTML the user did not write never passes: raw HTML is left out, javascript: links dropped")
    func noRawHTML() {
        let html = renderer.fragment("<script>alert(1)</script>\n\n<b onclick=x>bold</b> [x](javascript:alert(1))")
        #expect(!html.contains("<script"))
        #expect(!html.contains("onclick"))
        #expect(!html.contains("javascript:"))
        #expect(renderer.html(fromMarkdown: "x").hasPrefix("<!DOCTYPE html>"))
    }
}
