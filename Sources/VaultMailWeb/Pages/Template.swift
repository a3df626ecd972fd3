import Mustache

/// Markup that may go into a page as it is. There are only three ways to get one, and each is
/// safe by construction:
/// - rendering a `Template` (every `{{value}}` in it is escaped);
/// - `Markup(sanitized:)`, the mail sanitizer's output;
/// - `Markup.empty`, and joining markups.
/// A template inserts a `Markup` unescaped with `{{{name}}}`; `TemplateSafetyTests` lists every
/// such slot and fails when one appears that is not on its reviewed list.
struct Markup: Sendable, Equatable, MustacheCustomRenderable {
    /// The markup's text, for a response body.
    let html: String

    fileprivate init(trusted html: String) {
        self.html = html
    }

    /// The sanitizer's output: the one way a mail's own HTML enters a page.
    init(sanitized: SanitizedHTML) {
        html = sanitized.html
    }

    static let empty = Markup(trusted: "")

    var isEmpty: Bool { html.isEmpty }

    /// For Mustache: `{{{markup}}}` writes the text; `{{#markup}}` is false when it is empty.
    var renderText: String { html }
    var isNull: Bool { html.isEmpty }

    static func + (lhs: Markup, rhs: Markup) -> Markup {
        Markup(trusted: lhs.html + rhs.html)
    }

    static func += (lhs: inout Markup, rhs: Markup) {
        lhs = lhs + rhs
    }
}

extension Sequence<Markup> {
    func joined() -> Markup {
        Markup(trusted: map(\.html).joined())
    }
}

/// A Mustache template of the web app, compiled once (each is a `static let` beside the view
/// that uses it; templates live in Swift sources because the package installs binaries only).
/// Every `{{name}}` is escaped for HTML text and quoted attribute values alike (`&<>"'`, one
/// Unicode scalar at a time: see `EscapedHTML`). `{{{name}}}` is for `Markup` values only.
struct Template: Sendable {
    private let template: MustacheTemplate
    /// The names this template inserts unescaped (`{{{name}}}`, `{{&name}}`).
    private let rawSlots: Set<String>

    /// Compiles `source`; a template that does not parse, changes its delimiters or includes
    /// partials is a programming error (every page is rendered by the tests).
    init(_ source: String) {
        _ = EscapedHTML.registered
        precondition(!source.contains("{{=") && !source.contains("{{>") && !source.contains("{{<"),
                     "Web templates keep Mustache's delimiters and include no partials: \(source)")
        do {
            template = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(EscapedHTML.name)}}" + source)
        } catch {
            preconditionFailure("A web template does not parse: \(error)\n\(source)")
        }
        rawSlots = Self.rawSlots(in: source)
    }

    /// The template filled in from `model`: a struct whose stored properties the template
    /// names (sections take `Bool`s, optionals and arrays of such structs). In debug builds
    /// (the tests) every value an unescaped slot could read must be a `Markup`.
    func render(_ model: Any = Empty()) -> Markup {
        #if DEBUG
        if !rawSlots.isEmpty { Self.check(model, rawSlots: rawSlots) }
        #endif
        return Markup(trusted: template.render(model))
    }

    /// The names of the unescaped slots (`{{{name}}}` and `{{&name}}`) in `source`.
    static func rawSlots(in source: String) -> Set<String> {
        Set(source.matches(of: /\{\{(?:\{\s*([^}\s]+)\s*\}|&\s*([^}\s]+)\s*)\}\}/).map { String($0.1 ?? $0.2 ?? "") })
    }

    /// Fails when a property named like one of `rawSlots`, anywhere in `value`, is not a `Markup`.
    private static func check(_ value: Any, rawSlots: Set<String>) {
        for child in Mirror(reflecting: value).children {
            if let label = child.label, rawSlots.contains(label) {
                precondition(child.value is Markup || child.value is Markup?,
                             "The unescaped slot {{{\(label)}}} reads a \(type(of: child.value)), not Markup")
            }
            if !(child.value is Markup) { check(child.value, rawSlots: rawSlots) }
        }
    }

    /// A model with nothing in it, for templates without values.
    struct Empty {}
}

/// A model that names its values itself in `child(named:)` instead of leaving Mustache to find
/// them by reflection (which reads every stored property for each look-up): for what a page
/// renders many times, such as the list's rows.
protocol TemplateModel: MustacheParent {}

/// The escaping of every `{{value}}`. Mustache's own HTML escaping compares whole characters
/// (grapheme clusters), so a quote followed by a combining mark (`"\u{301}`) would pass as
/// one character unescaped and end an attribute; this one looks at each Unicode scalar.
struct EscapedHTML: MustacheContentType {
    static let name = "VAULTMAIL_HTML"

    static let registered: Void = MustacheContentTypes.register(EscapedHTML(), named: name)

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
