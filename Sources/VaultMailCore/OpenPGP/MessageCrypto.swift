/// A message's OpenPGP state as it was opened (issue 32): whether it was encrypted and could be
/// decrypted, and what its signature says. Every face shows it from here: the tool's one line
/// (`summary`), `show --json` (`EncryptionState.name`, `SignatureState.name`) and the web app's
/// badge (`summary`, `isWarning`).
public struct MessageCrypto: Sendable, Hashable {
    public var encryption: EncryptionState
    public var signature: SignatureState

    public init(encryption: EncryptionState, signature: SignatureState) {
        self.encryption = encryption
        self.signature = signature
    }

    /// Whether the message shows something that must not be taken as fine: its integrity check
    /// failed, its signature does not match, or it could not be decrypted.
    public var isWarning: Bool {
        switch (encryption, signature) {
        case (.integrityFailure, _), (.noKey, _), (.keyUnavailable, _), (_, .bad): true
        default: false
        }
    }

    /// The state in one line, in a person's words ("Encrypted · Signed by Alice <alice@example.org>").
    public var summary: String {
        var parts: [String] = []
        switch encryption {
        case .notEncrypted: break
        case .decrypted: parts.append("Encrypted")
        case .noKey: parts.append("Can't decrypt: no key on this machine for it")
        case .integrityFailure: parts.append("Can't decrypt: the message was changed or damaged on the way, so it is not shown")
        case .keyUnavailable(let reason): parts.append("Can't decrypt now: \(reason)")
        }
        switch signature {
        case .notSigned: break
        case .good(let key): parts.append("Signed by \(key.userId ?? "key \(key.fingerprint)")")
        case .bad: parts.append("Signature not valid — the text may have been changed")
        case .unknownKey(let keyId): parts.append("Signed by an unknown key (\(keyId)): the signature could not be checked")
        }
        return parts.isEmpty ? "Not encrypted, not signed" : parts.joined(separator: " · ")
    }
}
