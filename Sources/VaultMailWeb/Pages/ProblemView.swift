import VaultMailCore

/// An error as a page shows it (issue 29): what happened and what to do in a person's words,
/// the technical detail (host:port, the server's words) behind a "Details" disclosure. The
/// words come from Core's `PlainWords`, the same the tool prints.
enum ProblemView {
    /// The notice: `<div class="notice error problem" role="alert">`, with `id` when given.
    static func render(_ problem: PlainProblem, id: String? = nil) -> Markup {
        struct Model { var id: String?; var words: String; var detail: Markup }
        return template.render(Model(id: id, words: problem.words, detail: details(problem.detail)))
    }

    /// The disclosure alone (for a notice of its own); nothing when there is no detail.
    static func details(_ detail: String?) -> Markup {
        guard let detail, !detail.isEmpty else { return .empty }
        struct Model { var detail: String }
        return detailsTemplate.render(Model(detail: detail))
    }

    /// Several problems of one form, each its words with its detail on demand; nothing when
    /// there are none.
    static func list(_ problems: [PlainProblem], id: String? = nil) -> Markup {
        guard !problems.isEmpty else { return .empty }
        struct Item { var words: String; var detail: Markup }
        struct Model { var id: String?; var items: [Item] }
        return listTemplate.render(Model(id: id, items: problems.map { Item(words: $0.words, detail: details($0.detail)) }))
    }

    private static let listTemplate = Template("""
        <div class="notice error problem" role="alert"{{#id}} id="{{id}}"{{/id}}><ul>{{#items}}<li>{{words}}{{{detail}}}</li>{{/items}}</ul></div>
        """)

    private static let template = Template("""
        <div class="notice error problem" role="alert"{{#id}} id="{{id}}"{{/id}}><p>{{words}}</p>{{{detail}}}</div>
        """)

    private static let detailsTemplate = Template("""
        <details class="problem-detail"><summary>Details</summary><pre>{{detail}}</pre></details>
        """)
}
