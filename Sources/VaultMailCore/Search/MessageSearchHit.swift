/// A matching message (`--messages`).
public struct MessageSearchHit: Sendable, Hashable {
    public var email: Email
    public var highlight: SearchSnippet?

    public init(email: Email, highlight: SearchSnippet?) {
        self.email = email
        self.highlight = highlight
    }
}
