/// What the headers suggest when they do not decide: a likely category, why, and which
/// other categories are still possible. The model weighs it and chooses only among those;
/// without a model the lean is the fallback's guess.
public struct CategoryLean: Sendable, Hashable {
    public var category: AICategory
    /// Why, e.g. "it has a List-Unsubscribe header, as newsletters and offers do".
    public var reason: String
    /// The categories the model may choose instead of `category`: a person's mail may be
    /// an offer or a notice but not a social network's notification; bulk mail is not a
    /// person's.
    public var alternatives: Set<AICategory>

    public init(category: AICategory, reason: String, alternatives: Set<AICategory> = Set(AICategory.allCases)) {
        self.category = category
        self.reason = reason
        self.alternatives = alternatives.subtracting([.uncategorized])
    }

    /// The categories the model chooses among.
    public var candidates: Set<AICategory> { alternatives.union([category]) }

    /// What a person's mail may be besides personal. (What bulk mail may be depends on its
    /// headers: `CategorySignals.bulkAlternatives`.)
    public static let personal: Set<AICategory> = [.primary, .promotions, .updates]
}
