internal import CCmarkGFM
import Foundation
public import VaultMailCore

/// `MarkdownRenderer` over cmark-gfm: CommonMark plus GitHub's tables, strikethrough,
/// autolinks and task lists; raw HTML omitted; a line break where the writer broke a line.
/// The result is a whole HTML document with a small inline style, as mail clients expect.
public struct CmarkMarkdownRenderer: MarkdownRenderer {
    static let extensions = ["table", "strikethrough", "autolink", "tasklist", "tagfilter"]

    public init() {}

    public func html(fromMarkdown markdown: String) -> String {
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"font-family: sans-serif; line-height: 1.5\">\n"
            + fragment(markdown) + "</body></html>\n"
    }

    /// The HTML of `markdown` alone, without the document around it.
    public func fragment(_ markdown: String) -> String {
        Self.registerExtensions
        let options = vm_cmark_options()
        // The parser, its document and the rendered string are ours to free (cmark's rules).
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        for name in Self.extensions {
            if let syntax = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, syntax) }
        }
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// cmark-gfm's extensions are registered once per process.
    private static let registerExtensions: Void = cmark_gfm_core_extensions_ensure_registered()
}
