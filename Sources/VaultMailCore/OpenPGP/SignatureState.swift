/// What a message's OpenPGP signature says (issue 32).
public enum SignatureState: Sendable, Hashable {
    /// No OpenPGP signature.
    case notSigned
    /// The signature is valid and made by this key (the key is in the account's keyring).
    case good(OpenPGPKeyInfo)
    /// The signature does not match the text: the text was changed after it was signed, or the
    /// signature is damaged. `keyId`: the key that claims to have signed it, when known.
    case bad(keyId: String?)
    /// Signed by a key the account's keyring does not have, so it could not be checked.
    case unknownKey(keyId: String)

    /// The JSON name of the state (`vaultmail show --json`).
    public var name: String {
        switch self {
        case .notSigned: "not-signed"
        case .good: "good"
        case .bad: "bad"
        case .unknownKey: "unknown-key"
        }
    }
}
