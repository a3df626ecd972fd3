/// How the HTML parsing algorithm treats an element, by name: the categories of the WHATWG tree
/// builder that the sanitizer's serializer and `NestingLimiter` must respect.
struct ElementTraits: OptionSet, Sendable {
    let rawValue: UInt32

    /// Never has children or an end tag (`br`, `img`, ...).
    static let void = ElementTraits(rawValue: 1 << 0)
    /// Its start tag closes an open `<p>` in button scope (`div`, `ul`, `h1`, ...).
    static let closesParagraph = ElementTraits(rawValue: 1 << 1)
    /// The parser's "special" category: stops the search of `<li>`, `<dd>` and of stray end tags.
    static let special = ElementTraits(rawValue: 1 << 2)
    /// Bounds "has an element in scope" (`table`, `td`, `caption`, ...).
    static let scopeBoundary = ElementTraits(rawValue: 1 << 3)
    /// Puts a marker on the list of active formatting elements (`td`, `th`, `caption`, ...).
    static let marker = ElementTraits(rawValue: 1 << 4)
    /// A formatting element, reopened by the parser when closed implicitly (`b`, `font`, `a`, ...).
    static let formatting = ElementTraits(rawValue: 1 << 5)
    /// `h1` to `h6`.
    static let heading = ElementTraits(rawValue: 1 << 6)
    /// `li`.
    static let listItem = ElementTraits(rawValue: 1 << 7)
    /// `dd` and `dt`.
    static let definitionItem = ElementTraits(rawValue: 1 << 8)
    /// An element that lives only inside `<table>` (`tbody`, `tr`, `td`, `col`, `caption`, ...).
    static let tablePart = ElementTraits(rawValue: 1 << 9)
    /// `td` and `th`.
    static let tableCell = ElementTraits(rawValue: 1 << 10)
    /// `tbody`, `thead` and `tfoot`.
    static let tableSection = ElementTraits(rawValue: 1 << 11)
    /// Text content not parsed as markup in HTML (`script`, `style`, `textarea`, `title`, ...).
    static let rawText = ElementTraits(rawValue: 1 << 12)
    /// A void element that also breaks out of `<svg>`/`<math>` content (`img`, `br`, `hr`, `embed`, `meta`).
    static let foreignBreakoutVoid = ElementTraits(rawValue: 1 << 13)

    /// The traits of the element `name` (lowercase); unknown elements have none.
    static func of(_ name: String) -> ElementTraits { table[name] ?? [] }

    private static let table: [String: ElementTraits] = {
        var table: [String: ElementTraits] = [:]
        func add(_ traits: ElementTraits, _ names: String) {
            for name in names.split(separator: " ") { table[String(name), default: []].formUnion(traits) }
        }
        add(.void, "area base basefont bgsound br col embed frame hr image img input isindex keygen link meta param source track wbr")
        add(.foreignBreakoutVoid, "img br hr embed meta")
        add(.closesParagraph, """
            address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer \
            header hgroup main menu nav ol p section summary ul h1 h2 h3 h4 h5 h6 pre listing form plaintext xmp \
            hr li dd dt
            """)
        add(.special, """
            address applet area article aside base basefont bgsound blockquote body br button caption center col \
            colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 \
            h4 h5 h6 head header hgroup hr html iframe img input isindex keygen li link listing main marquee menu \
            meta nav noembed noframes noscript object ol p param plaintext pre script section select source style \
            summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp \
            mi mo mn ms mtext annotation-xml foreignobject desc
            """)
        // `select` is not a scope boundary in the standard; counting it as one only makes
        // NestingLimiter close fewer elements, which keeps its depth estimate an upper bound.
        add(.scopeBoundary, "applet caption html table td th marquee object template select mi mo mn ms mtext annotation-xml foreignobject desc")
        add(.marker, "applet caption marquee object template td th")
        add(.formatting, "a b big code em font i nobr s small strike strong tt u")
        add(.heading, "h1 h2 h3 h4 h5 h6")
        add(.listItem, "li")
        add(.definitionItem, "dd dt")
        add(.tablePart, "caption colgroup col tbody thead tfoot tr td th")
        add(.tableCell, "td th")
        add(.tableSection, "tbody thead tfoot")
        add(.rawText, "script style textarea title xmp iframe noembed noframes")
        return table
    }()
}
