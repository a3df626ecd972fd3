extension SearchExpression {
    /// The query split for a search by meaning: the words and phrases at its top level (what
    /// the user means, embedded as one text) and the rest (operators, negations, alternatives),
    /// which narrows the results exactly. `filter` is nil when nothing narrows them.
    public var meaning: (text: String, filter: SearchExpression?) {
        let items: [SearchExpression] = if case .and(let items) = self { items } else { [self] }
        var words: [String] = []
        var rest: [SearchExpression] = []
        for item in items {
            switch item {
            case .term(.word(let text, _)), .term(.phrase(let text)): words.append(text)
            default: rest.append(item)
            }
        }
        let filter: SearchExpression? = switch rest.count {
        case 0: nil
        case 1: rest[0]
        default: .and(rest)
        }
        return (words.joined(separator: " "), filter)
    }
}
