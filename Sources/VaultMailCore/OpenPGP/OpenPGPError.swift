/// Why an OpenPGP key operation failed, saying what to do. Never carries a secret: no
/// passphrase, no key material, no decrypted text.
public enum OpenPGPError: Error, Sendable, Equatable, CustomStringConvertible, PlainWordsError {
    /// GnuPG could not be started or used (`gpg`, `gpg-agent` missing, or the home not writable).
    case engineUnavailable(String)
    /// The keyring (Secret Service) that keeps the key's passphrase could not be used.
    case keyringUnavailable(String)
    /// GnuPG refused the operation; `operation` names it, `reason` is GnuPG's own words.
    case failed(operation: String, reason: String)
    /// What was given holds no public key.
    case noKeysFound
    /// What was given holds a secret key, which this door does not take.
    case secretKeyGiven

    public var description: String {
        switch self {
        case .engineUnavailable(let reason):
            "OpenPGP is not available: \(reason); install GnuPG (`gpg` and `gpg-agent`, scripts/install-deps.sh)"
        case .keyringUnavailable(let reason):
            "the account's OpenPGP key is protected by a passphrase kept in the keyring, which could not be used: \(reason)"
        case .failed(let operation, let reason):
            "could not \(operation): \(reason)"
        case .noKeysFound:
            "no OpenPGP public key found in what was given; give an ASCII-armored key (-----BEGIN PGP PUBLIC KEY BLOCK-----)"
        case .secretKeyGiven:
            "what was given holds a secret key; give only the public key (`gpg --export --armor ADDRESS`)"
        }
    }

    public var plainWords: String {
        switch self {
        case .engineUnavailable: "Encryption isn't available: GnuPG is not installed. Install gpg and gpg-agent."
        case .keyringUnavailable: "Your keyring is locked or not running, so your encryption key can't be used. Unlock it and try again."
        case .failed: "The encryption key operation failed. The details say why."
        case .noKeysFound: "That holds no public key. Give an ASCII-armored public key."
        case .secretKeyGiven: "That is a secret key. Give only the public key."
        }
    }
}
