/// What the headers suggest when they do not decide: a likely category and why. The model
/// weighs it; without a model it is the fallback's guess.
public struct CategoryLean: Sendable, Hashable {
    public var category: AICategory
    /// Why, e.g. "it has a List-Unsubscribe header, as bulk mail does".
    public var reason: String

    public init(category: AICategory, reason: String) {
        self.category = category
        self.reason = reason
    }
}
