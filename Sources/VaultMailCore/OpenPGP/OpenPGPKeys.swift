/// The application service for an account's OpenPGP keys (issue 32), for every face: the
/// account's own key (made on first need) and its public key for others, and the public keys of
/// others that signatures are checked against, and the correspondents' keys learnt from their
/// mail by Autocrypt.
public struct OpenPGPKeys: Sendable {
    private let engine: any OpenPGPEngine
    private let peers: any AutocryptPeerRepository

    public init(engine: any OpenPGPEngine, peers: any AutocryptPeerRepository) {
        self.engine = engine
        self.peers = peers
    }

    /// One correspondent whose key the account learnt from their mail (Autocrypt).
    public struct KnownPeer: Sendable, Hashable {
        public var state: AutocryptPeerState
        /// The fingerprint of the key used for them (`state.targetKey`), nil when GnuPG cannot read it.
        public var fingerprint: String?
        /// Where that key came from.
        public var source: AutocryptPeerState.Source
        /// What Autocrypt recommends for a message to them alone.
        public var recommendation: AutocryptRecommendation
    }

    /// The correspondents with a key learnt by Autocrypt, by address. Their keys are put in the
    /// account's keyring to read their fingerprints (as sending to them would).
    public func knownPeers(for account: Account) async throws -> [KnownPeer] {
        var known: [KnownPeer] = []
        for state in try await peers.allPeers(accountId: account.id) {
            guard let data = state.targetKey, let source = state.source else { continue }
            let fingerprint = (try? await engine.importPublicKeys(data, accountId: account.id))?.first?.fingerprint
            known.append(KnownPeer(state: state, fingerprint: fingerprint, source: source, recommendation: .of(state)))
        }
        return known
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
