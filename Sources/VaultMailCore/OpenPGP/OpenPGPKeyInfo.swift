/// One OpenPGP key as VaultMail shows it: its fingerprint and its first user id.
public struct OpenPGPKeyInfo: Sendable, Hashable, Codable {
    /// The primary key's fingerprint, upper-case hex without spaces (40 digits for v4 keys).
    public var fingerprint: String
    /// The first user id (`Alice <alice@example.org>`), nil when the key has none.
    public var userId: String?

    public init(fingerprint: String, userId: String?) {
        self.fingerprint = fingerprint
        self.userId = userId
    }
}
