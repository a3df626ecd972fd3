internal import CGumbo

/// What the sanitizer does with one kind of element: the element and attribute allowlists.
struct ElementRule: Sendable {
    enum Action: Sendable {
        /// Emit the element with its allowed attributes, then its children.
        case keep
        /// Emit only the children (`html`, `form`, `label`, unknown elements, ...).
        case unwrap
        /// Emit nothing of the element or its subtree.
        case drop
        /// Keep its sanitized CSS, placed at the start of the output.
        case style
        /// `<img>`: the source decides between keeping it and its alt text.
        case image
        /// `<a>`: only safe link targets are kept.
        case link
        /// `<body>`: becomes a `<div>` when it carries allowed attributes (`bgcolor`, `style`).
        case body
        /// `<head>`: only its `<style>` children count.
        case head
    }

    /// The lowercase element name.
    let name: String
    let action: Action
    let traits: ElementTraits

    init(name: String, action: Action) {
        self.name = name
        self.action = action
        traits = ElementTraits.of(name)
    }

    /// The rule for an element node of the parsed tree.
    static func rule(for element: ParsedNode) -> ElementRule {
        // <svg> and <math> are dropped at their root; anything foreign below them is never reached,
        // but a foreign element reached some other way is dropped too.
        guard element.isHTML else { return ElementRule(name: "", action: .drop) }
        let index = element.tagIndex
        if index < byTag.count { return byTag[index] }
        let name = element.writtenTagName
        return ElementRule(name: name, action: droppedNames.contains(name) ? .drop : .unwrap)
    }

    /// A `<body>` that carries attributes, written as a `<div>`.
    static let body = ElementRule(name: "div", action: .body)

    /// Attributes kept on any allowed element (`style` is CSS-sanitized; `type` and `open` are
    /// checked per element by the serializer).
    static let allowedAttributes: Set<String> = [
        "align", "valign", "bgcolor", "color", "width", "height", "border", "cellpadding", "cellspacing",
        "dir", "lang", "title", "class", "id", "colspan", "rowspan", "nowrap", "face", "size", "start",
        "type", "summary", "style", "abbr", "scope", "headers", "span", "datetime", "open",
    ]

    private static let keptNames: Set<String> = [
        "abbr", "b", "blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
        "details", "dfn", "div", "dl", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
        "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strike", "strong",
        "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var",
        "wbr", "section", "article", "header", "footer", "main", "nav", "aside", "figure", "figcaption",
        "address", "time", "big",
    ]

    /// Dropped with their whole subtree: active content, embedded documents, forms' controls,
    /// document metadata, media, and elements whose text is not mail content.
    private static let droppedNames: Set<String> = [
        "script", "svg", "math", "iframe", "frame", "frameset", "object", "embed", "applet", "template",
        "noscript", "noembed", "noframes", "textarea", "select", "input", "button", "option", "optgroup",
        "datalist", "meta", "link", "base", "title", "audio", "video", "source", "track", "canvas", "portal",
        "param", "xmp", "plaintext", "keygen", "bgsound", "area", "isindex", "basefont", "menuitem", "dialog",
    ]

    /// Rules indexed by gumbo's tag enum (`GumboTag.rawValue`), built once from gumbo's own names.
    private static let byTag: [ElementRule] = (0..<GUMBO_TAG_UNKNOWN.rawValue).map { raw in
        let name = String(cString: gumbo_normalized_tagname(GumboTag(rawValue: raw)))
        let action: Action = switch name {
        case "a": .link
        case "img": .image
        case "style": .style
        case "body": .body
        case "head": .head
        case _ where keptNames.contains(name): .keep
        case _ where droppedNames.contains(name): .drop
        default: .unwrap
        }
        return ElementRule(name: name, action: action)
    }
}
