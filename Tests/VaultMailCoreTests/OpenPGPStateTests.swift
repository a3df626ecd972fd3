import Testing
import VaultMailCore

/// Issue 32: inline PGP found in text, and a message's OpenPGP state in the words every face shows.
@Suite("OpenPGP: inline blocks and the state's words (issue 32)")
struct OpenPGPStateTests {
    @Test("Inline PGP: the first armored block at the start of a line, with the text around it kept")
    func inlineBlocks() throws {
        let text = "Hi Ada,\n-----BEGIN PGP MESSAGE-----\n\nhQEMA\n-----END PGP MESSAGE-----\nBye\n"
        let found = try #require(InlineOpenPGP.find(in: text))
        #expect(found.kind == .message)
        #expect(found.before == "Hi Ada,\n" && found.after == "\nBye\n")
        #expect(found.replacingBlock(with: "secret") == "Hi Ada,\nsecret\nBye\n")

        let signed = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nPay 10\n-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n"
        #expect(InlineOpenPGP.find(in: signed)?.kind == .cleartextSigned)
        #expect(InlineOpenPGP.find(in: "quoted: -----BEGIN PGP MESSAGE----- in a sentence -----END PGP MESSAGE-----") == nil,
                "a marker inside a line is not armor")
        #expect(InlineOpenPGP.find(in: "-----BEGIN PGP MESSAGE-----\nno end") == nil)
    }

    @Test("The state's words: fine states are plain, anything not to be trusted is a warning")
    func words() {
        let alice = OpenPGPKeyInfo(fingerprint: "AB12", userId: "Alice <alice@example.org>")
        let fine = MessageCrypto(encryption: .decrypted, signature: .good(alice))
        #expect(fine.summary == "Encrypted · Signed by Alice <alice@example.org>" && !fine.isWarning)
        #expect(MessageCrypto(encryption: .notEncrypted, signature: .unknownKey(keyId: "CD34")).summary
            == "Signed by an unknown key (CD34): the signature could not be checked")
        let bad = MessageCrypto(encryption: .notEncrypted, signature: .bad(keyId: "AB12"))
        #expect(bad.summary == "Signature not valid — the text may have been changed" && bad.isWarning)
        #expect(MessageCrypto(encryption: .noKey, signature: .notSigned).summary == "Can't decrypt: no key on this machine for it")
        for state in [EncryptionState.noKey, .integrityFailure, .keyUnavailable("locked")] {
            #expect(MessageCrypto(encryption: state, signature: .notSigned).isWarning, "\(state)")
        }
        #expect(EncryptionState.integrityFailure.name == "integrity-failure" && SignatureState.unknownKey(keyId: "x").name == "unknown-key")
    }
}
