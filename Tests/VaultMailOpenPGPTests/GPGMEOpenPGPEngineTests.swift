import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailOpenPGP
import VaultMailTesting

/// Issue 32's engine against independent implementations: GnuPG, Sequoia and RNP write, our
/// engine (GnuPG through GPGME, in a GnuPG home of the account's own) reads.
@Suite("OpenPGP engine: keys, decryption and signatures against gpg, sq and rnp (issue 32)", .serialized)
struct GPGMEOpenPGPEngineTests {
    /// A VaultMail home's OpenPGP folder, the keyring's passphrases in memory, one account.
    final class World: @unchecked Sendable {
        // @unchecked Sendable: set in init, never changed.
        let directory: URL
        let passphrases = InMemoryOpenPGPPassphrases()
        let engine: GPGMEOpenPGPEngine
        let account = Account(name: "work", email: "ada@localhost", displayName: "Ada Lovelace", imapHost: "127.0.0.1", smtpHost: "127.0.0.1")

        init() {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-openpgp-\(UUID().uuidString.prefix(8))/openpgp")
            engine = GPGMEOpenPGPEngine(directory: directory, passphrases: passphrases)
        }

        static func with(_ body: (World) async throws -> Void) async throws {
            let world = World()
            do { try await body(world) } catch {
                await world.takeDown()
                throw error
            }
            await world.takeDown()
        }

        /// A peer writing to this account's key (made here on first need).
        func peer(_ implementation: OpenPGPPeer.Implementation) async throws -> OpenPGPPeer {
            try await OpenPGPPeer(implementation, recipient: try await engine.exportPublicKey(for: account))
        }

        func takeDown() async {
            await engine.close()
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
        }
    }

    @Test("Key on first need: Ed25519 signing key, Cv25519 encryption subkey, in the account's own GnuPG home, locked by a random passphrase kept in the keyring")
    func keyOnFirstNeed() async throws {
        try await World.with { world in
            #expect(try await world.engine.existingAccountKey(accountId: world.account.id) == nil)
            let key = try await world.engine.accountKey(for: world.account)
            #expect(key.userId == "Ada Lovelace <ada@localhost>")
            #expect(try await world.engine.accountKey(for: world.account) == key, "a second need makes no second key")

            // GnuPG reads the exported key: an EdDSA primary key on Ed25519 and an ECDH subkey on Cv25519.
            let exported = try await world.engine.exportPublicKey(for: world.account)
            #expect(exported.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
            let scratch = world.directory.deletingLastPathComponent().appendingPathComponent("reader").path
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let listing = try await OpenPGPPeer.text("/usr/bin/gpg", OpenPGPPeer.gpgBatch(scratch) + ["--with-colons", "--show-keys"],
                                                     input: Array(exported.utf8))
            let keys = listing.split(separator: "\n").filter { $0.hasPrefix("pub:") || $0.hasPrefix("sub:") }
                .map { $0.split(separator: ":", omittingEmptySubsequences: false) }
            #expect(keys.map { "\($0[0]):\($0[3]):\($0[16])" } == ["pub:22:ed25519", "sub:18:cv25519"], "\(listing)")
            #expect(!exported.contains("PRIVATE"))

            // The passphrase is in the keyring, 32 random bytes; the secret key cannot be used without it.
            let passphrase = try #require(await world.passphrases.passphrases[world.account.id])
            #expect(Data(base64Encoded: passphrase)?.count == 32)
            let homes = try FileManager.default.contentsOfDirectory(atPath: world.directory.path)
            #expect(homes.count == 1 && homes[0].count == 16, "\(homes)")
            let home = world.directory.appendingPathComponent(homes[0]).path
            await world.engine.close()
            let withoutPassphrase = try await ProcessCapture.run(
                "/usr/bin/gpg", OpenPGPPeer.gpgBatch(home) + ["--armor", "--export-secret-keys", key.fingerprint], includeErrors: false)
            #expect(withoutPassphrase.status != 0 && withoutPassphrase.output.isEmpty, "the secret key left GnuPG without its passphrase")
            _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "all"])
            #expect(try String(contentsOfFile: home + "/gpg-agent.conf", encoding: .utf8).contains("pinentry-program /bin/false"))
        }
    }

    @Test("Mail encrypted and signed by each implementation is decrypted; its signature is an unknown key until the sender's key is imported, then good with its user id",
          arguments: OpenPGPPeer.Implementation.allCases)
    func decryptsEachPeer(_ implementation: OpenPGPPeer.Implementation) async throws {
        try await World.with { world in
            let peer = try await world.peer(implementation)
            defer { Task { await peer.stop() } }
            let text = "Meet at noon — \(implementation)\n"
            let armored = try await peer.encrypt(Array(text.utf8), signed: true)

            let before = await world.engine.decrypt(Array(armored.utf8), accountId: world.account.id)
            guard case .decrypted(let plaintext, let signature) = before else { Issue.record("not decrypted: \(before)"); return }
            #expect(String(decoding: plaintext, as: UTF8.self) == text)
            guard case .unknownKey = signature else { Issue.record("expected an unknown key, got \(signature)"); return }

            let imported = try await world.engine.importPublicKeys(Array(peer.publicKey.utf8), accountId: world.account.id)
            #expect(imported.map(\.fingerprint) == [peer.fingerprint])
            let after = await world.engine.decrypt(Array(armored.utf8), accountId: world.account.id)
            #expect(after == .decrypted(plaintext: Array(text.utf8), signature: .good(OpenPGPKeyInfo(fingerprint: peer.fingerprint, userId: implementation.userId))))

            let unsigned = try await peer.encrypt(Array("not signed\n".utf8), signed: false)
            #expect(await world.engine.decrypt(Array(unsigned.utf8), accountId: world.account.id)
                == .decrypted(plaintext: Array("not signed\n".utf8), signature: .notSigned))
        }
    }

    @Test("Tampered ciphertext is an integrity failure and gives no text; a message to another key is 'no key'")
    func tamperedAndForeign() async throws {
        try await World.with { world in
            let peer = try await world.peer(.gnupg)
            defer { Task { await peer.stop() } }
            let armored = try await peer.encrypt(Array(String(repeating: "The quarterly figures. ", count: 40).utf8), signed: false)
            let tampered = try OpenPGPPeer.tampered(armored)
            #expect(await world.engine.decrypt(tampered, accountId: world.account.id) == .failed(.integrityFailure))

            let stranger = Account(name: "other", email: "other@localhost", imapHost: "127.0.0.1", smtpHost: "127.0.0.1")
            _ = try await world.engine.accountKey(for: stranger)
            #expect(await world.engine.decrypt(Array(armored.utf8), accountId: stranger.id) == .failed(.noKey))
        }
    }

    @Test("A locked keyring: the message says the key can't be used now, and the text is not shown")
    func lockedKeyring() async throws {
        try await World.with { world in
            let peer = try await world.peer(.sequoia)
            defer { Task { await peer.stop() } }
            let armored = try await peer.encrypt(Array("hello\n".utf8), signed: false)
            await world.engine.close() // the agent forgets the passphrase it was given
            await world.passphrases.setFailing(true)
            let outcome = await world.engine.decrypt(Array(armored.utf8), accountId: world.account.id)
            guard case .failed(.keyUnavailable(let reason)) = outcome else { Issue.record("got \(outcome)"); return }
            #expect(reason.contains("keyring"))
        }
    }

    @Test("A detached signature over changed text is bad; cleartext-signed text is good once the key is known, unknown before, bad when altered",
          arguments: OpenPGPPeer.Implementation.allCases)
    func signatures(_ implementation: OpenPGPPeer.Implementation) async throws {
        try await World.with { world in
            let peer = try await world.peer(implementation)
            defer { Task { await peer.stop() } }
            let content = Array("Content-Type: text/plain\r\n\r\nPay 10 EUR\r\n".utf8)
            let signature = Array(try await peer.detachedSignature(content).utf8)
            let clear = try await peer.clearsign("Pay 10 EUR\n")
            if case .unknownKey = await world.engine.verify(content, signature: signature, accountId: world.account.id) {} else {
                Issue.record("a signature by a key not imported is not 'unknown key'")
            }
            let unknown = await world.engine.verifyCleartext(Array(clear.utf8), accountId: world.account.id)
            if case .unknownKey = unknown.signature {} else { Issue.record("cleartext: \(unknown.signature)") }

            _ = try await world.engine.importPublicKeys(Array(peer.publicKey.utf8), accountId: world.account.id)
            let signer = OpenPGPKeyInfo(fingerprint: peer.fingerprint, userId: implementation.userId)
            #expect(await world.engine.verify(content, signature: signature, accountId: world.account.id) == .good(signer))
            let changed = Array("Content-Type: text/plain\r\n\r\nPay 90 EUR\r\n".utf8)
            if case .bad = await world.engine.verify(changed, signature: signature, accountId: world.account.id) {} else {
                Issue.record("a signature over changed text is not bad")
            }
            let good = await world.engine.verifyCleartext(Array(clear.utf8), accountId: world.account.id)
            #expect(good.signature == .good(signer))
            #expect(good.text.map { String(decoding: $0, as: UTF8.self) }?.contains("Pay 10 EUR") == true)
            let altered = await world.engine.verifyCleartext(Array(clear.replacingOccurrences(of: "Pay 10", with: "Pay 90").utf8),
                                                             accountId: world.account.id)
            if case .bad = altered.signature {} else { Issue.record("altered cleartext: \(altered.signature)") }
        }
    }
}

/// Issue 32's reading of a stored message as it is opened: `OpenPGPReading` over the real
/// engine, GMime and the message's source.
@Suite("OpenPGP reading of a stored message (issue 32)", .serialized)
struct OpenPGPReadingTests {
    @Test("Signed, then encrypted (RFC 3156 §6.1): the multipart/signed inside is verified, its text shown with the protected subject; the ciphertext parts are not files")
    func signedThenEncrypted() async throws {
        try await GPGMEOpenPGPEngineTests.World.with { world in
            let peer = try await world.peer(.gnupg)
            defer { Task { await peer.stop() } }
            _ = try await world.engine.importPublicKeys(Array(peer.publicKey.utf8), accountId: world.account.id)
            let inner = PGPMIMEMessage.entity(text: "Signed inside, encrypted outside.", protectedSubject: "Inner subject")
            let signed = PGPMIMEMessage.signed(from: OpenPGPPeer.Implementation.gnupg.userId, to: "ada@localhost", subject: "Inner subject",
                                               messageId: "<inner@example.org>", entity: inner, signature: try await peer.detachedSignature(inner))
            let raw = PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: "ada@localhost", messageId: "<outer@example.org>",
                                               armored: try await peer.encrypt(Array(signed), signed: false))
            var email = MailFixtures.email(accountId: world.account.id, number: 1, subject: "...")
            email.hasAttachments = true
            let sources = InMemoryMessageSources()
            await sources.store(Array(raw), emailId: email.id)
            let reading = OpenPGPReading(engine: world.engine, sources: sources, parser: GMimeMessageParser(), structure: GMimeMessageParser())

            let (shown, crypto) = try #require(await reading.read(email))
            #expect(crypto.state == MessageCrypto(encryption: .decrypted, signature: .good(OpenPGPKeyInfo(fingerprint: peer.fingerprint,
                                                                                                          userId: OpenPGPPeer.Implementation.gnupg.userId))))
            #expect(shown.subject == "Inner subject")
            #expect(shown.bodyPlain?.contains("Signed inside, encrypted outside.") == true, "\(shown.bodyPlain ?? "nil")")
            let stored = [Attachment(emailId: email.id, filename: "", mimeType: "application/pgp-encrypted", sizeBytes: 10, partId: "1"),
                          Attachment(emailId: email.id, filename: "encrypted.asc", mimeType: "application/octet-stream", sizeBytes: 900, partId: "2")]
            #expect(crypto.listed(stored).isEmpty)

            // A plain message is not looked at.
            var plain = MailFixtures.email(accountId: world.account.id, number: 2)
            plain.hasAttachments = false
            #expect(await reading.read(plain) == nil)
        }
    }

    /// Keeps what `OpenPGPReading` hands over, to look at.
    actor GossipRecorder: AutocryptPeerRepository {
        var received: [(headers: [AutocryptHeader], date: Date, accountId: String)] = []
        func peers(accountId: String, addresses: [String]) async throws -> [String: AutocryptPeerState] { [:] }
        func allPeers(accountId: String) async throws -> [AutocryptPeerState] { [] }
        func receiveGossip(_ headers: [AutocryptHeader], effectiveDate: Date, accountId: String) async throws {
            received.append((headers, effectiveDate, accountId))
        }
        var receipts: [(receipt: AutocryptReceipt, accountId: String)] = []
        func receive(_ receipt: AutocryptReceipt, accountId: String) async throws {
            receipts.append((receipt, accountId))
        }
    }

    @Test("Autocrypt key gossip inside decrypted mail is handed to the peer store: only for the message's To and Cc recipients, dated by its effective date")
    func gossipFromDecryptedMail() async throws {
        try await GPGMEOpenPGPEngineTests.World.with { world in
            let peer = try await world.peer(.gnupg)
            defer { Task { await peer.stop() } }
            let key = Data([0x98, 0x33, 0x04, 0x01]).base64EncodedString()
            let entity = Array(([
                "Content-Type: text/plain; charset=utf-8; protected-headers=\"v1\"", "Subject: Team",
                "Autocrypt-Gossip: addr=bob@example.org; keydata=\(key)",
                "Autocrypt-Gossip: addr=mallory@example.org; keydata=\(key)", "", "Hello team.", "",
            ].joined(separator: "\r\n")).utf8)
            let raw = PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: "ada@localhost, bob@example.org",
                                               messageId: "<gossip@example.org>", armored: try await peer.encrypt(entity, signed: false))
            let sent = Date(timeIntervalSince1970: 1_790_000_000)
            var email = MailFixtures.email(accountId: world.account.id, number: 1, subject: "...")
            email.hasAttachments = true
            email.toAddresses = [Participant(email: "ada@localhost"), Participant(email: "Bob@example.org")]
            email.dateSent = sent
            email.dateReceived = sent.addingTimeInterval(60)
            let sources = InMemoryMessageSources()
            await sources.store(Array(raw), emailId: email.id)
            let recorder = GossipRecorder()
            let reading = OpenPGPReading(engine: world.engine, sources: sources, parser: GMimeMessageParser(), structure: GMimeMessageParser(),
                                         peers: recorder)

            let (shown, crypto) = try #require(await reading.read(email))
            #expect(crypto.state.encryption == .decrypted && shown.subject == "Team")
            let received = await recorder.received
            try #require(received.count == 1)
            #expect(received[0].headers == [AutocryptHeader(address: "bob@example.org", preferMutual: false, keyData: [0x98, 0x33, 0x04, 0x01])])
            #expect(received[0].date == sent && received[0].accountId == world.account.id)
        }
    }

    @Test("An Autocrypt header inside the encrypted part (as Delta Chat sends it) is read like one in clear: the sender's key and prefer-encrypt reach the peer state, dated by the message; one whose addr is not the sender's changes nothing")
    func autocryptHeaderInsideEncryptedPart() async throws {
        try await GPGMEOpenPGPEngineTests.World.with { world in
            let peer = try await world.peer(.gnupg)
            defer { Task { await peer.stop() } }
            let dearmor = peer.directory.appendingPathComponent("dearmor").path
            try FileManager.default.createDirectory(atPath: dearmor, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let keyData = try await OpenPGPPeer.run("/usr/bin/gpg", OpenPGPPeer.gpgBatch(dearmor) + ["--dearmor"], input: Array(peer.publicKey.utf8))
            let folded = Data(keyData).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
                .replacingOccurrences(of: "\r\n", with: "\r\n ")
            let sender = OpenPGPPeer.Implementation.gnupg.sender.address
            func read(autocryptAddress: String, number: Int) async throws -> (AutocryptPeerState?, GossipRecorder) {
                // Delta Chat's layout: a multipart/mixed whose own headers carry Autocrypt (none in clear).
                let entity = Array(([
                    "Content-Type: multipart/mixed; boundary=\"inner\"; protected-headers=\"v1\"",
                    "Subject: Hi from the chat", "Autocrypt: addr=\(autocryptAddress); prefer-encrypt=mutual; keydata=\r\n \(folded)",
                    "", "--inner", "Content-Type: text/plain; charset=utf-8", "", "Hello from the chat.", "--inner--", "",
                ].joined(separator: "\r\n")).utf8)
                let raw = PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: "ada@localhost",
                                                   messageId: "<inner-ac-\(number)@example.org>", armored: try await peer.encrypt(entity, signed: true))
                #expect(!String(decoding: raw, as: UTF8.self).contains("Autocrypt:"), "the header is inside only")
                let sent = Date(timeIntervalSince1970: 1_790_000_000)
                var email = MailFixtures.email(accountId: world.account.id, number: number, subject: "...")
                email.hasAttachments = true
                email.fromAddress = sender
                email.dateSent = sent
                email.dateReceived = sent.addingTimeInterval(60)
                let sources = InMemoryMessageSources()
                await sources.store(Array(raw), emailId: email.id)
                let recorder = GossipRecorder()
                let reading = OpenPGPReading(engine: world.engine, sources: sources, parser: GMimeMessageParser(), structure: GMimeMessageParser(),
                                             peers: recorder)
                let (shown, crypto) = try #require(await reading.read(email))
                #expect(crypto.state.encryption == .decrypted && shown.bodyPlain?.contains("Hello from the chat.") == true)
                let receipts = await recorder.receipts
                try #require(receipts.count == 1)
                #expect(receipts[0].accountId == world.account.id && receipts[0].receipt.from == sender)
                #expect(receipts[0].receipt.effectiveDate == sent)
                return (AutocryptPeerState.receiving(receipts[0].receipt, into: nil), recorder)
            }

            let (learnt, _) = try await read(autocryptAddress: sender, number: 1)
            let state = try #require(learnt)
            #expect(state.publicKey == keyData && state.preferMutual && state.autocryptTimestamp == Date(timeIntervalSince1970: 1_790_000_000))

            let (other, _) = try await read(autocryptAddress: "mallory@example.org", number: 2)
            #expect(other?.publicKey == nil && other?.autocryptTimestamp == nil, "a header for another address is not the sender's key")
        }
    }
}
