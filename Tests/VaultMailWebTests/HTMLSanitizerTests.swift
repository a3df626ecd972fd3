import Testing
@testable import VaultMailWeb

/// The mail HTML sanitizer: hostile markup never comes through, mail layout does, and the
/// output parses back into itself.
@Suite("HTMLSanitizer")
struct HTMLSanitizerTests {
    let sanitizer = HTMLSanitizer()

    // MARK: - Hostile mail

    static let hostileMail: [String] = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<body onload=alert(1)><p>hi</p></body>",
        #"<a href="javascript:alert(1)">click</a>"#,
        #"<a href="&#106;avascript:alert(1)">click</a>"#,
        "<a href=\"java\tscript:alert(1)\">click</a>",
        #"<a href=" JAVASCRIPT:alert(1)">click</a>"#,
        "<a href=\"\u{01}javascript:alert(1)\">click</a>",
        #"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>"#,
        #"<a href="vbscript:msgbox(1)">click</a>"#,
        "<svg><script>alert(1)</script></svg>",
        "<svg onload=alert(1)><circle r=1 /></svg>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        #"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>"#,
        #"<meta http-equiv="refresh" content="0;url=http://evil.example/">"#,
        "<style>@import url(http://evil.example/a.css); body{background:url(http://evil.example/b.png)}</style>",
        #"<div style="background-image:url('http://evil.example/c.png')">x</div>"#,
        #"<img src="http://tracker.example/p.gif" width=1 height=1>"#,
        "<form action=http://evil.example/><input name=p><button formaction=http://evil.example/>go</button></form>",
        "<iframe src=http://evil.example/></iframe>",
        "<object data=http://evil.example/x.swf></object><embed src=http://evil.example/y>",
        "<base href=http://evil.example/><a href=x>relative</a>",
        "<link rel=stylesheet href=http://evil.example/s.css>",
        #"<a href="http://ok.example" onclick="alert(1)">ok</a>"#,
        #"<img src="data:image/png;base64,AAAA" srcset="http://evil.example/2x.png 2x">"#,
        #"<table background="http://evil.example/bg.png"><tr><td>cell</td></tr></table>"#,
        #"<div style="width:expression(alert(1))">x</div>"#,
        #"<style>a{b:u\72 l(http://evil.example/d.png)}</style>"#,
        #"<style>a{color:red;content:"</style><script>alert(1)</script>"}</style>"#,
        #"<style>p{behavior:url(x.htc);-moz-binding:url(http://evil.example/x.xml#a)}</style><p>x</p>"#,
        "<p style=\"u\\rl(http://evil.example/e.png)\">x</p>",
        #"<div style="background:url(//evil.example/f.png)">x</div>"#,
        "<x-custom onmouseover=alert(1)>text</x-custom>",
        "<textarea><img src=x onerror=alert(1)></textarea>",
        "<template><img src=x onerror=alert(1)></template>",
        "<xmp><img src=x onerror=alert(1)></xmp>",
        "<video poster=http://evil.example/v.png><source src=http://evil.example/v.mp4></video>",
        "<select><option><img src=x onerror=alert(1)></option></select>",
        "<svg><style><img src=x onerror=alert(1)></style></svg>",
        "<p>a<plaintext><img src=x onerror=alert(1)>",
        "<a href=http://ok.example/ ping=http://evil.example/>ping</a>",
        "<!--><img src=x onerror=alert(1)>-->",
        "<div xmlns=http://www.w3.org/1999/xhtml onclick=alert(1)>x</div>",
        "<table><tr><td><style>td{position:fixed;top:0}</style>x</td></tr></table>",
        "<a href=\"https://ok.example/\" title=\"\\\" onmouseover=alert(1) \\\"\">q</a>",
        "<isindex action=http://evil.example/>",
        "<frameset><frame src=http://evil.example/></frameset>",
    ]

    @Test("Hostile mail yields inert markup", arguments: hostileMail)
    func hostileMailIsInert(_ mail: String) {
        let result = sanitizer.sanitize(mail)
        Self.expectInert(result.html)
    }

    @Test("Hostile mail: the output parses back into itself", arguments: hostileMail)
    func hostileMailRoundTrips(_ mail: String) {
        let once = sanitizer.sanitize(mail).html
        #expect(sanitizer.sanitize(once).html == once)
    }

    @Test("Scripts go with their text")
    func scriptsRemoved() {
        #expect(sanitizer.sanitize("<p>a</p><script>alert(1)</script><p>b</p>").html == "<p>a</p><p>b</p>")
    }

    @Test("Event handlers and unknown attributes are dropped, allowed ones kept")
    func attributesFiltered() {
        let html = sanitizer.sanitize(#"<p onclick="x()" class="note" data-x="1" align="center" style="color:red">t</p>"#).html
        #expect(html == #"<p class="note" align="center" style="color:red">t</p>"#)
    }

    @Test("A <body onload> keeps its content, not its handler")
    func bodyHandlerDropped() {
        #expect(sanitizer.sanitize("<body onload=alert(1)><p>hi</p></body>").html == "<p>hi</p>")
    }

    @Test("Body colours survive as a <div>")
    func bodyAttributesKept() {
        let html = sanitizer.sanitize(##"<body bgcolor="#eeeeee" style="margin:0"><p>x</p></body>"##).html
        #expect(html == ##"<div bgcolor="#eeeeee" style="margin:0"><p>x</p></div>"##)
    }

    static let unsafeLinks = [
        "javascript:alert(1)", "&#106;avascript:alert(1)", "java\tscript:alert(1)", " JAVASCRIPT:alert(1)",
        "jav&#x09;ascript:alert(1)", "\u{01}javascript:alert(1)", "java\nscript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "#top",
        "/relative/path", "relative.html", "ftp://example.org/", "cid:part1",
    ]

    @Test("Links to anything but http(s) and mailto lose their target, keep their text", arguments: unsafeLinks)
    func unsafeLinkDropped(_ href: String) {
        let html = sanitizer.sanitize("<a href=\"\(href)\">click</a>").html
        #expect(html == "<a>click</a>")
    }

    @Test("Kept links open in a new window, without referrer, titled with their real target")
    func linksKept() {
        let html = sanitizer.sanitize(#"<a href=" https://bank.example/login?a=1&amp;b=2 " title="Your bank">Pay</a>"#).html
        #expect(html == #"<a href="https://bank.example/login?a=1&amp;b=2" title="https://bank.example/login?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Pay</a>"#)
        let mail = sanitizer.sanitize(#"<a href="MAILTO:ada@example.org" onclick="x()">Ada</a>"#).html
        #expect(mail == #"<a href="MAILTO:ada@example.org" title="MAILTO:ada@example.org" target="_blank" rel="noopener noreferrer">Ada</a>"#)
    }

    @Test("mXSS through <noscript> and <math> leaves no image behind")
    func mutationXSS() {
        for mail in [#"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>"#,
                     "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"] {
            let elements = Self.elements(of: sanitizer.sanitize(mail).html)
            #expect(!elements.contains { $0.name == "img" })
            #expect(!elements.contains { $0.attributes.contains { $0.name.hasPrefix("on") } })
        }
    }

    @Test("Style sheets lose imports, remote urls, fonts and overlays; both remote resources are counted")
    func styleSheetSanitized() {
        let result = sanitizer.sanitize("""
            <style>@import url(http://evil.example/a.css);
            @font-face{font-family:x;src:url(https://evil.example/f.woff)}
            body{background:#fff url(http://evil.example/b.png) no-repeat;color:#333}
            .banner{position:fixed;top:0} .box{position:relative}</style><p>x</p>
            """)
        #expect(result.html == "<style>body{background:#fff none no-repeat;color:#333}\n.banner{top:0}\n.box{position:relative}\n</style><p>x</p>")
        #expect(result.blockedRemoteContent == 3)
    }

    @Test("CSS escapes and comments cannot spell url(): such declarations are dropped")
    func cssEscapesDropped() {
        let result = sanitizer.sanitize(#"<style>a{b:u\72 l(http://x.example/1);c:u\rl(http://x.example/2);color:red} p{background:u/**/rl(http://x.example/3)}</style>"#)
        #expect(result.html.firstMatch(of: #/url\(\s*["']?\s*(http|//)/#) == nil)
        #expect(!result.html.contains("\\"))
        #expect(result.html.hasPrefix("<style>a{color:red}\n"))
    }

    @Test("Text of a <style> cannot close it early")
    func styleCannotBeClosed() {
        let html = sanitizer.sanitize(#"<style>a{color:red;content:"</style><script>alert(1)</script>"}</style><p>x</p>"#).html
        #expect(html == "<style>a{color:red}\n</style>\"}<p>x</p>")
        #expect(!html.contains("<script"))
    }

    @Test("A tracking pixel is removed and counted")
    func trackerBlocked() {
        let result = sanitizer.sanitize(#"<p>Hi</p><img src="http://tracker.example/p.gif" width=1 height=1>"#)
        #expect(result.html == "<p>Hi</p>")
        #expect(result.blockedRemoteContent == 1)
    }

    @Test("Remote resources of every kind are counted")
    func blockedCount() {
        let result = sanitizer.sanitize("""
            <style>.a{background:url(https://x.example/1.png)}</style>
            <table background="http://x.example/2.png"><tr><td style="background-image:url('//x.example/3.png')">
            <img src="https://x.example/4.png" alt="Logo"><img src="cid:inline@x"></td></tr></table>
            """)
        #expect(result.blockedRemoteContent == 4)
        #expect(result.html.contains("<span>Logo</span>"))
        #expect(!result.html.contains("x.example"))
    }

    @Test("Forms keep their text, not their controls")
    func formsFlattened() {
        let html = sanitizer.sanitize("<form action=http://evil.example/><label>Name <input name=p></label><button>Send</button></form>").html
        #expect(html == "Name ")
    }

    // MARK: - Mail that must survive

    @Test("A newsletter's table layout, styles and links are kept")
    func newsletterKept() {
        let result = sanitizer.sanitize(Self.newsletterIssue(1))
        let html = result.html
        #expect(html.hasPrefix("<style>"))
        #expect(html.contains("@media only screen and (max-width:600px){.col{width:100% !important}\n}"))
        #expect(html.contains(##"<table width="600" cellpadding="0" cellspacing="0" border="0" align="center" bgcolor="#ffffff" style="border-collapse:collapse">"##))
        #expect(html.contains(#"<td class="col" valign="top" style="padding:16px;font-family:Arial,sans-serif">"#))
        #expect(html.contains(#"<a style="color:#0066cc" href="https://news.example/story/1?utm=mail" title="https://news.example/story/1?utm=mail" target="_blank" rel="noopener noreferrer">Read more</a>"#))
        #expect(html.contains(##"<font face="Georgia" color="#333333" size="2">"##))
        #expect(html.contains("<tbody>") && html.contains("</table>"))
        #expect(result.blockedRemoteContent == 2)  // the hero image and the open-tracking pixel
        #expect(sanitizer.sanitize(html).html == html)
    }

    @Test("A cid: image takes the URL given for it, and its Content-ID is reported")
    func contentIdRewritten() {
        let options = HTMLSanitizer.Options(contentIdURLs: ["logo@mail.example": "data:image/png;base64,iVBORw0KGgo="])
        let result = sanitizer.sanitize(#"<img src="cid:logo@mail.example" alt="Logo" width="120"><img src="CID:%3Cchart@mail.example%3E" alt="Chart"><img src="cid:logo@mail.example">"#,
                                        options: options)
        #expect(result.html == #"<img src="data:image/png;base64,iVBORw0KGgo=" alt="Logo" width="120"><span>Chart</span><img src="data:image/png;base64,iVBORw0KGgo=">"#)
        #expect(result.contentIds == ["logo@mail.example", "chart@mail.example"])
        #expect(result.blockedRemoteContent == 0)
    }

    @Test("A cid: key may be given with its angle brackets; CSS cid: urls are rewritten too")
    func contentIdKeysAndCSS() {
        let options = HTMLSanitizer.Options(contentIdURLs: ["<bg@x>": "data:image/gif;base64,R0lGOD=="])
        let result = sanitizer.sanitize(#"<div style="background:url(cid:bg@x)">x</div><img src="cid:bg@x">"#, options: options)
        #expect(result.html == #"<div style="background:url(&quot;data:image/gif;base64,R0lGOD==&quot;)">x</div><img src="data:image/gif;base64,R0lGOD==">"#)
        #expect(result.contentIds == ["bg@x"])
    }

    @Test("Inline raster images are kept; other data: images are not")
    func dataImages() {
        #expect(sanitizer.sanitize(#"<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">"#).html
            == #"<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">"#)
        #expect(sanitizer.sanitize(#"<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="vector">"#).html == "<span>vector</span>")
    }

    @Test("Remote images are kept only when the user shows them, and then none is counted")
    func remoteImagesAllowed() {
        let mail = #"<img src="http://cdn.example/hero.jpg" alt="Hero"><img src="//cdn.example/b.png"><div style="background:url(https://cdn.example/bg.png)">x</div>"#
        let blocked = sanitizer.sanitize(mail)
        #expect(blocked.blockedRemoteContent == 3)
        #expect(!blocked.html.contains("cdn.example"))
        let shown = sanitizer.sanitize(mail, options: HTMLSanitizer.Options(allowRemoteImages: true))
        #expect(shown.blockedRemoteContent == 0)
        #expect(shown.html == #"<img src="http://cdn.example/hero.jpg" alt="Hero"><img src="https://cdn.example/b.png"><div style="background:url(&quot;https://cdn.example/bg.png&quot;)">x</div>"#)
    }

    @Test("Gmail quotes are folded once, also when sanitized again")
    func gmailQuoteFolded() {
        let html = sanitizer.sanitize(#"<div>Thanks!</div><div class="gmail_quote"><div class="gmail_attr">On Mon, Ada wrote:</div><blockquote class="gmail_quote" type="cite">old <blockquote type="cite">older</blockquote></blockquote></div>"#).html
        #expect(html == #"<div>Thanks!</div><details class="quoted"><summary>Show quoted text</summary><div class="gmail_quote"><div class="gmail_attr">On Mon, Ada wrote:</div><blockquote class="gmail_quote">old <blockquote>older</blockquote></blockquote></div></details>"#)
        #expect(sanitizer.sanitize(html).html == html)
    }

    @Test("Apple Mail and Thunderbird quotes are folded with their attribution line")
    func citeQuoteFolded() {
        let apple = sanitizer.sanitize(#"<p>Sure.</p><blockquote type="CITE">Can you?</blockquote>"#).html
        #expect(apple == #"<p>Sure.</p><details class="quoted"><summary>Show quoted text</summary><blockquote>Can you?</blockquote></details>"#)
        let thunderbird = sanitizer.sanitize(#"<p>Yes</p><div class="moz-cite-prefix">On 1/2, Bo wrote:</div> <blockquote type="cite">Q</blockquote>"#).html
        #expect(thunderbird == #"<p>Yes</p><details class="quoted"><summary>Show quoted text</summary><div class="moz-cite-prefix">On 1/2, Bo wrote:</div> <blockquote>Q</blockquote></details>"#)
    }

    @Test("Outlook's reply header folds with everything after it")
    func outlookQuoteFolded() {
        let html = sanitizer.sanitize(#"<div><p>Fine</p><hr><div id="divRplyFwdMsg"><b>From:</b> Cy</div><div>earlier mail</div></div>"#).html
        #expect(html == #"<div><p>Fine</p><details class="quoted"><summary>Show quoted text</summary><hr><div id="divRplyFwdMsg"><b>From:</b> Cy</div><div>earlier mail</div></details></div>"#)
    }

    @Test("Quotes stay as they are when folding is off")
    func foldingOff() {
        let html = sanitizer.sanitize(#"<blockquote type="cite">q</blockquote>"#, options: HTMLSanitizer.Options(foldQuotes: false)).html
        #expect(html == "<blockquote>q</blockquote>")
    }

    @Test("Text and attribute values are escaped")
    func escaping() {
        #expect(sanitizer.sanitize("<p>1 &lt; 2 &amp;&amp; 3 > 2 & a < b <3</p>").html == "<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 &amp; a &lt; b &lt;3</p>")
        #expect(sanitizer.sanitize("x < y").html == "x &lt; y")
        #expect(sanitizer.sanitize(#"<p title='say "hi" & <bye>'>t</p>"#).html == #"<p title="say &quot;hi&quot; &amp; &lt;bye&gt;">t</p>"#)
    }

    @Test("Empty or blank input gives empty markup")
    func emptyInput() {
        #expect(sanitizer.sanitize("").html == "")
        #expect(sanitizer.sanitize("  \n ").html == "")
        #expect(sanitizer.sanitize("<html><head><title>t</title></head><body></body></html>").html == "")
    }

    @Test("Malformed markup is repaired as a browser repairs it")
    func malformedMarkup() {
        #expect(sanitizer.sanitize("<div><p>one<p>two<b>bold").html == "<div><p>one</p><p>two<b>bold</b></p></div>")
        #expect(sanitizer.sanitize("<table><tr><td>a<td>b</table>").html == "<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>")
        #expect(sanitizer.sanitize("<ul><li>a<li>b</ul>").html == "<ul><li>a</li><li>b</li></ul>")
    }

    @Test("Markup the parser would move is written where it stays")
    func stableSerialization() {
        let mails = [
            "<p>a<marquee><div>b</div></marquee>c</p>",
            "<li>a<fieldset><li>b</li></fieldset></li>",
            "<a href=http://a.example/>x<marquee><a href=http://b.example/>y</a></marquee></a>",
            "<h1>a<legend><h2>b</h2></legend></h1>",
            "<pre>\n\nindented</pre>",
            "<dl><dt>a<form><dd>b</form></dl>",
            "<table><tr><td><table><tr><td>nested</td></tr></table></td></tr></table>",
        ]
        for mail in mails {
            let once = sanitizer.sanitize(mail).html
            #expect(sanitizer.sanitize(once).html == once, "\(mail)")
        }
        #expect(sanitizer.sanitize("<pre>\n\nindented</pre>").html == "<pre>\n\nindented</pre>")
    }

    // MARK: - Robustness and speed

    @Test("10 MB of nested <div>s are flattened below the depth limit, text kept")
    func deepNesting() {
        let mail = String(repeating: "<div>", count: 2_000_000) + "deep text"
        let html = sanitizer.sanitize(mail).html
        #expect(html.contains("deep text"))
        let divs = html.ranges(of: "<div>").count
        #expect(divs > 400 && divs <= SanitizingSerializer.maximumDepth)
    }

    /// Inputs built to make the parser nest deeply or re-create elements over and over.
    static let adversarialShapes: [(String, @Sendable (Int) -> String)] = [
        ("nested divs", { String(repeating: "<div>", count: $0) }),
        ("self-closed divs", { String(repeating: "<div/>", count: $0) }),
        ("end tags hidden in comments", { String(repeating: "<div><!-- </div> -->", count: $0) }),
        ("end tags out of scope", { String(repeating: "<span><div></span>", count: $0) }),
        ("reopened formatting", { (0..<$0).map { "<div><b id=\($0)></div>x" }.joined() }),
        ("unclosed fonts in blocks", { (0..<$0).map { "<div><font face=f\($0)>x</div>" }.joined() }),
        ("tables in svg", { String(repeating: "<table><svg><table></table><div><div><div></table>", count: $0 / 4) }),
        ("select closed by textarea", { String(repeating: "<select><textarea></textarea><div><div></select>", count: $0 / 4) }),
        ("self-closed sections after svg", { "<svg><div></div>" + String(repeating: "<section/>", count: $0) }),
        ("raw text in svg", { "<svg><style>" + String(repeating: "<div>", count: $0) }),
        ("cells outside tables", { String(repeating: "<td><div><div><td>", count: $0 / 3) }),
        ("nested tables", { String(repeating: "<table><tr><td>", count: $0 / 3) }),
        ("nobr", { (0..<$0).map { "<nobr id=\($0)>" }.joined() }),
        ("buttons", { String(repeating: "<button><p><button>", count: $0 / 3) }),
        ("select in table", { String(repeating: "<table><td><select><td><div><div><div><input>", count: $0 / 7) }),
    ]

    @Test("Adversarial nesting keeps the parser's tree shallow and its size linear", arguments: adversarialShapes.indices)
    func adversarialDepth(_ shape: Int) {
        let (name, make) = Self.adversarialShapes[shape]
        let mail = make(8_000)
        let (depth, nodes) = Self.measure(GumboDocument(parsing: NestingLimiter.limit(mail)))
        #expect(depth <= 2 * NestingLimiter.maximumDepth + 8, "\(name): depth \(depth)")
        #expect(nodes <= 8 * mail.utf8.count, "\(name): \(nodes) nodes")
        let once = sanitizer.sanitize(mail).html
        #expect(sanitizer.sanitize(once).html == once, "\(name)")
    }

    @Test("Subtrees moved by the adoption agency may nest the parsed tree deeply; the output stays shallow")
    func adoptionAgencyDepth() {
        let round = "</title></a><span/><label></html><nobr id=2/></center><g class=y><center face=x/></td>"
        let mail = String(repeating: round, count: 3_000)
        let (treeDepth, _) = Self.measure(GumboDocument(parsing: NestingLimiter.limit(mail)))
        #expect(treeDepth > 2_000)  // what gumbo builds: no recursion over it anywhere
        let html = sanitizer.sanitize(mail).html
        let (outputDepth, _) = Self.measure(GumboDocument(parsing: Array(html.utf8)))
        #expect(outputDepth <= SanitizingSerializer.maximumDepth + 3)  // document, html, body
        #expect(sanitizer.sanitize(html).html == html)
    }

    @Test("Random tag soup comes out inert and parses back into itself")
    func randomTagSoup() {
        let tags = ["div", "p", "span", "b", "a", "table", "tr", "td", "caption", "col", "li", "ul", "dd", "dt", "h1", "pre",
                    "blockquote", "font", "form", "input", "button", "select", "option", "textarea", "script", "style",
                    "svg", "math", "mtext", "mglyph", "foreignObject", "title", "noscript", "iframe", "object", "template",
                    "marquee", "nobr", "img", "br", "hr", "details", "summary", "label", "fieldset", "xmp", "plaintext",
                    "body", "html", "head", "meta", "base", "link", "frameset", "image", "isindex", "o:p"]
        let attributes = ["class=gmail_quote", "type=cite", "id=divRplyFwdMsg", "class=moz-cite-prefix",
                          "href=javascript:alert(1)", "href=http://ok.example/", "src=http://t.example/p.gif", "src=cid:a@b",
                          "src=data:image/png;base64,AA", "onerror=alert(1)", "style=\"background:url(http://e.example/x)\"",
                          "style='color:red;position:fixed'", "background=http://e.example/b", "title=\"</noscript><img src=x onerror=1>\""]
        let texts = ["x", " ", "\n", "&amp;", "&lt;", "<", "\"", "<!--", "-->", "<!DOCTYPE html>", "<![CDATA[x]]>", "</", "\u{0}",
                     "@import url(http://e/x);", "a{b:url(http://e/y)}", "\\75 rl(", "}", "</style>"]
        var random = SeededGenerator(state: 2024)
        for iteration in 0..<300 {
            var mail = ""
            for _ in 0..<(5 + random.next(60)) {
                switch random.next(10) {
                case 0...3:
                    mail += "<" + tags[random.next(tags.count)]
                    for _ in 0..<random.next(3) { mail += " " + attributes[random.next(attributes.count)] }
                    mail += random.next(6) == 0 ? "/>" : ">"
                case 4...5: mail += "</" + tags[random.next(tags.count)] + ">"
                default: mail += texts[random.next(texts.count)]
                }
            }
            let options = HTMLSanitizer.Options(contentIdURLs: ["a@b": "data:image/png;base64,QQ=="], foldQuotes: iteration % 4 != 0)
            let once = sanitizer.sanitize(mail, options: options).html
            Self.expectInert(once)
            #expect(sanitizer.sanitize(once, options: options).html == once, "\(mail.debugDescription)")
        }
    }

    // MARK: - Helpers

    /// The checks every hostile mail's output must pass, on the tree a browser parses it into
    /// and on its CSS.
    static func expectInert(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let forbiddenElements: Set = ["script", "form", "input", "button", "select", "option", "textarea", "svg", "math",
                                      "meta", "base", "link", "title", "iframe", "frame", "frameset", "object", "embed",
                                      "applet", "noscript", "template", "video", "audio", "source", "xmp", "plaintext"]
        for element in elements(of: html) {
            #expect(element.isHTML, "foreign element \(element.name) in \(html)", sourceLocation: sourceLocation)
            #expect(!forbiddenElements.contains(element.name), "<\(element.name)> in \(html)", sourceLocation: sourceLocation)
            for (name, value) in element.attributes {
                #expect(!name.hasPrefix("on") && !["formaction", "srcset", "background", "xmlns", "ping", "action", "cite"].contains(name),
                        "\(name)= in \(html)", sourceLocation: sourceLocation)
                if name == "href" || name == "src" {
                    let url = value.lowercased()
                    #expect(["http:", "https:", "mailto:", "data:image/"].contains { url.hasPrefix($0) } && !url.hasPrefix("data:image/svg"),
                            "\(name)=\(value) in \(html)", sourceLocation: sourceLocation)
                    #expect(name != "src" || !url.hasPrefix("http"), "remote image in \(html)", sourceLocation: sourceLocation)
                }
            }
        }
        // The CSS: the leading style sheet and the style attributes.
        var css = elements(of: html).flatMap { $0.attributes.filter { $0.name == "style" }.map(\.value) }
        #expect(html.ranges(of: "<style").count <= 1 && (!html.contains("<style") || html.hasPrefix("<style>")),
                "style element out of place in \(html)", sourceLocation: sourceLocation)
        if html.hasPrefix("<style>"), let end = html.firstRange(of: "</style>") {
            css.append(String(html[html.index(html.startIndex, offsetBy: 7)..<end.lowerBound]))
        }
        for rule in css.map({ $0.lowercased() }) {
            for forbidden in ["javascript:", "vbscript:", "@import", "expression(", "behavior", "binding", "\\", "<"] {
                #expect(!rule.contains(forbidden), "\(forbidden) in \(html)", sourceLocation: sourceLocation)
            }
            #expect(rule.firstMatch(of: #/url\(\s*["']?\s*(http|//)/#) == nil, "remote url() in \(html)", sourceLocation: sourceLocation)
            #expect(rule.firstMatch(of: #/position\s*:\s*(fixed|absolute|sticky)/#) == nil, sourceLocation: sourceLocation)
        }
    }

    /// The elements a browser parses `html` into (gumbo, like a browser, follows the HTML5 rules).
    static func elements(of html: String) -> [(name: String, isHTML: Bool, attributes: [(name: String, value: String)])] {
        let document = GumboDocument(parsing: Array(html.utf8))
        defer { withExtendedLifetime(document) {} }  // its nodes point into memory it frees
        var found: [(name: String, isHTML: Bool, attributes: [(name: String, value: String)])] = []
        var stack = [document.root]
        while let node = stack.popLast() {
            let children = node.children
            for index in 0..<children.count { stack.append(children[index]) }
            guard node.kind == .element else { continue }
            let name = node.isHTML ? ElementRule.rule(for: node).name : node.writtenTagName
            found.append((name, node.isHTML, node.attributes))
        }
        return found
    }

    /// The depth (from the document node) and node count of a parsed tree. The document is
    /// held until the walk ends: its nodes point into memory it frees.
    static func measure(_ document: GumboDocument) -> (depth: Int, nodes: Int) {
        withExtendedLifetime(document) { measure(from: document.root) }
    }

    private static func measure(from root: ParsedNode) -> (depth: Int, nodes: Int) {
        var stack = [(root, 0)]
        var deepest = 0
        var nodes = 0
        while let (node, depth) = stack.popLast() {
            nodes += 1
            deepest = max(deepest, depth)
            let children = node.children
            for index in 0..<children.count { stack.append((children[index], depth + 1)) }
        }
        return (deepest, nodes)
    }

    /// One issue of a typical table-layout newsletter (about 2.2 KB).
    static func newsletterIssue(_ number: Int) -> String {
        """
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
        <title>News \(number)</title>
        <style type="text/css"><!--
        body { margin:0; padding:0; background:#f4f4f4; }
        .col { width: 300px; } /* two columns */
        a:hover { text-decoration: underline; }
        @media only screen and (max-width:600px) { .col { width:100% !important; } }
        --></style></head>
        <body bgcolor="#f4f4f4" onload="track()">
        <table width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f4f4f4"><tr><td align="center">
        <table width="600" cellpadding="0" cellspacing="0" border="0" align="center" bgcolor="#ffffff" style="border-collapse:collapse">
        <tr><td colspan="2"><img src="https://news.example/hero-\(number).jpg" width="600" height="200" alt="" style="display:block"></td></tr>
        <tr><td class="col" valign="top" style="padding:16px;font-family:Arial,sans-serif">
        <h2 style="margin:0 0 8px 0;color:#222">Story \(number): the headline</h2>
        <p style="margin:0 0 12px 0;line-height:1.4">Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor
        incididunt ut labore et dolore magna aliqua &amp; more. Ut enim ad minim veniam, quis nostrud exercitation ullamco.</p>
        <a href="https://news.example/story/\(number)?utm=mail" style="color:#0066cc">Read more</a>
        </td><td class="col" valign="top" style="padding:16px;font-family:Arial,sans-serif">
        <font face="Georgia" color="#333333" size="2">Duis aute irure dolor in reprehenderit in voluptate velit esse cillum
        dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia.</font>
        <ul><li>First point of issue \(number)</li><li>Second point</li><li>Third point</li></ul>
        </td></tr>
        <tr><td colspan="2" align="center" style="padding:12px;font-size:11px;color:#999">
        You receive this because you subscribed. <a href="https://news.example/unsubscribe?id=\(number)">Unsubscribe</a>
        | <a href="mailto:editor@news.example">Write to us</a><br>News Example Ltd, 1 Example Street</td></tr>
        </table></td></tr></table>
        <img src="https://news.example/open.gif?n=\(number)" width="1" height="1" alt="">
        </body></html>

        """
    }
}

/// A small deterministic generator (a linear congruential one) for the tag-soup test.
private struct SeededGenerator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
