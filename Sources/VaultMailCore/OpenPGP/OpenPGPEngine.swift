/// The one door to OpenPGP (issue 32): keys, decryption and signature checks, each for one
/// account. Implemented by `GPGMEOpenPGPEngine` (VaultMailOpenPGP) over GnuPG; nothing else in
/// VaultMail does OpenPGP. Each account has a keyring of its own (its key, and the public keys
/// of others it was given); none is ever the user's own `~/.gnupg`.
///
/// Secrets (the secret key, its passphrase, decrypted text) never reach an error, a log or a
/// command line: errors say what failed and what to do, in `OpenPGPError`.
public protocol OpenPGPEngine: Sendable {
    /// The account's own key, made now when it has none (a primary Ed25519 key for signing and
    /// certifying, a Cv25519 subkey for encryption, the user id `Name <address>`, no expiry).
    func accountKey(for account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo

    /// The account's own key, or nil when it has none yet (nothing is made).
    func existingAccountKey(accountId: String) async throws(OpenPGPError) -> OpenPGPKeyInfo?

    /// The account's public key, ASCII-armored (the key is made on first need).
    func exportPublicKey(for account: Account) async throws(OpenPGPError) -> String

    /// Adds the public keys in `keys` (armored or binary) to the account's keyring: the keys
    /// signatures are checked against. Secret keys in `keys` are refused.
    func importPublicKeys(_ keys: [UInt8], accountId: String) async throws(OpenPGPError) -> [OpenPGPKeyInfo]

    /// Decrypts one OpenPGP message (armored or binary) with the account's key and checks the
    /// signature it carries, if any. Never throws: what went wrong is the outcome.
    func decrypt(_ message: [UInt8], accountId: String) async -> OpenPGPDecryption

    /// Checks a detached signature over `content` (the exact bytes that were signed).
    func verify(_ content: [UInt8], signature: [UInt8], accountId: String) async -> SignatureState

    /// Checks a cleartext-signed message (`-----BEGIN PGP SIGNED MESSAGE-----`): the text it
    /// signs (dash-escaping undone), or nil when none could be read, and the signature's state.
    func verifyCleartext(_ message: [UInt8], accountId: String) async -> (text: [UInt8]?, signature: SignatureState)

    // MARK: Writing

    /// The key each of `addresses` would be encrypted to: the newest usable key with an
    /// encryption subkey whose user id names exactly that address, from the account's keyring
    /// (imported, or learnt from Autocrypt). Keyed by the address in lower case; an address
    /// with no such key is absent.
    func encryptionKeys(for addresses: [String], accountId: String) async throws(OpenPGPError) -> [String: OpenPGPKeyInfo]

    /// `content` (a MIME entity) signed with the account's key and encrypted in one OpenPGP
    /// message (RFC 3156 §6.2) to the keys `recipients` (fingerprints) and to the account's own
    /// key, so the sender can read the copy in Sent; ASCII-armored. The key is made on first need.
    func encryptAndSign(_ content: [UInt8], to recipients: [String], account: Account) async throws(OpenPGPError) -> [UInt8]

    /// A detached signature over `content` (the exact bytes of the signed MIME entity) by the
    /// account's key, ASCII-armored (RFC 3156 §5).
    func detachedSignature(_ content: [UInt8], account: Account) async throws(OpenPGPError) -> OpenPGPDetachedSignature

    /// The key `fingerprint` of the account's keyring as Autocrypt's `keydata` carries it:
    /// binary, minimal (the primary key, its user ids, the subkeys and their signatures).
    func keyData(fingerprint: String, accountId: String) async throws(OpenPGPError) -> [UInt8]

    // MARK: Autocrypt Setup Message (Level 1 §4.4)

    /// The account's secret key as an Autocrypt Setup Message carries it: ASCII-armored
    /// without its passphrase (so another app can use it), with `keyHeaders` in its armor
    /// (`Autocrypt-Prefer-Encrypt: mutual`), encrypted symmetrically with `setupCode` alone
    /// (AES-256, iterated and salted S2K; no public-key recipient), ASCII-armored with
    /// `armorHeaders` (`Passphrase-Format`, `Passphrase-Begin`). The key is made on first need.
    /// The key without its passphrase exists only in a keyring folder of its own, removed before
    /// this returns.
    func setupPayload(for account: Account, keyHeaders: [String], setupCode: Secret,
                      armorHeaders: [String]) async throws(OpenPGPError) -> String

    /// Opens `payload` (an armored, symmetrically encrypted message) with `setupCode`, in a
    /// keyring holding no key (so only the code can open it), and makes the secret key inside
    /// the account's key: imported, locked with the account's passphrase from the keyring, and
    /// used from then on to sign and in the Autocrypt header. The account's earlier keys stay
    /// in its keyring, so older mail still decrypts. Throws `.setupCodeRejected` when the code
    /// does not open it and `.noSecretKeyInSetup` when it holds no secret key; then nothing changed.
    func importSetupPayload(_ payload: [UInt8], setupCode: Secret, account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo

    /// Stops what the engine started for its accounts (GnuPG's agent). The engine can be used
    /// again afterwards; it starts them again.
    func close() async
}
