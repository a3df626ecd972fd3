import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 32's Delta Chat interoperability, through the tool: a Delta Chat account (PyPI's
/// `deltachat-rpc-server`, `DeltaChatPeer`) and a VaultMail account on the same test Dovecot and
/// SMTP server exchange mail. Delta Chat writes first — encrypted, as Delta Chat 2.x only
/// writes, to VaultMail's key given in a vCard — and the Autocrypt header inside its encrypted
/// part teaches VaultMail its key; VaultMail answers encrypted by itself and Delta Chat shows it
/// with the padlock; Delta Chat answers again and VaultMail shows it decrypted with a good signature.
///
/// The SMTP test server keeps what it receives; the test carries each message to its
/// recipients' mailboxes in Dovecot (`relay`), as a real server would deliver it.
@Suite("Delta Chat and VaultMail exchange encrypted mail (issue 32)", .serialized)
struct DeltaChatEndToEndTests {
    static let vaultmailAddress = "ada@vaultmail.test"
    static let deltaUser = "dora"
    static let deltaAddress = "dora@deltachat.test"
    static let deltaPassword = "dora-e2e-password"

    /// The Dovecot user each test address is delivered to.
    static let mailboxes = [vaultmailAddress: EndToEndWorld.user, deltaAddress: deltaUser]

    /// Delivers the SMTP server's messages from `index` on to their recipients' mailboxes once
    /// at least `count` have arrived; returns them.
    static func relay(_ world: EndToEndWorld, from index: Int, count: Int) async throws -> [SMTPTestServer.ReceivedMessage] {
        let all = try await world.smtp.waitForMessages(count: index + count, timeout: .seconds(180))
        let new = Array(all[index...])
        for message in new {
            for recipient in Set(message.recipients.map { $0.lowercased() }) {
                if let user = mailboxes[recipient] { try world.dovecot.deliver(message.raw, to: user) }
            }
        }
        return new
    }

    /// The VaultMail account's messages after a sync, as `show --json` gives them.
    struct Shown: Decodable {
        struct Email: Decodable {
            struct Crypto: Decodable {
                struct Signer: Decodable { var fingerprint: String; var userId: String? }
                var encryption: String
                var signature: String
                var signer: Signer?
                var summary: String
            }
            struct Person: Decodable { var address: String? }
            var id: String
            var messageId: String
            var subject: String
            var bodyPlain: String?
            var crypto: Crypto
        }
        var emails: [Email]
    }

    /// The key of `armored` in binary, base64 (as a vCard's KEY carries it).
    static func binaryKey(_ armored: String, _ world: EndToEndWorld) async throws -> String {
        let home = world.home.appendingPathComponent("dearmor").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let binary = try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(home) + ["--dearmor"], input: Array(armored.utf8))
        return Data(binary).base64EncodedString()
    }

    static func emails(_ world: EndToEndWorld) async throws -> [Shown.Email] {
        var emails: [Shown.Email] = []
        for thread in try await world.inboxThreads() {
            let output = try await world.vaultmail(["show", thread.id, "--json"], errors: false)
            try #require(output.status == 0, "\(output.text)")
            emails += try ToolJSON.decode(Shown.self, from: output.text).emails
        }
        return emails
    }

    @Test("Delta Chat (given VaultMail's key in a vCard) writes first, encrypted; VaultMail decrypts it and learns Delta Chat's key from the Autocrypt header inside; it answers encrypted by itself; Delta Chat shows the answer with its padlock; Delta Chat's encrypted answer is shown decrypted by VaultMail with a good signature")
    func exchangesEncryptedMailBothWays() async throws {
        if let unavailable = DeltaChatPeer.unavailable() { Issue.record(Comment(rawValue: unavailable)); return }
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try world.dovecot.addUser(Self.deltaUser, password: Self.deltaPassword)
            let added = try await world.vaultmail([
                "account", "add", "work", "--email", Self.vaultmailAddress,
                "--imap", "127.0.0.1:\(world.dovecot.imapsPort)", "--smtp", "127.0.0.1:\(world.smtp.tlsPort)", "--security", "tls",
                "--ca-file", world.dovecot.caFile, "--user", EndToEndWorld.user, "--password-command", "echo \(EndToEndWorld.password)",
            ])
            try #require(added.status == 0, "\(added.text)")
            let delta = try DeltaChatPeer(imapPassword: Self.deltaPassword, smtpPassword: EndToEndWorld.password)
            do {
                try await exchange(world, delta)
            } catch {
                let log = delta.log
                await delta.stop()
                throw DeltaChatPeer.Failure(description: "\(error)\n--- Delta Chat's log (end) ---\n\(log.suffix(4000))")
            }
            await delta.stop()
        }
    }

    private func exchange(_ world: EndToEndWorld, _ delta: DeltaChatPeer) async throws {
        var deltaFingerprint = ""
        // Delta Chat logs in to Dovecot as dora and sends through the test SMTP server (its one
        // user), both over implicit TLS with the test's certificate.
        try await delta.command([
            "cmd": "configure", "addr": Self.deltaAddress, "name": "Dora Delta",
            "imapHost": "127.0.0.1", "imapPort": world.dovecot.imapsPort, "imapUser": Self.deltaUser,
            "smtpHost": "127.0.0.1", "smtpPort": world.smtp.tlsPort, "smtpUser": EndToEndWorld.user,
        ])

        // 1. Delta Chat writes first. Delta Chat 2.x sends only encrypted mail, so it is given
        // VaultMail's key the way it shares contacts: a vCard with the key (VaultMail's own
        // `key export`). Its Autocrypt header travels inside the encrypted part.
        let exported = try await world.vaultmail(["key", "export", "work"])
        try #require(exported.status == 0, "\(exported.text)")
        let vcard = ["BEGIN:VCARD", "VERSION:4.0", "EMAIL:\(Self.vaultmailAddress)", "FN:Ada Lovelace",
                     "KEY:data:application/pgp-keys;base64,\(try await Self.binaryKey(exported.text, world))", "END:VCARD", ""].joined(separator: "\r\n")
        try await delta.command(["cmd": "send", "to": Self.vaultmailAddress, "vcard": vcard, "text": "Hello from Delta Chat"])
        var relayed = 0
        let first = try await Self.relay(world, from: relayed, count: 1)
        relayed += first.count
        let firstText = String(decoding: first[0].raw, as: UTF8.self)
        #expect(firstText.contains("multipart/encrypted") && !firstText.contains("Hello from Delta Chat"), "Delta Chat's first message is encrypted")
        let synced = try await world.vaultmail(["sync"])
        try #require(synced.status == 0, "\(synced.text)")
        // Opening it decrypts it, and the Autocrypt header inside teaches VaultMail Delta Chat's key.
        let hello = try #require(try await Self.emails(world).first { $0.bodyPlain?.contains("Hello from Delta Chat") == true },
                                 "VaultMail shows Delta Chat's first message decrypted")
        #expect(hello.crypto.encryption == "decrypted", "\(hello.crypto)")
        let status = try await world.vaultmail(["key", "status", "work"])
        let line = try #require(status.text.split(separator: "\n").first { $0.contains(Self.deltaAddress) },
                                "Delta Chat's key learnt from the header inside its encrypted message: \(status.text)")
        #expect(line.contains("prefer-encrypt mutual") && line.contains("from autocrypt") && line.contains("recommendation encrypt"), "\(line)")
        deltaFingerprint = String(line.split(separator: " ")[1])
        #expect(deltaFingerprint.count == 40, "\(line)")

        // 2. VaultMail answers: encrypted by itself, as Autocrypt recommends.
        let answer = try await world.vaultmail(["send", "--account", "work", "--reply-to", hello.id], input: "Hello Dora, this is encrypted.\n")
        #expect(answer.status == 0 && answer.text.contains("Encrypted and signed."), "\(answer.text)")
        let second = try await Self.relay(world, from: relayed, count: 1)
        relayed += second.count
        let wire = String(decoding: second[0].raw, as: UTF8.self)
        #expect(wire.contains("multipart/encrypted") && !wire.contains("this is encrypted"))
        let received = try await delta.command(["cmd": "wait", "timeout": 150])
        #expect((received["text"] as? String)?.contains("Hello Dora, this is encrypted.") == true, "\(received)")
        #expect(received["showPadlock"] as? Bool == true, "Delta Chat shows VaultMail's answer as encrypted: \(received)")

        // 3. Delta Chat answers in that chat: encrypted to VaultMail's key, signed with its own.
        let chatId = try #require(received["chatId"] as? Int)
        try await delta.command(["cmd": "reply", "chatId": chatId, "text": "Got it, encrypted back."])
        let third = try await Self.relay(world, from: relayed, count: 1)
        relayed += third.count
        let thirdText = String(decoding: third[0].raw, as: UTF8.self)
        #expect(thirdText.contains("multipart/encrypted") && !thirdText.contains("encrypted back"))
        let again = try await world.vaultmail(["sync"])
        try #require(again.status == 0, "\(again.text)")
        let back = try #require(try await Self.emails(world).first { $0.bodyPlain?.contains("Got it, encrypted back.") == true },
                                "VaultMail shows Delta Chat's encrypted answer decrypted")
        #expect(back.crypto.encryption == "decrypted" && back.crypto.signature == "good", "\(back.crypto)")
        #expect(back.crypto.signer?.fingerprint == deltaFingerprint, "signed by the key Delta Chat's header gave: \(back.crypto)")
    }

    @Test("A setup message made by Delta Chat (2.45.0, the last release that makes them) is imported by a VaultMail on the same address with the code Delta Chat gave: VaultMail then has Delta Chat's key, and mail GnuPG encrypts to it opens")
    func importsDeltaChatsSetupMessage() async throws {
        if let unavailable = DeltaChatPeer.unavailable(DeltaChatPeer.setupMessageServer) { Issue.record(Comment(rawValue: unavailable)); return }
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try world.dovecot.addUser(Self.deltaUser, password: Self.deltaPassword)
            // The person reads the same address in Delta Chat and in VaultMail.
            let added = try await world.vaultmail([
                "account", "add", "dora", "--email", Self.deltaAddress,
                "--imap", "127.0.0.1:\(world.dovecot.imapsPort)", "--smtp", "127.0.0.1:\(world.smtp.tlsPort)", "--security", "tls",
                "--ca-file", world.dovecot.caFile, "--user", Self.deltaUser, "--password-command", "echo \(Self.deltaPassword)",
            ])
            try #require(added.status == 0, "\(added.text)")
            let delta = try DeltaChatPeer(imapPassword: Self.deltaPassword, smtpPassword: EndToEndWorld.password, server: DeltaChatPeer.setupMessageServer)
            let code: String
            let deltaKey: String
            do {
                try await delta.command([
                    "cmd": "configure", "addr": Self.deltaAddress, "name": "Dora Delta",
                    "imapHost": "127.0.0.1", "imapPort": world.dovecot.imapsPort, "imapUser": Self.deltaUser,
                    "smtpHost": "127.0.0.1", "smtpPort": world.smtp.tlsPort, "smtpUser": EndToEndWorld.user,
                ])
                code = try #require(try await delta.command(["cmd": "setup_message"])["code"] as? String)
                let keys = delta.directory.appendingPathComponent("keys")
                let files = try #require(try await delta.command(["cmd": "export_keys", "dir": keys.path])["files"] as? [String])
                let publicFile = try #require(files.first { $0.hasPrefix("public") }, "\(files)")
                deltaKey = try String(contentsOf: keys.appendingPathComponent(publicFile), encoding: .utf8)
                let setup = try await Self.relay(world, from: 0, count: 1)
                #expect(String(decoding: setup[0].raw, as: UTF8.self).contains("Autocrypt-Setup-Message: v1"))
            } catch {
                let log = delta.log
                await delta.stop()
                throw DeltaChatPeer.Failure(description: "\(error)\n--- Delta Chat's log (end) ---\n\(log.suffix(4000))")
            }
            await delta.stop()

            let synced = try await world.vaultmail(["sync"])
            try #require(synced.status == 0, "\(synced.text)")
            let id = try #require(try await AutocryptSetupEndToEndTests.emailId(world, subject: "Autocrypt Setup Message"))
            let imported = try await world.vaultmail(["key", "import-setup", id], input: code + "\n")
            try #require(imported.status == 0, "\(imported.text)")
            let home = world.home.appendingPathComponent("gnupg-reader").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { Task { _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "all"], timeout: .seconds(10)) } }
            let fingerprint = try await OpenPGPPeer.fingerprint(of: deltaKey, in: home)
            #expect(imported.text.contains(fingerprint), "VaultMail now uses Delta Chat's key: \(imported.text)")

            // Mail a third party encrypts to that key opens in VaultMail.
            let exported = try await world.vaultmail(["key", "export", "dora"])
            #expect(try await OpenPGPPeer.fingerprint(of: exported.text, in: home) == fingerprint)
            let peer = try await OpenPGPPeer(.gnupg, recipient: exported.text)
            defer { Task { await peer.stop() } }
            let entity = PGPMIMEMessage.entity(text: "For the key Delta Chat made.", protectedSubject: "Keys")
            try world.dovecot.deliver(PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: Self.deltaAddress,
                                                               messageId: "<for-dora@example.org>", armored: try await peer.encrypt(entity, signed: false)),
                                      to: Self.deltaUser)
            let again = try await world.vaultmail(["sync"])
            try #require(again.status == 0, "\(again.text)")
            let opened = try #require(try await Self.emails(world).first { $0.messageId == "<for-dora@example.org>" })
            #expect(opened.crypto.encryption == "decrypted" && opened.bodyPlain?.contains("For the key Delta Chat made.") == true,
                    "\(opened.crypto) \(opened.bodyPlain ?? "nil")")
        }
    }
}
