/// The outcome of decrypting one OpenPGP message (`OpenPGPEngine.decrypt`).
public enum OpenPGPDecryption: Sendable, Hashable {
    /// Decrypted, with its integrity check passed. `plaintext` stays in memory: it is never
    /// written to the store or a log.
    case decrypted(plaintext: [UInt8], signature: SignatureState)
    /// Not decrypted; `state` says why (never `.notEncrypted` or `.decrypted`).
    case failed(EncryptionState)
}
