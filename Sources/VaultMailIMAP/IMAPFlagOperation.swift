/// How UID STORE changes flags.
public enum IMAPFlagOperation: Sendable, Hashable {
    /// `+FLAGS`: add these flags, keep the others.
    case add
    /// `-FLAGS`: remove these flags, keep the others.
    case remove
    /// `FLAGS`: replace all flags with these.
    case replace
}
