import Foundation

/// Autocrypt Level 1's UI recommendation for a message (§2.4), ordered from least to most
/// encouraging: what the composer's *Automatic* does and says. Issue 32.
public enum AutocryptRecommendation: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// No key: it cannot be encrypted.
    case disable
    /// A key, but doubtful (not confirmed by the peer's own header for over 35 days since last
    /// seen, or only gossiped): possible, off unless chosen, with a word of caution.
    case discourage
    /// A key: possible, off unless chosen.
    case available
    /// Encrypted by default: both sides prefer it (`mutual`), or it answers encrypted mail.
    case encrypt

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .disable: "disable"
        case .discourage: "discourage"
        case .available: "available"
        case .encrypt: "encrypt"
        }
    }

    /// How long a peer's own header stays fresh, counted back from when they were last seen.
    public static let staleAfter: TimeInterval = 35 * 24 * 60 * 60

    /// The recommendation for one recipient (§2.4.1, §2.4.2). `ownMutual`: this account
    /// prefers `mutual` (VaultMail's accounts always do); `repliesToEncrypted`: the message
    /// answers encrypted mail.
    public static func of(_ state: AutocryptPeerState?, ownMutual: Bool = true, repliesToEncrypted: Bool = false) -> Self {
        guard let state, state.targetKey != nil else { return .disable }
        let preliminary: Self
        if let stamp = state.autocryptTimestamp, state.publicKey != nil {
            preliminary = stamp < state.lastSeen.addingTimeInterval(-staleAfter) ? .discourage : .available
        } else {
            preliminary = .discourage  // only gossiped
        }
        if repliesToEncrypted { return .encrypt }
        if preliminary == .available, state.preferMutual, ownMutual { return .encrypt }
        return preliminary
    }

    /// The recommendation for a message to several recipients (§2.4.3): disable when any is,
    /// encrypt when all are, else discourage when any is, else available.
    public static func combined(_ each: [Self]) -> Self {
        guard let lowest = each.min() else { return .disable }
        return lowest
    }
}
