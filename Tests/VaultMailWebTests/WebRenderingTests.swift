import Foundation
import Testing
import VaultMailCore
@testable import VaultMailWeb

/// The small pieces pages are made of.
@Suite("Web app rendering pieces (issue 12)")
struct WebRenderingTests {
    @Test("AC-U-06: plain text keeps its lines, links its URLs and addresses, escapes the rest")
    func plainText() {
        let html = PlainTextRenderer.render("Hi <b>Ada</b>,\nsee https://example.org/a?b=1&c=2).\nWrite to ada@example.org.").html
        #expect(html.contains("Hi &lt;b&gt;Ada&lt;/b&gt;,\nsee "))
        #expect(html.contains(#"<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer" title="https://example.org/a?b=1&amp;c=2">https://example.org/a?b=1&amp;c=2</a>)."#))
        #expect(html.contains(#"<a href="mailto:ada@example.org">ada@example.org</a>."#))
        #expect(!html.contains("<b>"))
    }

    @Test("AC-U-06: the trailing quote folds with its attribution line; a short quote between replies stays")
    func quotes() {
        let text = "Yes.\n> Can we meet?\nHow about 3?\n\nOn Tue, Grace wrote:\n> Line one\n> Line two\n"
        let html = PlainTextRenderer.render(text).html
        #expect(html.contains("<blockquote>&gt; Can we meet?</blockquote>"))
        #expect(html.contains("<details class=\"quoted\"><summary>Show quoted text</summary><blockquote>On Tue, Grace wrote:\n&gt; Line one\n&gt; Line two</blockquote></details>"))
    }

    @Test("A URL whose scheme ends the line is not a link; javascript: never becomes one")
    func notLinks() {
        #expect(!PlainTextRenderer.linkify("see http://").html.contains("<a"))
        #expect(!PlainTextRenderer.linkify("javascript:alert(1)").html.contains("<a"))
        #expect(PlainTextRenderer.linkify("\"><script>http://x.example/\"onmouseover=1").html.contains("&quot;&gt;&lt;script&gt;"))
    }

    /// A form as a route declares it: one value, a list (`t[]`), anything else ignored.
    private struct SampleForm: Decodable, Equatable {
        var q: String?
        var empty: String?
        var t: [String]?
        var missing: String?
    }

    @Test("Forms decode into the route's struct: percent escapes and +, lists as t[], values round-trip through escape")
    func formDecoding() throws {
        let form = try WebForm.decode(SampleForm.self, from: "t[]=a&t[]=b&q=caf%C3%A9+au+lait&empty=&other=x")
        #expect(form == SampleForm(q: "café au lait", empty: "", t: ["a", "b"], missing: nil))
        let hostile = "a&b=c d/é+#%"
        #expect(try WebForm.decode(SampleForm.self, from: "q=" + WebForm.escape(hostile)).q == hostile)
        #expect(WebForm.escape("a b&c=d/é:x~") == "a%20b%26c%3Dd%2F%C3%A9:x~")
        // A notice replaces the one an address had, so the address still names each field once.
        #expect(WebApp.withNotice("/mail?box=inbox&notice=Old&t=x", "New one") == "/mail?box=inbox&t=x&notice=New%20one")
        #expect(WebApp.withNotice("/mail", "Done.") == "/mail?notice=Done.")
    }

    @Test("A form the decoder cannot read is refused with what was wrong and what to do, never repeating a value")
    func formRefusals() {
        func refusal(_ encoded: String, source: FormError.Source = .form) -> String {
            do {
                _ = try WebForm.decode(SampleForm.self, from: encoded, source: source)
                return ""
            } catch {
                #expect(error.status == .badRequest)
                return error.description
            }
        }
        #expect(refusal("t=a&t=b").contains("This form could not be read: it gives 't' more than once (a list is sent as 't[]')."))
        #expect(refusal("t=a&t=b").contains("Reload the page and try again"))
        #expect(refusal("q=secret%zz").contains("broken %-escape"))
        #expect(!refusal("q=secret%zz").contains("secret"))
        #expect(refusal("t=a").contains("'t' as one value where a list ('t[]') is expected"))
        #expect(refusal("q[=x", source: .query).hasPrefix("This address could not be read: the field name 'q[' has brackets"))
    }

    @Test("The web secret signs with HMAC-SHA256 as RFC 4231's test cases 1 and 2, and accepts exactly its own signatures")
    func hmac() {
        let case1 = WebSecret(key: Array(repeating: 0x0b, count: 20))
        let signature = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        #expect(case1.sign("Hi There") == signature)
        #expect(WebSecret(key: Array("Jefe".utf8)).sign("what do ya want for nothing?")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(case1.isSignature(signature, of: "Hi There"))
        #expect(!case1.isSignature(signature, of: "Hi there"))
        #expect(!case1.isSignature(String(signature.prefix(40)), of: "Hi There"))
        #expect(case1.isSignature(String(signature.prefix(40)), of: "Hi There", digits: 40))
        #expect(!case1.isSignature("", of: "Hi There"))
    }

    @Test("An asset's URL carries the first 10 hex digits of its content's SHA-256 (unchanged, so browsers keep their copies)")
    func assetPath() {
        #expect(Asset(name: "app.css", type: "text/css", content: "body { margin: 0 }").path == "/assets/app-997faceca2.css")
    }

    @Test("A session cookie verifies only with its own secret and within its lifetime; the CSRF token is per session")
    func sessions() {
        let secret = WebSecret(key: Array(repeating: 1, count: 32))
        let now = Date()
        let session = WebSession.new(now: now)
        let cookie = session.cookieValue(secret: secret)
        #expect(WebSession.verify(cookie, secret: secret, now: now) == session)
        #expect(WebSession.verify(cookie, secret: WebSecret(key: Array(repeating: 2, count: 32)), now: now) == nil)
        #expect(WebSession.verify(cookie, secret: secret, now: now.addingTimeInterval(WebSession.lifetime + 1)) == nil)
        #expect(WebSession.verify(cookie.replacingOccurrences(of: session.id, with: String(repeating: "0", count: session.id.count)), secret: secret, now: now) == nil)
        #expect(session.csrfToken(secret: secret) != WebSession.new(now: now).csrfToken(secret: secret))
        #expect(session.csrfToken(secret: secret).count == 40)
        #expect(session.isCSRFToken(session.csrfToken(secret: secret), secret: secret))
        #expect(!session.isCSRFToken(WebSession.new(now: now).csrfToken(secret: secret), secret: secret))
    }

    @Test("Attachment names become a safe ASCII fallback plus the UTF-8 name; odd types become octet-stream")
    func downloadHeaders() {
        #expect(WebApp.disposition(filename: "a\"b/c\n.pdf") == "attachment; filename=\"a_b_c_.pdf\"; filename*=UTF-8''a%22b_c_.pdf")
        #expect(WebApp.downloadType("Application/PDF") == "application/pdf")
        #expect(WebApp.downloadType("text/html; charset=\"x\"") == "application/octet-stream")
    }
}
