/// The application service for an account's OpenPGP keys (issue 32), for every face: the
/// account's own key (made on first need) and its public key for others, and the public keys of
/// others that signatures are checked against.
public struct OpenPGPKeys: Sendable {
    private let engine: any OpenPGPEngine

    public init(engine: any OpenPGPEngine) {
        self.engine = engine
    }

    /// The account's key, made now when it has none.
    public func key(for account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo {
        try await engine.accountKey(for: account)
    }

    /// The account's key, or nil when none was made yet.
    public func existingKey(for account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo? {
        try await engine.existingAccountKey(accountId: account.id)
    }

    /// The account's public key, ASCII-armored, to give to others (the key is made on first need).
    public func exportPublicKey(for account: Account) async throws(OpenPGPError) -> String {
        try await engine.exportPublicKey(for: account)
    }

    /// Adds others' public keys to the account's keyring, so their signatures can be checked.
    public func importPublicKeys(_ keys: [UInt8], for account: Account) async throws(OpenPGPError) -> [OpenPGPKeyInfo] {
        try await engine.importPublicKeys(keys, accountId: account.id)
    }

    /// Stops what the engine started (GnuPG's agent); call when the face is done.
    public func close() async {
        await engine.close()
    }
}
