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
        var url = "/mail/search?q=\(WebForm.escape(query))"
        if byMeaning ?? self.byMeaning { url += "&meaning=1" }
        if let thread { url += "&t=\(WebForm.escape(thread))" }
        return url
    }

    /// The switch between results by words and by meaning, in the place of the category tabs.
    func modeSwitch() -> Markup {
        guard !query.isEmpty else { return .empty }
        struct Link { var url: String; var current: Bool; var label: String }
        struct Model { var links: [Link] }
        return Self.modeTemplate.render(Model(links: [
            Link(url: url(byMeaning: false), current: !byMeaning, label: "By words"),
            Link(url: url(byMeaning: true), current: byMeaning, label: "By meaning"),
        ]))
    }

    private static let modeTemplate = Template("""
        <nav class="tabs" id="search-mode" aria-label="Search mode"><ul>\
        {{#links}}<li><a href="{{url}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/links}}\
        </ul></nav>
        """)

    func problemNotice() -> Markup {
        guard let problem else { return .empty }
        struct Model { var words: String; var before: String; var bad: String; var after: String }
        let bad = String(problem.query.dropFirst(problem.position).prefix(problem.length))
        return Self.problemTemplate.render(Model(
            words: problem.plainWords, before: String(problem.query.prefix(problem.position)), bad: bad.isEmpty ? " " : bad,
            after: String(problem.query.dropFirst(problem.position + problem.length))))
    }

    private static let problemTemplate = Template("""
        <div class="notice error" role="alert" id="search-problem"><p>{{words}}</p>\
        <p><code>{{before}}<mark>{{bad}}</mark>{{after}}</code></p></div>
        """)

    func emptyState() -> Markup {
        if problem != nil { return .empty }
        struct Model { var query: String; var asked: Bool }
        return Self.emptyTemplate.render(Model(query: query, asked: !query.isEmpty))
    }

    private static let emptyTemplate = Template("""
        {{^asked}}<div class="empty" role="status"><p class="empty-title">Search your mail</p><p>Type words, "a phrase", or operators such as from:alice, has:attachment, after:2024-01-31.</p></div>{{/asked}}\
        {{#asked}}<div class="empty" role="status"><p class="empty-title">No conversations match “{{query}}”.</p><p>Check the spelling, or use fewer words.</p></div>{{/asked}}
        """)

    /// The snippet with its matches in `<mark>`, cut to `limit` characters.
    static func marked(_ snippet: SearchSnippet, limit: Int) -> Markup {
        struct Segment { var text: String; var match: Bool }
        struct Model { var segments: [Segment] }
        var budget = limit
        var segments: [Segment] = []
        for segment in snippet.segments where budget > 0 {
            let text = String(segment.text.prefix(budget))
            budget -= text.count
            segments.append(Segment(text: text, match: segment.isMatch))
        }
        return markedTemplate.render(Model(segments: segments))
    }

    private static let markedTemplate = Template("""
        {{#segments}}{{#match}}<mark>{{text}}</mark>{{/match}}{{^match}}{{text}}{{/match}}{{/segments}}
        """)
}
