/// A message flag or keyword. System flags start with a backslash (`\Seen`); anything else is a
/// keyword (`$Forwarded`, `Junk`). Flags compare case-insensitively as IMAP requires.
public struct IMAPFlag: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The flag as the server spells it.
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }

    public static let seen = IMAPFlag("\\Seen")
    public static let answered = IMAPFlag("\\Answered")
    public static let flagged = IMAPFlag("\\Flagged")
    public static let deleted = IMAPFlag("\\Deleted")
    public static let draft = IMAPFlag("\\Draft")
    /// Only ever reported by the server, never stored.
    public static let recent = IMAPFlag("\\Recent")

    public var isSystemFlag: Bool { name.hasPrefix("\\") }

    public static func == (lhs: IMAPFlag, rhs: IMAPFlag) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased()
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name.lowercased()) }

    public var description: String { name }
}
