import Crypto
import Foundation
import VaultMailCore
internal import CGPGME

/// `OpenPGPEngine` over GnuPG through GPGME (Debian libgpgme11), the only code in VaultMail that
/// calls GPGME (issue 32).
///
/// Each account has its own GnuPG home, `<VaultMail home>/openpgp/<16 hex digits of the
/// account id's SHA-256>` (0700; short, so the agent's socket path fits), never the user's
/// `~/.gnupg`. GPGME starts GnuPG's agent for a home when it is first needed; `close()` stops
/// the agents of every home this engine used. The agent runs with loopback passphrases and
/// no pinentry program it could start, so nothing is ever asked on a screen.
///
/// The account's secret key is protected by a random passphrase (32 bytes, base64) kept in
/// the Secret Service (`OpenPGPPassphraseStore`), fetched only when the secret key is used and
/// handed to the agent through GPGME's passphrase callback.
///
/// Every call runs on the engine's own thread (GPGME's calls wait for GnuPG's processes).
public actor GPGMEOpenPGPEngine: OpenPGPEngine {
    private nonisolated let executor = OwnerThreadExecutor(name: "vaultmail.openpgp")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let directory: URL
    private let passphrases: any OpenPGPPassphraseStore
    /// Homes whose agent may be running.
    private var used: Set<String> = []

    /// - Parameters:
    ///   - directory: where the accounts' GnuPG homes live (`<VaultMail home>/openpgp`).
    ///   - passphrases: the keyring holding each account's key passphrase.
    public init(directory: URL, passphrases: any OpenPGPPassphraseStore) {
        self.directory = directory
        self.passphrases = passphrases
    }

    deinit {
        executor.shutDown()
    }

    // MARK: Keys

    public func accountKey(for account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo {
        if let key = try await existingAccountKey(accountId: account.id) { return key }
        let home = try prepareHome(account.id)
        let passphrase = try await passphraseForNewKey(account)
        let context = try GPGMEContext(home: home, passphrase: passphrase)
        let userId = OpenPGPUserId.make(name: account.displayName ?? account.name, address: account.email)
        try GPGMELibrary.check(gpgme_op_createkey(context.pointer, userId, "ed25519", 0, 0, nil,
                                                  cgpgme_create_sign | cgpgme_create_cert | cgpgme_create_noexpire),
                               "make the account's OpenPGP key")
        guard let fingerprint = gpgme_op_genkey_result(context.pointer)?.pointee.fpr.map({ String(cString: $0) }) else {
            throw .failed(operation: "make the account's OpenPGP key", reason: "GnuPG named no new key")
        }
        let primary = try key(fingerprint, secret: true, in: context)
        defer { gpgme_key_unref(primary) }
        try GPGMELibrary.check(gpgme_op_createsubkey(context.pointer, primary, "cv25519", 0, 0, cgpgme_create_encr | cgpgme_create_noexpire),
                               "add the encryption subkey to the account's OpenPGP key")
        return OpenPGPKeyInfo(fingerprint: fingerprint, userId: userId)
    }

    public func existingAccountKey(accountId: String) async throws(OpenPGPError) -> OpenPGPKeyInfo? {
        guard FileManager.default.fileExists(atPath: home(accountId)) else { return nil }
        let home = try prepareHome(accountId)
        let context = try GPGMEContext(home: home, passphrase: nil)
        let secret = try keys(secretOnly: true, in: context)
        // A key imported from an Autocrypt Setup Message is named in gpg.conf's default-key.
        if let chosen = Self.defaultKey(home: home), let key = secret.first(where: { $0.fingerprint == chosen }) { return key }
        return secret.first
    }

    public func exportPublicKey(for account: Account) async throws(OpenPGPError) -> String {
        let key = try await accountKey(for: account)
        let context = try GPGMEContext(home: try prepareHome(account.id), passphrase: nil)
        let output = try GPGMEData()
        try GPGMELibrary.check(gpgme_op_export(context.pointer, key.fingerprint, gpgme_export_mode_t(cgpgme_export_minimal), output.pointer),
                               "export the account's public key")
        return String(decoding: output.take(), as: UTF8.self)
    }

    public func importPublicKeys(_ keys: [UInt8], accountId: String) async throws(OpenPGPError) -> [OpenPGPKeyInfo] {
        let text = String(decoding: keys.prefix(65_536), as: UTF8.self)
        if text.contains("PRIVATE KEY BLOCK") || keys.first.map(Self.isSecretKeyPacket) == true { throw .secretKeyGiven }
        let context = try GPGMEContext(home: try prepareHome(accountId), passphrase: nil)
        let input = try GPGMEData(copying: keys)
        try GPGMELibrary.check(gpgme_op_import(context.pointer, input.pointer), "add the public key")
        var imported: [OpenPGPKeyInfo] = []
        var status = gpgme_op_import_result(context.pointer)?.pointee.imports
        while let entry = status {
            if let fpr = entry.pointee.fpr.map({ String(cString: $0) }), GPGMELibrary.code(entry.pointee.result) == cgpgme_no_error,
               !imported.contains(where: { $0.fingerprint == fpr }) {
                imported.append(OpenPGPKeyInfo(fingerprint: fpr, userId: (try? signer(of: fpr, in: context))?.userId))
            }
            status = entry.pointee.next
        }
        guard !imported.isEmpty else { throw .noKeysFound }
        return imported
    }

    // MARK: Reading

    public func decrypt(_ message: [UInt8], accountId: String) async -> OpenPGPDecryption {
        do {
            let home = try prepareHome(accountId)
            let hasKey = try hasSecretKey(home)
            let passphrase: Secret?
            do {
                passphrase = hasKey ? try await passphrases.passphrase(accountId: accountId) : nil
            } catch {
                return .failed(.keyUnavailable("the keyring (Secret Service) that keeps your key's passphrase is locked or not running; unlock it and open the message again"))
            }
            let context = try GPGMEContext(home: home, passphrase: passphrase)
            let input = try GPGMEData(copying: message)
            let output = try GPGMEData()
            let error = gpgme_op_decrypt_verify(context.pointer, input.pointer, output.pointer)
            let code = GPGMELibrary.code(error)
            if code != cgpgme_no_error {
                return .failed(failure(code, reason: GPGMELibrary.describe(error), context: context))
            }
            if let result = gpgme_op_decrypt_result(context.pointer), cgpgme_decrypt_legacy_no_mdc(result) != 0 {
                return .failed(.integrityFailure)
            }
            let signature = signatureState(in: context)
            return .decrypted(plaintext: output.take(), signature: signature)
        } catch {
            return .failed(.keyUnavailable(error.plainWords))
        }
    }

    public func verify(_ content: [UInt8], signature: [UInt8], accountId: String) async -> SignatureState {
        do {
            let context = try GPGMEContext(home: try prepareHome(accountId), passphrase: nil)
            let signed = try GPGMEData(copying: content)
            let detached = try GPGMEData(copying: signature)
            let error = gpgme_op_verify(context.pointer, detached.pointer, signed.pointer, nil)
            guard GPGMELibrary.code(error) == cgpgme_no_error else { return .bad(keyId: nil) }
            return signatureState(in: context)
        } catch {
            return .bad(keyId: nil)
        }
    }

    public func verifyCleartext(_ message: [UInt8], accountId: String) async -> (text: [UInt8]?, signature: SignatureState) {
        do {
            let context = try GPGMEContext(home: try prepareHome(accountId), passphrase: nil)
            let input = try GPGMEData(copying: message)
            let output = try GPGMEData()
            let error = gpgme_op_verify(context.pointer, input.pointer, nil, output.pointer)
            guard GPGMELibrary.code(error) == cgpgme_no_error else { return (nil, .bad(keyId: nil)) }
            let state = signatureState(in: context)
            return (output.take(), state)
        } catch {
            return (nil, .bad(keyId: nil))
        }
    }

    // MARK: Writing

    public func encryptionKeys(for addresses: [String], accountId: String) async throws(OpenPGPError) -> [String: OpenPGPKeyInfo] {
        let context = try GPGMEContext(home: try prepareHome(accountId), passphrase: nil)
        var found: [String: OpenPGPKeyInfo] = [:]
        for address in Set(addresses.map { $0.lowercased() }) where !address.isEmpty {
            if let key = try newestEncryptionKey(for: address, in: context) { found[address] = key }
        }
        return found
    }

    public func encryptAndSign(_ content: [UInt8], to recipients: [String], account: Account) async throws(OpenPGPError) -> [UInt8] {
        let own = try await accountKey(for: account)
        let context = try GPGMEContext(home: try prepareHome(account.id), passphrase: try await passphrase(account.id))
        try addSigner(own.fingerprint, in: context)
        var keys: [gpgme_key_t?] = []
        defer { for key in keys { if let key { gpgme_key_unref(key) } } }
        var seen = Set<String>()
        for fingerprint in recipients + [own.fingerprint] where seen.insert(fingerprint.uppercased()).inserted {
            keys.append(try key(fingerprint, secret: false, in: context))
        }
        keys.append(nil)  // GPGME reads the list up to a null key.
        let input = try GPGMEData(copying: content)
        let output = try GPGMEData()
        // Always trust: the keyring holds only keys the user imported or Autocrypt learnt for this
        // account (docs/crypto.md); GnuPG's web of trust is not VaultMail's model.
        let error = keys.withUnsafeMutableBufferPointer { list in
            gpgme_op_encrypt_sign(context.pointer, list.baseAddress, gpgme_encrypt_flags_t(rawValue: cgpgme_encrypt_always_trust),
                                  input.pointer, output.pointer)
        }
        try GPGMELibrary.check(error, "encrypt and sign the message")
        return output.take()
    }

    public func detachedSignature(_ content: [UInt8], account: Account) async throws(OpenPGPError) -> OpenPGPDetachedSignature {
        let own = try await accountKey(for: account)
        let context = try GPGMEContext(home: try prepareHome(account.id), passphrase: try await passphrase(account.id))
        try addSigner(own.fingerprint, in: context)
        let input = try GPGMEData(copying: content)
        let output = try GPGMEData()
        try GPGMELibrary.check(gpgme_op_sign(context.pointer, input.pointer, output.pointer, gpgme_sig_mode_t(rawValue: cgpgme_sig_mode_detach)),
                               "sign the message")
        let algorithm = gpgme_op_sign_result(context.pointer)?.pointee.signatures.flatMap { gpgme_hash_algo_name($0.pointee.hash_algo) }
        let micalg = "pgp-" + (algorithm.map { String(cString: $0) } ?? "SHA256").lowercased()
        return OpenPGPDetachedSignature(armored: output.take(), micalg: micalg)
    }

    public func keyData(fingerprint: String, accountId: String) async throws(OpenPGPError) -> [UInt8] {
        let context = try GPGMEContext(home: try prepareHome(accountId), passphrase: nil)
        gpgme_set_armor(context.pointer, 0)
        let output = try GPGMEData()
        try GPGMELibrary.check(gpgme_op_export(context.pointer, fingerprint, gpgme_export_mode_t(cgpgme_export_minimal), output.pointer),
                               "export key \(fingerprint)")
        let data = output.take()
        guard !data.isEmpty else { throw .failed(operation: "export key \(fingerprint)", reason: "no such key in the account's keyring") }
        return data
    }

    /// The passphrase of the account's key from the keyring, for an operation that uses the secret key.
    private func passphrase(_ accountId: String) async throws(OpenPGPError) -> Secret {
        let found: Secret?
        do {
            found = try await passphrases.passphrase(accountId: accountId)
        } catch {
            throw .keyringUnavailable(PlainWords.detail(error))
        }
        guard let found else { throw .keyringUnavailable("the keyring holds no passphrase for this account's key") }
        return found
    }

    /// Makes the account's key the one `context` signs with.
    private func addSigner(_ fingerprint: String, in context: GPGMEContext) throws(OpenPGPError) {
        let signer = try key(fingerprint, secret: true, in: context)
        defer { gpgme_key_unref(signer) }
        gpgme_signers_clear(context.pointer)
        try GPGMELibrary.check(gpgme_signers_add(context.pointer, signer), "use the account's key to sign")
    }

    /// The newest usable key that can encrypt and has a usable user id of exactly `address`.
    private func newestEncryptionKey(for address: String, in context: GPGMEContext) throws(OpenPGPError) -> OpenPGPKeyInfo? {
        try GPGMELibrary.check(gpgme_op_keylist_start(context.pointer, "<\(address)>", 0), "list the keys of \(address)")
        var best: (info: OpenPGPKeyInfo, created: Int)?
        while true {
            var key: gpgme_key_t?
            let error = gpgme_op_keylist_next(context.pointer, &key)
            guard GPGMELibrary.code(error) == cgpgme_no_error, let key else { break }
            defer { gpgme_key_unref(key) }
            guard cgpgme_key_usable(key) != 0, cgpgme_key_can_encrypt(key) != 0, let fpr = key.pointee.fpr.map({ String(cString: $0) }) else { continue }
            var uid = key.pointee.uids
            var named: String?
            while let entry = uid {
                if cgpgme_user_id_usable(entry) != 0, entry.pointee.email.map({ String(cString: $0).lowercased() }) == address {
                    named = entry.pointee.uid.map { String(cString: $0) }
                    break
                }
                uid = entry.pointee.next
            }
            guard let named else { continue }
            let created = Int(key.pointee.subkeys?.pointee.timestamp ?? 0)
            if best.map({ created > $0.created }) ?? true { best = (OpenPGPKeyInfo(fingerprint: fpr, userId: named), created) }
        }
        _ = gpgme_op_keylist_end(context.pointer)
        return best?.info
    }

    // MARK: Autocrypt Setup Message

    public func setupPayload(for account: Account, keyHeaders: [String], setupCode: Secret,
                             armorHeaders: [String]) async throws(OpenPGPError) -> String {
        let own = try await accountKey(for: account)
        let passphrase = try await passphrase(account.id)
        // GnuPG exports a secret key locked with its passphrase; the copy is unlocked in a
        // keyring folder of its own, exported from there and the folder removed.
        let context = try GPGMEContext(home: try prepareHome(account.id), passphrase: passphrase)
        let locked = try GPGMEData()
        try GPGMELibrary.check(gpgme_op_export(context.pointer, own.fingerprint, gpgme_export_mode_t(cgpgme_export_secret | cgpgme_export_minimal),
                                               locked.pointer), "export the account's secret key")
        let lockedKey = locked.take()
        let scratch = try makeScratchHome()
        do throws(OpenPGPError) {
            let importing = try GPGMEContext(home: scratch, passphrase: passphrase)
            let copy = try GPGMEData(copying: lockedKey)
            let copied = gpgme_op_import(importing.pointer, copy.pointer)
            withExtendedLifetime(copy) {}
            try GPGMELibrary.check(copied, "copy the secret key")
            let unlocking = try GPGMEContext(home: scratch, passphrases: [passphrase, Secret("")])
            let copiedKey = try key(own.fingerprint, secret: true, in: unlocking)
            defer { gpgme_key_unref(copiedKey) }
            try GPGMELibrary.check(gpgme_op_passwd(unlocking.pointer, copiedKey, 0), "take the passphrase off the copy of the key")
            let exporting = try GPGMEContext(home: scratch, passphrase: nil)
            let clear = try GPGMEData()
            try GPGMELibrary.check(gpgme_op_export(exporting.pointer, own.fingerprint, gpgme_export_mode_t(cgpgme_export_secret | cgpgme_export_minimal),
                                                   clear.pointer), "export the copy of the key")
            let armoredKey = String(decoding: clear.take(), as: UTF8.self)
            guard armoredKey.contains("-----BEGIN PGP PRIVATE KEY BLOCK-----") else {
                throw OpenPGPError.failed(operation: "export the account's secret key", reason: "GnuPG gave no secret key")
            }
            let encrypting = try GPGMEContext(home: scratch, passphrase: setupCode)
            try encrypting.forgetSymmetricPassphrases()
            let input = try GPGMEData(copying: Array(OpenPGPArmor.addingHeaders(keyHeaders, to: armoredKey).utf8))
            let output = try GPGMEData()
            try GPGMELibrary.check(gpgme_op_encrypt(encrypting.pointer, nil, gpgme_encrypt_flags_t(rawValue: cgpgme_encrypt_symmetric),
                                                    input.pointer, output.pointer), "encrypt the key with the setup code")
            let payload = OpenPGPArmor.addingHeaders(armorHeaders, to: String(decoding: output.take(), as: UTF8.self))
            await removeScratchHome(scratch)
            return payload
        } catch {
            await removeScratchHome(scratch)
            throw error
        }
    }

    public func importSetupPayload(_ payload: [UInt8], setupCode: Secret, account: Account) async throws(OpenPGPError) -> OpenPGPKeyInfo {
        let passphrase = try await passphraseForNewKey(account)
        // Opened in a keyring holding no key: only the setup code can open it (a message
        // encrypted to the account's public key instead would not open here; dev.gnupg.org/T3277).
        // The key is then locked with the account's passphrase in that folder, so the account's
        // own keyring only ever receives it locked, and a failure on the way leaves it unchanged.
        let scratch = try makeScratchHome()
        let imported: OpenPGPKeyInfo
        let lockedKey: [UInt8]
        do throws(OpenPGPError) {
            let decrypting = try GPGMEContext(home: scratch, passphrase: setupCode)
            try decrypting.forgetSymmetricPassphrases()
            let input = try GPGMEData(copying: payload)
            let output = try GPGMEData()
            let error = gpgme_op_decrypt(decrypting.pointer, input.pointer, output.pointer)
            withExtendedLifetime(input) {}
            guard GPGMELibrary.code(error) == cgpgme_no_error else { throw OpenPGPError.setupCodeRejected }
            // Level 1: the payload begins with the armored secret key; what follows its END line is dropped.
            guard let block = OpenPGPArmor.firstBlock(of: "PGP PRIVATE KEY BLOCK", in: String(decoding: output.take(), as: UTF8.self)) else {
                throw OpenPGPError.noSecretKeyInSetup
            }
            imported = try importSecretKey(Array(block.utf8), into: scratch, passphrase: passphrase)
            let locking = try GPGMEContext(home: scratch, passphrases: [passphrase])
            let key = try key(imported.fingerprint, secret: true, in: locking)
            defer { gpgme_key_unref(key) }
            try GPGMELibrary.check(gpgme_op_passwd(locking.pointer, key, 0), "lock the imported key with the account's passphrase")
            let exporting = try GPGMEContext(home: scratch, passphrase: passphrase)
            let locked = try GPGMEData()
            try GPGMELibrary.check(gpgme_op_export(exporting.pointer, imported.fingerprint, gpgme_export_mode_t(cgpgme_export_secret),
                                                   locked.pointer), "export the locked key")
            lockedKey = locked.take()
            await removeScratchHome(scratch)
        } catch {
            await removeScratchHome(scratch)
            throw error
        }
        let home = try prepareHome(account.id)
        let key = try importSecretKey(lockedKey, into: home, passphrase: passphrase)
        guard key.fingerprint == imported.fingerprint else { throw .noSecretKeyInSetup }
        try Self.setDefaultKey(key.fingerprint, home: home)
        return key
    }

    /// Imports `block` (an armored secret key) into `home`: the secret key it held, or
    /// `.noSecretKeyInSetup`.
    private func importSecretKey(_ block: [UInt8], into home: String, passphrase: Secret) throws(OpenPGPError) -> OpenPGPKeyInfo {
        let importing = try GPGMEContext(home: home, passphrases: [passphrase])
        let data = try GPGMEData(copying: block)
        let importError = gpgme_op_import(importing.pointer, data.pointer)
        withExtendedLifetime(data) {}
        try GPGMELibrary.check(importError, "import the secret key")
        var fingerprints: [String] = []
        var status = gpgme_op_import_result(importing.pointer)?.pointee.imports
        while let entry = status {
            if let fpr = entry.pointee.fpr.map({ String(cString: $0) }), GPGMELibrary.code(entry.pointee.result) == cgpgme_no_error,
               !fingerprints.contains(fpr) {
                fingerprints.append(fpr)
            }
            status = entry.pointee.next
        }
        guard let key = try keys(secretOnly: true, in: importing).first(where: { fingerprints.contains($0.fingerprint) }) else {
            throw .noSecretKeyInSetup
        }
        return key
    }

    /// A keyring folder of its own for one Autocrypt Setup Message (0700, inside the engine's
    /// directory): its agent remembers no passphrase, and symmetric encryption uses AES-256.
    private func makeScratchHome() throws(OpenPGPError) -> String {
        if let error = GPGMELibrary.engineError() { throw error }
        let name = ".s-" + (0..<4).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
        let path = directory.appendingPathComponent(name).path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            try (Self.agentSettings + "default-cache-ttl 0\nmax-cache-ttl 0\n")
                .write(toFile: path + "/gpg-agent.conf", atomically: true, encoding: .utf8)
            try "s2k-cipher-algo AES256\ns2k-digest-algo SHA256\nno-symkey-cache\n".write(toFile: path + "/gpg.conf", atomically: true, encoding: .utf8)
        } catch {
            throw .engineUnavailable("a keyring folder for the setup message could not be made in \(directory.path) (\(error.localizedDescription))")
        }
        return path
    }

    /// Stops the folder's agent and removes it.
    private func removeScratchHome(_ path: String) async {
        _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", path, "--kill", "gpg-agent"], timeout: .seconds(10))
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The key named by `default-key` in the home's gpg.conf.
    private static func defaultKey(home: String) -> String? {
        guard let text = try? String(contentsOfFile: home + "/gpg.conf", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0] == "default-key" ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }.last
    }

    /// Names `fingerprint` the account's key (gpg.conf's `default-key`, which GnuPG itself also reads).
    private static func setDefaultKey(_ fingerprint: String, home: String) throws(OpenPGPError) {
        let path = home + "/gpg.conf"
        let kept = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("default-key ") }.map(String.init)
        let text = (["# The account's key (VaultMail, docs/crypto.md): imported from an Autocrypt Setup Message."].filter { _ in kept.isEmpty }
                    + kept + ["default-key \(fingerprint)"]).joined(separator: "\n") + "\n"
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw .failed(operation: "make the imported key the account's key", reason: error.localizedDescription)
        }
    }

    public func close() async {
        for home in used.sorted() {
            // gpgconf stops the agent GPGME started for this home; it names no secret.
            _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "gpg-agent"], timeout: .seconds(10))
        }
        used.removeAll()
    }

    // MARK: Homes

    /// The account's GnuPG home.
    private nonisolated func home(_ accountId: String) -> String {
        let digest = SHA256.hash(data: Data(accountId.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent(digest).path
    }

    /// The account's GnuPG home, made (0700, with the agent's settings) when missing.
    private func prepareHome(_ accountId: String) throws(OpenPGPError) -> String {
        if let error = GPGMELibrary.engineError() { throw error }
        let path = home(accountId)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            let agent = URL(fileURLWithPath: path).appendingPathComponent("gpg-agent.conf")
            if !FileManager.default.fileExists(atPath: agent.path) {
                try Self.agentSettings.write(to: agent, atomically: true, encoding: .utf8)
            }
        } catch {
            throw .engineUnavailable("the OpenPGP keyring folder \(path) could not be made (\(error.localizedDescription))")
        }
        used.insert(path)
        return path
    }

    /// The agent's settings: passphrases come from VaultMail (loopback), and no pinentry can be
    /// started, so the agent never shows a prompt.
    static let agentSettings = """
        # Written by VaultMail (docs/crypto.md): VaultMail gives the key's passphrase from the
        # Secret Service; GnuPG's agent never asks for one on screen.
        allow-loopback-pinentry
        pinentry-program /bin/false

        """

    /// Whether the home holds a secret key (only then is the keyring asked for the passphrase).
    private func hasSecretKey(_ home: String) throws(OpenPGPError) -> Bool {
        let context = try GPGMEContext(home: home, passphrase: nil)
        return try !keys(secretOnly: true, in: context).isEmpty
    }

    /// The passphrase for a key about to be made: the one already in the keyring, else a new
    /// random one, stored there first (a key is never made with a passphrase that is not kept).
    private func passphraseForNewKey(_ account: Account) async throws(OpenPGPError) -> Secret {
        do {
            if let existing = try await passphrases.passphrase(accountId: account.id) { return existing }
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let passphrase = Secret(Data(bytes).base64EncodedString())
            try await passphrases.storePassphrase(passphrase, accountId: account.id,
                                                  label: "VaultMail OpenPGP key: \(account.name) (\(account.email))")
            return passphrase
        } catch {
            throw .keyringUnavailable(PlainWords.detail(error))
        }
    }

    // MARK: Keys in a context

    private func keys(secretOnly: Bool, in context: GPGMEContext) throws(OpenPGPError) -> [OpenPGPKeyInfo] {
        try GPGMELibrary.check(gpgme_op_keylist_start(context.pointer, nil, secretOnly ? 1 : 0), "list the keys")
        var found: [OpenPGPKeyInfo] = []
        while true {
            var key: gpgme_key_t?
            let error = gpgme_op_keylist_next(context.pointer, &key)
            guard GPGMELibrary.code(error) == cgpgme_no_error, let key else { break }
            defer { gpgme_key_unref(key) }
            if let fpr = key.pointee.fpr.map({ String(cString: $0) }), cgpgme_key_usable(key) != 0 {
                found.append(OpenPGPKeyInfo(fingerprint: fpr, userId: key.pointee.uids?.pointee.uid.map { String(cString: $0) }))
            }
        }
        _ = gpgme_op_keylist_end(context.pointer)
        return found
    }

    /// The key `fingerprint` (a new reference: release with gpgme_key_unref).
    private func key(_ fingerprint: String, secret: Bool, in context: GPGMEContext) throws(OpenPGPError) -> gpgme_key_t {
        var key: gpgme_key_t?
        try GPGMELibrary.check(gpgme_get_key(context.pointer, fingerprint, &key, secret ? 1 : 0), "find key \(fingerprint)")
        guard let key else { throw .failed(operation: "find key \(fingerprint)", reason: "no such key") }
        return key
    }

    /// Key `fingerprint` with its first user id (a subkey's fingerprint finds its key).
    private func signer(of fingerprint: String, in context: GPGMEContext) throws(OpenPGPError) -> OpenPGPKeyInfo {
        let found = try key(fingerprint, secret: false, in: context)
        defer { gpgme_key_unref(found) }
        return OpenPGPKeyInfo(fingerprint: found.pointee.fpr.map { String(cString: $0) } ?? fingerprint,
                              userId: found.pointee.uids?.pointee.uid.map { String(cString: $0) })
    }

    // MARK: Outcomes

    /// The state of the first signature of the last verify in `context`.
    private func signatureState(in context: GPGMEContext) -> SignatureState {
        guard let signature = gpgme_op_verify_result(context.pointer)?.pointee.signatures else { return .notSigned }
        let keyId = signature.pointee.fpr.map { String(cString: $0) }
        let code = GPGMELibrary.code(signature.pointee.status)
        switch code {
        case cgpgme_no_error:
            guard let keyId, cgpgme_signature_wrong_key_usage(signature) == 0,
                  let signer = try? signer(of: keyId, in: context) else { return .bad(keyId: keyId) }
            return .good(signer)
        case cgpgme_no_public_key:
            return .unknownKey(keyId: keyId ?? "unknown")
        default:
            // A bad signature, or one GnuPG could not check (a damaged packet): never good.
            return .bad(keyId: keyId)
        }
    }

    /// Why a decryption failed, as the message's state: a damaged or changed message only when
    /// GnuPG says so of the data; its agent or programs failing (another VaultMail process
    /// stopped the agent mid-way) is "can't decrypt now", never taken for tampering.
    private func failure(_ code: UInt32, reason: String, context: GPGMEContext) -> EncryptionState {
        if code == cgpgme_no_secret_key { return .noKey }
        if code == cgpgme_bad_passphrase || code == cgpgme_canceled {
            return .keyUnavailable("your key's passphrase in the keyring was not accepted; the key and the keyring no longer match")
        }
        // GnuPG says "decryption failed" both for a key it lacks and for a broken message: the
        // recipients tell them apart.
        if let result = gpgme_op_decrypt_result(context.pointer) {
            var recipient = result.pointee.recipients
            var any = false
            var allMissing = true
            while let entry = recipient {
                any = true
                if GPGMELibrary.code(entry.pointee.status) != cgpgme_no_secret_key { allMissing = false }
                recipient = entry.pointee.next
            }
            if any, allMissing { return .noKey }
        }
        guard cgpgme_is_damaged_message(code) != 0 else {
            return .keyUnavailable("GnuPG could not decrypt it just now (\(reason)); open the message again")
        }
        return .integrityFailure
    }

    /// Whether `byte` starts a secret-key packet (tag 5 or 7, old or new format).
    private static func isSecretKeyPacket(_ byte: UInt8) -> Bool {
        guard byte & 0x80 != 0 else { return false }
        let tag = byte & 0x40 != 0 ? byte & 0x3F : (byte >> 2) & 0x0F
        return tag == 5 || tag == 7
    }
}
