import VaultMailCore

/// The conversation's category (AC-A-04): what it is, buttons to move it to another one (the
/// user's correction, which later mail from its senders follows), and "Why this category?"
/// with who decided and why. Its buttons belong to the conversation's form, so they work
/// without JavaScript; with it they are sent as `one=categorize:CATEGORY:THREAD-ID`.
struct CategoryBar {
    var threadId: String
    /// The decision of the conversation's newest email; nil before it is categorized.
    var decision: CategoryDecision?

    static let choices: [AICategory] = [.primary, .social, .promotions, .updates, .forums]

    static func name(_ category: AICategory) -> String {
        category == .uncategorized ? "Not categorized yet" : category.title
    }

    static func describe(_ source: CategorySource) -> String {
        switch source {
        case .user: return "You put this conversation here"
        case .sender: return "You put other mail from this sender here"
        case .header: return "Decided by its headers"
        case .model: return "Decided by the on-device model"
        case .fallback: return "A guess until a model is installed"
        }
    }

    func render() -> Markup {
        struct Choice { var value: String; var name: String }
        struct Why { var source: String; var reason: String }
        struct Model { var current: String; var name: String; var choices: [Choice]; var why: Why? }
        let current = decision?.category ?? .uncategorized
        return Self.template.render(Model(
            current: current.rawValue, name: Self.name(current),
            choices: Self.choices.filter { $0 != current }.map { Choice(value: "categorize:\($0.rawValue):\(threadId)", name: Self.name($0)) },
            why: decision.map { Why(source: Self.describe($0.source), reason: $0.reason) }))
    }

    private static let template = Template("""
        <div class="category-bar" role="group" aria-label="Category">\
        <span class="pill category-current" data-category="{{current}}">{{name}}</span>\
         <span class="category-move">Move to:\
        {{#choices}} <button class="link-button" name="one" value="{{value}}" aria-label="Move this conversation to {{name}}">{{name}}</button>{{/choices}}\
        </span>\
        {{#why}} <details class="category-why"><summary>Why this category?</summary><p><strong>{{source}}:</strong> {{reason}}</p></details>{{/why}}\
        </div>
        """)
}
