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

    func render() -> String {
        let current = decision?.category ?? .uncategorized
        var out = "<div class=\"category-bar\" role=\"group\" aria-label=\"Category\">"
        out += "<span class=\"pill category-current\" data-category=\"\(current.rawValue)\">\(HTML.escape(Self.name(current)))</span>"
        out += " <span class=\"category-move\">Move to:"
        for choice in Self.choices where choice != current {
            let value = "categorize:\(choice.rawValue):\(threadId)"
            out += " <button class=\"link-button\" name=\"one\" value=\"\(HTML.escape(value))\" aria-label=\"Move this conversation to \(Self.name(choice))\">\(Self.name(choice))</button>"
        }
        out += "</span>"
        if let decision {
            out += " <details class=\"category-why\"><summary>Why this category?</summary>"
            out += "<p><strong>\(HTML.escape(Self.describe(decision.source))):</strong> \(HTML.escape(decision.reason))</p></details>"
        }
        return out + "</div>"
    }
}
