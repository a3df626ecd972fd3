import Foundation
import VaultMailCore

/// Another OpenPGP implementation writing mail to a VaultMail account (issue 32): GnuPG
/// (`gpg`), Sequoia (`sq`) or RNP (`rnp`, Thunderbird's engine), each run as the command-line
/// tool its project ships, in a folder of the test's own, with an Ed25519 signing key of its
/// own and no network. `stop()` ends GnuPG's agents and removes the folder.
public final class OpenPGPPeer: @unchecked Sendable {
    // @unchecked Sendable: every property is set in init and never changed.
    public enum Implementation: String, Sendable, CaseIterable, CustomStringConvertible {
        case gnupg, sequoia, rnp
        public var description: String { rawValue }
        /// The sender it writes as.
        public var sender: (name: String, address: String) {
            switch self {
            case .gnupg: ("Alice Gnu", "alice@example.org")
            case .sequoia: ("Bob Sequoia", "bob@example.org")
            case .rnp: ("Carol Rnp", "carol@example.org")
            }
        }
        public var userId: String { "\(sender.name) <\(sender.address)>" }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let implementation: Implementation
    public let directory: URL
    /// The peer's public key, ASCII-armored (what the account imports to check its signatures).
    public let publicKey: String
    /// Its primary key's fingerprint.
    public let fingerprint: String
    /// The recipient key's fingerprint (RNP names the recipient by it).
    private let recipientFingerprint: String

    private var gnupgHome: String { directory.appendingPathComponent("gnupg").path }
    private var rnpHome: String { directory.appendingPathComponent("rnp").path }
    private var sequoiaKey: String { directory.appendingPathComponent("key.pgp").path }
    private var recipientFile: String { directory.appendingPathComponent("recipient.asc").path }

    /// A peer whose messages are encrypted to `recipient` (an armored public key).
    public init(_ implementation: Implementation, recipient: String) async throws {
        self.implementation = implementation
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-peer-\(implementation)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try recipient.write(toFile: directory.appendingPathComponent("recipient.asc").path, atomically: true, encoding: .utf8)
        let home = directory.appendingPathComponent("gnupg").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        switch implementation {
        case .gnupg, .rnp:
            // RNP's key is made by GnuPG and moved into RNP's own keyring: RNP does the writing.
            try await Self.run("/usr/bin/gpg", Self.gpgBatch(home) + ["--quick-gen-key", implementation.userId, "ed25519", "sign,cert", "0"])
            // A Cv25519 subkey, so VaultMail can write to the peer too.
            let primary = try await Self.fingerprint(
                of: try await Self.text("/usr/bin/gpg", Self.gpgBatch(home) + ["--armor", "--export", implementation.sender.address]), in: home)
            try await Self.run("/usr/bin/gpg", Self.gpgBatch(home) + ["--quick-add-key", primary, "cv25519", "encr", "0"])
            publicKey = try await Self.text("/usr/bin/gpg", Self.gpgBatch(home) + ["--armor", "--export", implementation.sender.address])
            if implementation == .rnp {
                let secret = try await Self.text("/usr/bin/gpg", Self.gpgBatch(home) + ["--armor", "--export-secret-keys", implementation.sender.address])
                let file = directory.appendingPathComponent("secret.asc").path
                try secret.write(toFile: file, atomically: true, encoding: .utf8)
                let rnp = directory.appendingPathComponent("rnp").path
                try FileManager.default.createDirectory(atPath: rnp, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try await Self.run("/usr/bin/rnpkeys", ["--homedir", rnp, "--import", file])
                try await Self.run("/usr/bin/rnpkeys", ["--homedir", rnp, "--import", directory.appendingPathComponent("recipient.asc").path])
                try FileManager.default.removeItem(atPath: file)
            } else {
                try await Self.run("/usr/bin/gpg", Self.gpgBatch(home) + ["--import", directory.appendingPathComponent("recipient.asc").path])
            }
        case .sequoia:
            let key = directory.appendingPathComponent("key.pgp").path
            try await Self.run("/usr/bin/sq", ["key", "generate", "--userid", implementation.userId, "--export", key])
            publicKey = try await Self.text("/usr/bin/sq", ["key", "extract-cert", key])
        }
        fingerprint = try await Self.fingerprint(of: publicKey, in: home)
        recipientFingerprint = try await Self.fingerprint(of: recipient, in: home)
    }

    /// Ends GnuPG's agents of the peer's folder and removes it.
    public func stop() async {
        _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", gnupgHome, "--kill", "all"], timeout: .seconds(10))
        try? FileManager.default.removeItem(at: directory)
    }

    /// `data` encrypted to the recipient (and signed by the peer when `signed`), armored.
    public func encrypt(_ data: [UInt8], signed: Bool) async throws -> String {
        switch implementation {
        case .gnupg:
            try await Self.text("/usr/bin/gpg", Self.gpgBatch(gnupgHome) + ["--trust-model", "always", "--armor", "--encrypt",
                                                                          "--recipient-file", recipientFile] + (signed ? ["--sign"] : []), input: data)
        case .sequoia:
            try await Self.text("/usr/bin/sq", ["encrypt", "--recipient-cert", recipientFile] + (signed ? ["--signer-key", sequoiaKey] : []), input: data)
        case .rnp:
            try await Self.text("/usr/bin/rnp", ["--homedir", rnpHome, "--encrypt", "-r", recipientFingerprint]
                                + (signed ? ["--sign", "-u", implementation.sender.address] : [])
                                + ["--armor", "--password", "", "--output", "-"], input: data)
        }
    }

    /// A detached signature over `data`, armored.
    public func detachedSignature(_ data: [UInt8]) async throws -> String {
        switch implementation {
        case .gnupg:
            try await Self.text("/usr/bin/gpg", Self.gpgBatch(gnupgHome) + ["--armor", "--detach-sign"], input: data)
        case .sequoia:
            try await Self.text("/usr/bin/sq", ["sign", "--detached", "--signer-key", sequoiaKey], input: data)
        case .rnp:
            try await Self.text("/usr/bin/rnp", ["--homedir", rnpHome, "--sign", "--detach", "-u", implementation.sender.address,
                                                 "--armor", "--password", "", "--output", "-"], input: data)
        }
    }

    /// `text` cleartext-signed (`-----BEGIN PGP SIGNED MESSAGE-----`).
    public func clearsign(_ text: String) async throws -> String {
        switch implementation {
        case .gnupg:
            try await Self.text("/usr/bin/gpg", Self.gpgBatch(gnupgHome) + ["--clearsign"], input: Array(text.utf8))
        case .sequoia:
            try await Self.text("/usr/bin/sq", ["sign", "--cleartext-signature", "--signer-key", sequoiaKey], input: Array(text.utf8))
        case .rnp:
            try await Self.text("/usr/bin/rnp", ["--homedir", rnpHome, "--clearsign", "-u", implementation.sender.address,
                                                 "--password", "", "--output", "-"], input: Array(text.utf8))
        }
    }

    // MARK: Reading what VaultMail writes

    /// What the peer reads in an OpenPGP message written to it (GnuPG and Sequoia): the
    /// plaintext, and whether it carries a good signature by the correspondent's key (the
    /// `recipient` this peer was made with). Throws when the peer cannot decrypt it.
    public func decrypt(_ message: [UInt8]) async throws -> (plaintext: [UInt8], signedByCorrespondent: Bool) {
        switch implementation {
        case .gnupg:
            let status = directory.appendingPathComponent("status-\(UUID().uuidString.prefix(8))").path
            let plaintext = try await Self.run("/usr/bin/gpg", Self.gpgBatch(gnupgHome) + ["--status-file", status, "--decrypt"], input: message)
            let lines = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
            return (plaintext, lines.contains("[GNUPG:] GOODSIG ") && lines.contains(recipientFingerprint))
        case .sequoia:
            if let verified = try? await Self.run("/usr/bin/sq", ["decrypt", "--recipient-key", sequoiaKey, "--signer-cert", recipientFile], input: message) {
                return (verified, true)
            }
            return (try await Self.run("/usr/bin/sq", ["decrypt", "--recipient-key", sequoiaKey], input: message), false)
        case .rnp:
            throw Failure(description: "reading with RNP is not part of these tests")
        }
    }

    /// Whether `signature` is a good detached signature by the correspondent's key over `content`.
    public func verifies(_ content: [UInt8], signature: [UInt8]) async throws -> Bool {
        let data = directory.appendingPathComponent("signed-\(UUID().uuidString.prefix(8))")
        let detached = directory.appendingPathComponent("signature-\(UUID().uuidString.prefix(8)).asc")
        try Data(content).write(to: data)
        try Data(signature).write(to: detached)
        switch implementation {
        case .gnupg:
            let status = directory.appendingPathComponent("status-\(UUID().uuidString.prefix(8))").path
            guard (try? await Self.run("/usr/bin/gpg", Self.gpgBatch(gnupgHome) + ["--status-file", status, "--verify", detached.path, data.path])) != nil else {
                return false
            }
            let lines = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
            return lines.contains("[GNUPG:] GOODSIG ") && lines.contains(recipientFingerprint)
        case .sequoia:
            return (try? await Self.run("/usr/bin/sq", ["verify", "--signer-cert", recipientFile, "--detached", detached.path, data.path])) != nil
        case .rnp:
            throw Failure(description: "reading with RNP is not part of these tests")
        }
    }

    // MARK: Running the tools

    public static func gpgBatch(_ home: String) -> [String] {
        ["--homedir", home, "--batch", "--quiet", "--no-tty", "--pinentry-mode", "loopback", "--passphrase", ""]
    }

    @discardableResult
    public static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil) async throws -> [UInt8] {
        let result = try await ProcessCapture.run(program, arguments, input: input.map { Data($0) }, includeErrors: false, timeout: .seconds(60))
        guard result.status == 0 else {
            throw Failure(description: "\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed with status \(result.status)")
        }
        return Array(result.output)
    }

    public static func text(_ program: String, _ arguments: [String], input: [UInt8]? = nil) async throws -> String {
        String(decoding: try await run(program, arguments, input: input), as: UTF8.self)
    }

    /// The first key's fingerprint in `armored`, as GnuPG reads it.
    public static func fingerprint(of armored: String, in home: String) async throws -> String {
        let listing = try await text("/usr/bin/gpg", gpgBatch(home) + ["--with-colons", "--show-keys"], input: Array(armored.utf8))
        guard let line = listing.split(separator: "\n").first(where: { $0.hasPrefix("fpr:") }) else {
            throw Failure(description: "gpg read no key in \(armored.prefix(40))")
        }
        return String(line.split(separator: ":", omittingEmptySubsequences: false)[9])
    }

    // MARK: Tampering

    /// The armored OpenPGP message's binary form with one byte near its end changed: inside the
    /// encrypted data, before its integrity tag.
    public static func tampered(_ armored: String) throws -> [UInt8] {
        let lines = armored.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(of: ""), let end = lines.lastIndex(where: { $0.hasPrefix("-----END") }), start < end else {
            throw Failure(description: "not an armored message: \(armored.prefix(40))")
        }
        let base64 = lines[(start + 1)..<end].filter { !$0.hasPrefix("=") }.joined()
        guard var bytes = Data(base64Encoded: base64).map(Array.init), bytes.count > 60 else {
            throw Failure(description: "the armored message's base64 could not be read")
        }
        bytes[bytes.count - 30] ^= 0x40
        return bytes
    }

    /// `bytes` ASCII-armored as a PGP MESSAGE (without the optional checksum line).
    public static func armored(_ bytes: [UInt8]) -> String {
        let base64 = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PGP MESSAGE-----\n\n\(base64)\n-----END PGP MESSAGE-----\n"
    }
}
