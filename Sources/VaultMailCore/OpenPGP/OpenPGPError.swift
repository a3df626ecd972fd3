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
    /// The setup code did not open the Autocrypt Setup Message (a wrong code, or a damaged message).
    case setupCodeRejected
    /// The Autocrypt Setup Message opened but holds no usable secret key.
    case noSecretKeyInSetup

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
        case .setupCodeRejected:
            "the setup code does not open this Autocrypt Setup Message; type the 36 digits the other app showed when it made this message (nothing was changed)"
        case .noSecretKeyInSetup:
            "the Autocrypt Setup Message opened but holds no secret key VaultMail can use (nothing was changed)"
        }
    }

    public var plainWords: String {
        switch self {
        case .engineUnavailable: "Encryption isn't available: GnuPG is not installed. Install gpg and gpg-agent."
        case .keyringUnavailable: "Your keyring is locked or not running, so your encryption key can't be used. Unlock it and try again."
        case .failed: "The encryption key operation failed. The details say why."
        case .noKeysFound: "That holds no public key. Give an ASCII-armored public key."
        case .secretKeyGiven: "That is a secret key. Give only the public key."
        case .setupCodeRejected: "That setup code doesn't open this message. Check the 36 digits and try again; nothing was changed."
        case .noSecretKeyInSetup: "This setup message holds no key VaultMail can use. Nothing was changed."
        }
    }
}
