/// Whether a message was encrypted, and whether VaultMail could decrypt it (issue 32).
public enum EncryptionState: Sendable, Hashable {
    /// Not an OpenPGP-encrypted message.
    case notEncrypted
    /// Encrypted, and decrypted here with the account's key; the text shown is the decrypted one.
    case decrypted
    /// Encrypted to keys this account does not have on this machine.
    case noKey
    /// The integrity check failed (MDC or AEAD): the ciphertext was changed or damaged. Nothing
    /// of it is shown.
    case integrityFailure
    /// The account's key is here but could not be used now; the reason says why and what to do
    /// (the keyring is locked or not running).
    case keyUnavailable(String)

    /// The JSON name of the state (`vaultmail show --json`).
    public var name: String {
        switch self {
        case .notEncrypted: "not-encrypted"
        case .decrypted: "decrypted"
        case .noKey: "no-key"
        case .integrityFailure: "integrity-failure"
        case .keyUnavailable: "key-unavailable"
        }
    }
}
