/// Turns a body written in Markdown into the HTML alternative it is sent with. The HTML holds
/// only what the Markdown says: raw HTML in the text is left out, never passed through.
public protocol MarkdownRenderer: Sendable {
    func html(fromMarkdown markdown: String) -> String
}
