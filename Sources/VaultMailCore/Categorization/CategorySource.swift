/// Who decided an email's category, strongest first: a user's choice is never overwritten by
/// the machine, and what the user taught about a sender outranks every rule.
public enum CategorySource: String, Sendable, Codable, Hashable, CaseIterable {
    /// The user put this conversation in this category.
    case user
    /// The user put other mail from this sender in this category.
    case sender
    /// The message's headers or sender decided (List-Id, a social network's address, …).
    case header
    /// The on-device model decided.
    case model
    /// Nothing decided; read again once a model is installed.
    case fallback

    /// True for decisions the machine may revisit (a model arriving, new evidence).
    public var isMachineDecision: Bool { self == .header || self == .model || self == .fallback }
}
