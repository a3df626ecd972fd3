/// What the server announced in its CAPABILITY response (names upper-cased).
public struct IMAPCapabilities: Sendable, Hashable, CustomStringConvertible {
    /// Every capability, e.g. `IMAP4REV1`, `IDLE`, `AUTH=XOAUTH2`.
    public var names: Set<String>

    public init(_ names: some Sequence<String>) {
        self.names = Set(names.map { $0.uppercased() })
    }

    public func contains(_ name: String) -> Bool { names.contains(name.uppercased()) }

    public var condstore: Bool { contains("CONDSTORE") || contains("QRESYNC") }
    public var qresync: Bool { contains("QRESYNC") }
    public var move: Bool { contains("MOVE") }
    public var idle: Bool { contains("IDLE") }
    public var specialUse: Bool { contains("SPECIAL-USE") }
    /// Gmail's extensions: X-GM-MSGID, X-GM-THRID, X-GM-LABELS.
    public var gmail: Bool { contains("X-GM-EXT-1") }
    public var uidPlus: Bool { contains("UIDPLUS") }
    public var startTLS: Bool { contains("STARTTLS") }
    /// The server refuses LOGIN (typically before STARTTLS).
    public var loginDisabled: Bool { contains("LOGINDISABLED") }

    /// The SASL mechanisms offered (`AUTH=` capabilities), upper-cased: `PLAIN`, `XOAUTH2`.
    public var authMechanisms: Set<String> {
        Set(names.compactMap { $0.hasPrefix("AUTH=") ? String($0.dropFirst(5)) : nil })
    }

    public var description: String { names.sorted().joined(separator: " ") }
}
