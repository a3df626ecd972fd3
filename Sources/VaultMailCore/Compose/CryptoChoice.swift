/// What the person chose about a message's OpenPGP protection (issue 32): the composer's lock
/// and sign switches, the tool's `--encrypt`, `--no-encrypt` and `--sign`.
public struct CryptoChoice: Sendable, Hashable {
    /// nil: as VaultMail recommends (`OpenPGPWriting.plan`); true: encrypted or not sent;
    /// false: not encrypted.
    public var encrypt: Bool?
    /// Sign a message that goes unencrypted too (an encrypted message is always signed).
    public var sign: Bool

    public init(encrypt: Bool? = nil, sign: Bool = false) {
        self.encrypt = encrypt
        self.sign = sign
    }

    /// Encrypted when the recommendation says so; a clear message is not signed.
    public static let automatic = CryptoChoice()
}
