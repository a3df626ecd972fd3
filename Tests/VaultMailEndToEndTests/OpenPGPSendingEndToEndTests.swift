import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 32's writing through the tool: `vaultmail send` encrypts by itself when the recipient's
/// key is known (GnuPG reads what arrived at the SMTP server), and `--encrypt` to someone without
/// a key is refused, naming them, and kept as a draft.
@Suite("vaultmail send with OpenPGP (issue 32)", .serialized)
struct OpenPGPSendingEndToEndTests {
    @Test("send --encrypt to someone without a key: refused naming them, kept as a draft, nothing sent; with the recipient's key imported, send encrypts and signs by itself and GnuPG decrypts it and finds the signature good")
    func sendThroughTheTool() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()

            let refused = try await world.vaultmail(["send", "--account", "work", "--to", "nokey@example.net", "--subject", "Secret", "--encrypt"],
                                                    input: "Hi\n")
            #expect(refused.status != 0 && refused.text.contains("no OpenPGP key for nokey@example.net"), "\(refused.text)")
            #expect(try await world.vaultmail(["drafts"]).text.contains("nokey@example.net"), "kept as a draft")
            #expect(world.smtp.messages.isEmpty, "nothing was sent")

            let exported = try await world.vaultmail(["key", "export", "work"], errors: false)
            try #require(exported.status == 0, "\(exported.text)")
            let alice = try await OpenPGPPeer(.gnupg, recipient: exported.text)
            do {
                let keyFile = alice.directory.appendingPathComponent("alice.asc").path
                try alice.publicKey.write(toFile: keyFile, atomically: true, encoding: .utf8)
                #expect(try await world.vaultmail(["key", "import", "work", keyFile]).status == 0)

                let sent = try await world.vaultmail(["send", "--account", "work", "--to", "Alice Gnu <alice@example.org>", "--subject", "Launch"],
                                                     input: "Go at noon.\n")
                #expect(sent.status == 0 && sent.text.contains("Encrypted and signed."), "\(sent.text)")
                let wire = String(decoding: try await world.smtp.waitForMessages(count: 1)[0].raw, as: UTF8.self)
                #expect(!wire.contains("Go at noon") && wire.contains("multipart/encrypted"))
                let begin = try #require(wire.range(of: "-----BEGIN PGP MESSAGE-----"))
                let end = try #require(wire.range(of: "-----END PGP MESSAGE-----"))
                let (plaintext, signed) = try await alice.decrypt(Array(wire[begin.lowerBound..<end.upperBound].utf8))
                #expect(signed)
                let inner = String(decoding: plaintext, as: UTF8.self)
                #expect(inner.contains("Go at noon.") && inner.contains("Subject: Launch"))
            } catch {
                await alice.stop()
                throw error
            }
            await alice.stop()
        }
    }
}
