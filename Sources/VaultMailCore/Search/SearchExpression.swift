/// A parsed query as a tree: terms combined with AND (juxtaposition), OR and NOT (`-`).
public indirect enum SearchExpression: Sendable, Hashable {
    case term(SearchTerm)
    case not(SearchExpression)
    case and([SearchExpression])
    case or([SearchExpression])

    /// Every term in the tree, with whether it is negated (an odd number of NOTs above it).
    public func terms(negated: Bool = false) -> [(term: SearchTerm, negated: Bool)] {
        switch self {
        case .term(let term): [(term, negated)]
        case .not(let inner): inner.terms(negated: !negated)
        case .and(let items), .or(let items): items.flatMap { $0.terms(negated: negated) }
        }
    }
}
