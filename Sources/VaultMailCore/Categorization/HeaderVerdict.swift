/// What the header rules made of an email: a decision, a lean for the model to weigh, or
/// nothing at all.
public enum HeaderVerdict: Sendable, Hashable {
    case decided(CategoryDecision)
    case lean(CategoryLean)
    case undecided

    /// The decision, when the rules decided.
    public var decision: CategoryDecision? {
        if case .decided(let decision) = self { return decision }
        return nil
    }

    /// The lean, when the rules only leaned.
    public var lean: CategoryLean? {
        if case .lean(let lean) = self { return lean }
        return nil
    }
}
