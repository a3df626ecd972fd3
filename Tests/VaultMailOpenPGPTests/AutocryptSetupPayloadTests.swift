import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailOpenPGP
import VaultMailTesting

/// Issue 32's Autocrypt Setup Message (Level 1 §4.4) at the engine, against GnuPG as the
/// independent implementation: what VaultMail makes GnuPG opens with the setup code alone, and
/// what GnuPG makes the way Level 1 describes VaultMail imports, replacing the key it had made.
@Suite("Autocrypt Setup Message: the key under a setup code, out and in (issue 32)", .serialized)
struct AutocryptSetupPayloadTests {
    typealias World = GPGMEOpenPGPEngineTests.World

    /// A GnuPG folder of the test's own.
    static func scratch(_ world: World, _ name: String) throws -> String {
        let path = world.directory.deletingLastPathComponent().appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// gpg with the passphrase read from standard input (`input` is the passphrase and a newline).
    static func gpgWithPassphrase(_ home: String, _ arguments: [String], passphrase: String) async throws -> (status: Int32, output: String) {
        let result = try await ProcessCapture.run(
            "/usr/bin/gpg", ["--homedir", home, "--batch", "--no-tty", "--pinentry-mode", "loopback", "--passphrase-fd", "0"] + arguments,
            input: Data((passphrase + "\n").utf8), includeErrors: false, timeout: .seconds(60))
        return (result.status, String(decoding: result.output, as: UTF8.self))
    }

    static func killAgents(_ home: String) async {
        _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "all"], timeout: .seconds(10))
    }

    @Test("VaultMail's payload: GnuPG opens it with the setup code alone (one symmetric AES-256 packet, no public-key packet, integrity-protected) and finds the account's secret key unlocked, armored, with Autocrypt-Prefer-Encrypt: mutual; the armor names numeric9x4 and the code's first two digits; another code does not open it")
    func payloadOpensWithTheCodeInGnuPG() async throws {
        try await World.with { world in
            let key = try await world.engine.accountKey(for: world.account)
            let code = SetupCode.generate()
            #expect(code.secret.revealed.count == 44 && code.secret.revealed.split(separator: "-").map(\.count) == Array(repeating: 4, count: 9))
            let payload = try await world.engine.setupPayload(
                for: world.account, keyHeaders: ["Autocrypt-Prefer-Encrypt: mutual"], setupCode: code.secret,
                armorHeaders: ["Passphrase-Format: numeric9x4", "Passphrase-Begin: \(code.begin)"])
            #expect(payload.hasPrefix("-----BEGIN PGP MESSAGE-----\nPassphrase-Format: numeric9x4\nPassphrase-Begin: \(code.begin)\n"), "\(payload.prefix(120))")
            #expect(!payload.contains(code.secret.revealed))

            let home = try Self.scratch(world, "reader")
            let file = home + "/payload.asc"
            try payload.write(toFile: file, atomically: true, encoding: .utf8)
            let packets = try await Self.gpgWithPassphrase(home, ["--list-packets", file], passphrase: code.secret.revealed)
            #expect(packets.output.contains(":symkey enc packet: version 4, cipher 9 (AES256)") || packets.output.contains(":symkey enc packet: version 4, cipher 9,"),
                    "\(packets.output)")
            #expect(!packets.output.contains(":pubkey enc packet:"), "no public-key recipient: only the code opens it")
            #expect(packets.output.contains(":encrypted data packet:") && packets.output.contains("mdc_method: 2"), "\(packets.output)")

            let opened = try await Self.gpgWithPassphrase(home, ["--decrypt", file], passphrase: code.secret.revealed)
            try #require(opened.status == 0, "GnuPG could not open it with the code")
            #expect(opened.output.hasPrefix("-----BEGIN PGP PRIVATE KEY BLOCK-----\nAutocrypt-Prefer-Encrypt: mutual\n"), "\(opened.output.prefix(80))")

            // The key inside is the account's, unlocked: GnuPG signs with it without a passphrase.
            let other = try Self.scratch(world, "other-app")
            try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--import"], input: Array(opened.output.utf8))
            let secret = try await OpenPGPPeer.text("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--with-colons", "--list-secret-keys"])
            #expect(secret.contains("fpr:::::::::\(key.fingerprint):"), "\(secret)")
            let signature = try await ProcessCapture.run(
                "/usr/bin/gpg", ["--homedir", other, "--batch", "--no-tty", "--pinentry-mode", "error", "--local-user", key.fingerprint, "--detach-sign"],
                input: Data("hello".utf8), includeErrors: false, timeout: .seconds(60))
            #expect(signature.status == 0 && !signature.output.isEmpty, "the key came without a passphrase")

            var wrong = Array(code.secret.revealed)
            wrong[0] = wrong[0] == "1" ? "2" : "1"
            let refused = try await Self.gpgWithPassphrase(try Self.scratch(world, "wrong"), ["--decrypt", file], passphrase: String(wrong))
            #expect(refused.status != 0 && !refused.output.contains("PRIVATE KEY"))
            for folder in [home, other] { await Self.killAgents(folder) }
        }
    }

    @Test("Imported into another VaultMail that had made its own key: a wrong code changes nothing; the right one makes the imported key the account's (it signs, and mail to it opens) while mail to the earlier key still opens; the imported key is locked with the account's passphrase")
    func importReplacesTheKeyMadeOnFirstNeed() async throws {
        try await World.with { first in
            let second = World()
            do {
                let original = try await first.engine.accountKey(for: first.account)
                let code = SetupCode.generate()
                let payload = try await first.engine.setupPayload(for: first.account, keyHeaders: ["Autocrypt-Prefer-Encrypt: mutual"],
                                                                  setupCode: code.secret, armorHeaders: ["Passphrase-Format: numeric9x4"])

                let made = try await second.engine.accountKey(for: second.account)
                #expect(made.fingerprint != original.fingerprint)
                let toEarlier = try await second.peer(.gnupg)
                defer { Task { await toEarlier.stop() } }
                let earlierMail = try await toEarlier.encrypt(Array("to the key made here\n".utf8), signed: false)

                let wrongCode = try SetupCode.typed(String(repeating: "1234", count: 9), format: "numeric9x4")
                await #expect(throws: OpenPGPError.setupCodeRejected) {
                    try await second.engine.importSetupPayload(Array(payload.utf8), setupCode: wrongCode.secret, account: second.account)
                }
                #expect(try await second.engine.accountKey(for: second.account) == made, "a wrong code changes nothing")

                // Typed with spaces and line breaks, as someone copies it.
                let typed = try SetupCode.typed(code.shown.replacingOccurrences(of: "-", with: " "), format: "numeric9x4")
                let imported = try await second.engine.importSetupPayload(Array(payload.utf8), setupCode: typed.secret, account: second.account)
                #expect(imported.fingerprint == original.fingerprint)
                #expect(try await second.engine.accountKey(for: second.account).fingerprint == original.fingerprint)
                #expect(try await second.engine.existingAccountKey(accountId: second.account.id)?.fingerprint == original.fingerprint)

                // Mail to the imported key opens; so does mail to the key made here.
                let toImported = try await second.peer(.sequoia)
                defer { Task { await toImported.stop() } }
                let newMail = try await toImported.encrypt(Array("to the imported key\n".utf8), signed: false)
                #expect(await second.engine.decrypt(Array(newMail.utf8), accountId: second.account.id)
                        == .decrypted(plaintext: Array("to the imported key\n".utf8), signature: .notSigned))
                #expect(await second.engine.decrypt(Array(earlierMail.utf8), accountId: second.account.id)
                        == .decrypted(plaintext: Array("to the key made here\n".utf8), signature: .notSigned))

                // It signs now, and the first VaultMail (which has the same key) checks it as good.
                let signature = try await second.engine.detachedSignature(Array("signed here".utf8), account: second.account)
                let verified = await first.engine.verify(Array("signed here".utf8), signature: signature.armored, accountId: first.account.id)
                guard case .good(let signer) = verified else { Issue.record("not good: \(verified)"); return }
                #expect(signer.fingerprint == original.fingerprint)

                // Locked at rest: without the passphrase GnuPG gives no secret key out.
                await second.engine.close()
                let homes = try FileManager.default.contentsOfDirectory(atPath: second.directory.path).filter { !$0.hasPrefix(".") }
                #expect(homes.count == 1, "the setup message's own keyring folder is gone: \(homes)")
                let home = second.directory.appendingPathComponent(homes[0]).path
                let export = try await ProcessCapture.run("/usr/bin/gpg", ["--homedir", home, "--batch", "--no-tty", "--pinentry-mode", "error",
                                                                          "--armor", "--export-secret-keys", original.fingerprint],
                                                          includeErrors: false, timeout: .seconds(60))
                #expect(export.status != 0 || export.output.isEmpty, "the imported key is locked")
                await Self.killAgents(home)
                #expect(try FileManager.default.contentsOfDirectory(atPath: second.directory.path) == homes, "no folder left behind")
            } catch {
                await second.takeDown()
                throw error
            }
            await second.takeDown()
        }
    }

    @Test("A setup payload GnuPG makes as Level 1 describes (its unlocked key, armored, symmetrically encrypted with a 36-digit code) is imported; mail a third party encrypts to that key then opens")
    func importsWhatGnuPGMakes() async throws {
        try await World.with { world in
            let other = try Self.scratch(world, "gnupg-app")
            let userId = "Ada Elsewhere <ada@localhost>"
            try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--quick-gen-key", userId, "ed25519", "sign,cert", "0"])
            let publicKey = try await OpenPGPPeer.text("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--armor", "--export", "ada@localhost"])
            let fingerprint = try await OpenPGPPeer.fingerprint(of: publicKey, in: other)
            try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--quick-add-key", fingerprint, "cv25519", "encr", "0"])
            let secret = try await OpenPGPPeer.text("/usr/bin/gpg", OpenPGPPeer.gpgBatch(other) + ["--armor", "--export-secret-keys", fingerprint])
            let keyFile = other + "/key.asc"
            try OpenPGPArmor.addingHeaders(["Autocrypt-Prefer-Encrypt: mutual"], to: secret).write(toFile: keyFile, atomically: true, encoding: .utf8)
            let code = SetupCode.generate()
            let made = try await Self.gpgWithPassphrase(other, ["--symmetric", "--armor", "--cipher-algo", "AES128", "--output", "-", keyFile],
                                                        passphrase: code.secret.revealed)
            try #require(made.status == 0)
            let payload = OpenPGPArmor.addingHeaders(["Passphrase-Format: numeric9x4", "Passphrase-Begin: \(code.begin)"], to: made.output)

            let imported = try await world.engine.importSetupPayload(Array(payload.utf8), setupCode: code.secret, account: world.account)
            #expect(imported.fingerprint == fingerprint && imported.userId == userId)
            let peer = try await OpenPGPPeer(.rnp, recipient: try await world.engine.exportPublicKey(for: world.account))
            defer { Task { await peer.stop() } }
            let mail = try await peer.encrypt(Array("for the key from the other app\n".utf8), signed: false)
            #expect(await world.engine.decrypt(Array(mail.utf8), accountId: world.account.id)
                    == .decrypted(plaintext: Array("for the key from the other app\n".utf8), signature: .notSigned))
            await Self.killAgents(other)
        }
    }

    @Test("Setup codes: 36 digits in nine dashed blocks from the random source; typed with spaces, dashes or line breaks they read the same; too few digits or letters are refused with what was wrong")
    func setupCodes() throws {
        let code = SetupCode.generate()
        #expect(code.secret.revealed.wholeMatch(of: /[0-9]{4}(-[0-9]{4}){8}/) != nil)
        #expect(code.shown.split(separator: "\n").count == 3 && code.begin == String(code.secret.revealed.prefix(2)))
        #expect(SetupCode.generate() != code)
        #expect(!"\(code)".contains(code.secret.revealed.prefix(9)))
        let digits = code.secret.revealed.filter(\.isNumber)
        #expect(try SetupCode.typed(" " + digits + "\n", format: nil) == code)
        #expect(try SetupCode.typed(code.shown, format: "numeric9x4") == code)
        #expect(throws: SetupCodeError.wrongLength(35)) { try SetupCode.typed(String(digits.dropLast()), format: "numeric9x4") }
        #expect(throws: SetupCodeError.notDigits) { try SetupCode.typed(digits + "x", format: nil) }
        #expect(throws: SetupCodeError.empty) { try SetupCode.typed("  ", format: nil) }
        #expect(try SetupCode.typed(" correct horse ", format: "other").secret.revealed == "correct horse")
    }
}
