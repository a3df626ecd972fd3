/// The application VaultMail signs in as: a client ID registered with the provider by the
/// user or by whoever packaged VaultMail, and the "secret" some providers issue to installed
/// apps (Google does; it protects nothing on a desktop, but is still kept in the keyring).
public struct OAuthClient: Sendable, Hashable, Codable {
    public var id: String
    public var secret: String?

    public init(id: String, secret: String? = nil) {
        self.id = id
        self.secret = secret
    }
}
