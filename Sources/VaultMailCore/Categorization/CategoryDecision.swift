/// An email's category, who decided it and why, in words a person can read
/// (`vaultmail why-category`, "Why this category?").
public struct CategoryDecision: Sendable, Codable, Hashable {
    public var category: AICategory
    public var source: CategorySource
    /// Why, e.g. "it came through the mailing list <dev.lists.example.org> (List-Id)".
    public var reason: String

    public init(category: AICategory, source: CategorySource, reason: String) {
        self.category = category
        self.source = source
        self.reason = reason
    }
}
