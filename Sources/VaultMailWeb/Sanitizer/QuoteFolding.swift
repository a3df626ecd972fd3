/// Finds the quoted part of a reply, the way the common mail clients mark it, so that the
/// serializer can fold it into `<details class="quoted">`.
enum QuoteFolding {
    /// If the element at `index` of `children` starts a quote, the end (exclusive) of the run of
    /// siblings to fold with it:
    /// - `<blockquote type="cite">` (Apple Mail, Thunderbird), `div.gmail_quote` and
    ///   `blockquote.gmail_quote` (Gmail), `div.yahoo_quoted` (Yahoo): the element alone;
    /// - `div.moz-cite-prefix` (Thunderbird's "On ... wrote:") and the blockquote after it;
    /// - `div#divRplyFwdMsg` (Outlook), with an `<hr>` just before it: it and all that follows.
    static func foldEnd(in children: ParsedNode.Children, at index: Int, end: Int) -> Int? {
        let node = children[index]
        guard node.kind == .element, node.isHTML else { return nil }
        switch ElementRule.rule(for: node).name {
        case "blockquote":
            let isCite = node.attribute("type")?.lowercased() == "cite"
            return isCite || node.hasClass("gmail_quote") ? index + 1 : nil
        case "div":
            if node.hasClass("gmail_quote") || node.hasClass("yahoo_quoted") { return index + 1 }
            if isOutlookReplyHeader(node) { return end }
            if node.hasClass("moz-cite-prefix"), let next = nextElement(in: children, after: index, end: end),
               ElementRule.rule(for: children[next]).name == "blockquote" {
                return next + 1
            }
            return nil
        case "hr":
            guard let next = nextElement(in: children, after: index, end: end), isOutlookReplyHeader(children[next]) else { return nil }
            return end
        default:
            return nil
        }
    }

    private static func isOutlookReplyHeader(_ node: ParsedNode) -> Bool {
        node.kind == .element && node.isHTML && ElementRule.rule(for: node).name == "div"
            && node.attribute("id")?.lowercased() == "divrplyfwdmsg"
    }

    /// The next element sibling, past whitespace and comments only.
    private static func nextElement(in children: ParsedNode.Children, after index: Int, end: Int) -> Int? {
        var next = index + 1
        while next < end {
            switch children[next].kind {
            case .element: return next
            case .whitespace, .other: next += 1
            default: return nil
            }
        }
        return nil
    }
}
