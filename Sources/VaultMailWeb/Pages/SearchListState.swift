import VaultMailCore

/// What the thread list shows when it lists search results (issue 14): the query, each
/// thread's matching text, or why the query could not be read.
struct SearchListState {
    var query: String
    /// Thread id → the newest matching message's text around the match.
    var highlights: [String: SearchSnippet] = [:]
    /// The query could not be read: the parser's words, shown in the page.
    var problem: SearchQueryError?
    /// Results by meaning (issue 15): the words' sense, fused with the word search.
    var byMeaning = false
    /// Where the next page of results starts; nil on the last page.
    var nextCursor: SearchCursor?

    /// The search page's URL, with a conversation open when given.
    func url(thread: String? = nil, byMeaning: Bool? = nil) -> String {
        var url = "/mail/search?q=\(FormFields.encode(query))"
        if byMeaning ?? self.byMeaning { url += "&meaning=1" }
        if let thread { url += "&t=\(FormFields.encode(thread))" }
        return url
    }

    /// The switch between results by words and by meaning, in the place of the category tabs.
    func modeSwitch() -> String {
        guard !query.isEmpty else { return "" }
        func link(_ label: String, meaning: Bool) -> String {
            let current = meaning == byMeaning ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(HTML.escape(url(byMeaning: meaning)))\"\(current)>\(label)</a></li>"
        }
        return "<nav class=\"tabs\" id=\"search-mode\" aria-label=\"Search mode\"><ul>" + link("By words", meaning: false) + link("By meaning", meaning: true) + "</ul></nav>"
    }

    func problemNotice() -> String {
        guard let problem else { return "" }
        let before = String(problem.query.prefix(problem.position))
        let bad = String(problem.query.dropFirst(problem.position).prefix(problem.length))
        let after = String(problem.query.dropFirst(problem.position + problem.length))
        return "<div class=\"notice error\" role=\"alert\" id=\"search-problem\"><p>This search cannot be read: \(HTML.escape(problem.reason)).</p>"
            + "<p><code>\(HTML.escape(before))<mark>\(HTML.escape(bad.isEmpty ? " " : bad))</mark>\(HTML.escape(after))</code></p></div>"
    }

    func emptyState() -> String {
        if problem != nil { return "" }
        if query.isEmpty {
            return "<div class=\"empty\" role=\"status\"><p class=\"empty-title\">Search your mail</p><p>Type words, \"a phrase\", or operators such as from:alice, has:attachment, after:2024-01-31.</p></div>"
        }
        return "<div class=\"empty\" role=\"status\"><p class=\"empty-title\">No conversations match “\(HTML.escape(query))”.</p><p>Check the spelling, or use fewer words.</p></div>"
    }

    /// The snippet as HTML, matches in `<mark>`, cut to `limit` characters.
    static func marked(_ snippet: SearchSnippet, limit: Int) -> String {
        var budget = limit
        var out = ""
        for segment in snippet.segments where budget > 0 {
            let text = String(segment.text.prefix(budget))
            budget -= text.count
            out += segment.isMatch ? "<mark>\(HTML.escape(text))</mark>" : HTML.escape(text)
        }
        return out
    }
}
