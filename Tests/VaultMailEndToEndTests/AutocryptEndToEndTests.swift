import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 32's Autocrypt from incoming mail, through the tool: a correspondent's `Autocrypt:`
/// header (their key made and exported by GnuPG or Sequoia) is learnt when `vaultmail sync`
/// stores the message, `vaultmail key status` lists it, and `vaultmail send` to them follows
/// the recommendation: encrypted by itself when they prefer `mutual` (GnuPG decrypts it), plain
/// with encryption said to be possible when they state no preference.
@Suite("Autocrypt peers from synced mail (issue 32)", .serialized)
struct AutocryptEndToEndTests {
    /// A plain message from `peer` carrying its `Autocrypt:` header, dated at a fixed time.
    static func message(from peer: OpenPGPPeer, mutual: Bool, messageId: String) async throws -> Data {
        let home = peer.directory.appendingPathComponent("dearmor").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let binary = try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(home) + ["--dearmor"], input: Array(peer.publicKey.utf8))
        let base64 = Data(binary).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let keydata = base64.replacingOccurrences(of: "\r\n", with: "\r\n ")
        let sender = peer.implementation.sender
        let headers = [
            "From: \(peer.implementation.userId)", "To: Ada <\(EndToEndWorld.address)>", "Subject: Hello from \(peer.implementation)",
            "Date: Sat, 28 Nov 2026 09:00:00 +0000", "Message-ID: \(messageId)", "MIME-Version: 1.0",
            "Autocrypt: addr=\(sender.address);\(mutual ? " prefer-encrypt=mutual;" : "") keydata=\r\n \(keydata)",
            "Content-Type: text/plain; charset=utf-8",
        ]
        return Data((headers.joined(separator: "\r\n") + "\r\n\r\nHi, here is my key.\r\n").utf8)
    }

    @Test("A key made by GnuPG (prefer-encrypt=mutual) and one made by Sequoia (no preference) arrive in Autocrypt headers and are synced: key status lists both; send to the mutual one is encrypted by itself and GnuPG decrypts it, send to the other stays plain and says encryption is possible")
    func learnsPeersFromSyncedMail() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()
            let exported = try await world.vaultmail(["key", "export", "work"], errors: false)
            try #require(exported.status == 0, "\(exported.text)")
            let gnupg = try await OpenPGPPeer(.gnupg, recipient: exported.text)
            let sequoia: OpenPGPPeer
            do { sequoia = try await OpenPGPPeer(.sequoia, recipient: exported.text) } catch { await gnupg.stop(); throw error }
            do {
                try world.deliver(try await Self.message(from: gnupg, mutual: true, messageId: "<ac-gnupg@example.org>"))
                try world.deliver(try await Self.message(from: sequoia, mutual: false, messageId: "<ac-sequoia@example.org>"))
                let synced = try await world.vaultmail(["sync"])
                try #require(synced.status == 0, "\(synced.text)")

                let status = try await world.vaultmail(["key", "status", "work"])
                let lines = status.text.split(separator: "\n").map(String.init)
                let gnupgLine = try #require(lines.first { $0.contains(gnupg.implementation.sender.address) }, "\(status.text)")
                #expect(gnupgLine.contains(gnupg.fingerprint) && gnupgLine.contains("prefer-encrypt mutual")
                        && gnupgLine.contains("from autocrypt") && gnupgLine.contains("recommendation encrypt"), "\(gnupgLine)")
                let sequoiaLine = try #require(lines.first { $0.contains(sequoia.implementation.sender.address) }, "\(status.text)")
                #expect(sequoiaLine.contains(sequoia.fingerprint) && sequoiaLine.contains("prefer-encrypt nopreference")
                        && sequoiaLine.contains("recommendation available"), "\(sequoiaLine)")

                let sent = try await world.vaultmail(["send", "--account", "work", "--to", gnupg.implementation.userId, "--subject", "Launch"],
                                                     input: "Go at noon.\n")
                #expect(sent.status == 0 && sent.text.contains("Encrypted and signed."), "\(sent.text)")
                let wire = String(decoding: try await world.smtp.waitForMessages(count: 1)[0].raw, as: UTF8.self)
                #expect(!wire.contains("Go at noon") && wire.contains("multipart/encrypted"))
                let begin = try #require(wire.range(of: "-----BEGIN PGP MESSAGE-----"))
                let end = try #require(wire.range(of: "-----END PGP MESSAGE-----"))
                let (plaintext, signed) = try await gnupg.decrypt(Array(wire[begin.lowerBound..<end.upperBound].utf8))
                #expect(signed)
                #expect(String(decoding: plaintext, as: UTF8.self).contains("Go at noon."))

                let plain = try await world.vaultmail(["send", "--account", "work", "--to", sequoia.implementation.sender.address,
                                                       "--subject", "Lunch"], input: "Noon?\n")
                #expect(plain.status == 0 && plain.text.contains("encryption is possible") && !plain.text.contains("Encrypted and signed."),
                        "\(plain.text)")
                let second = String(decoding: try await world.smtp.waitForMessages(count: 2)[1].raw, as: UTF8.self)
                #expect(second.contains("Noon?") && !second.contains("multipart/encrypted"))
            } catch {
                await gnupg.stop()
                await sequoia.stop()
                throw error
            }
            await gnupg.stop()
            await sequoia.stop()
        }
    }
}
