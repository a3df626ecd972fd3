import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailMIME
import VaultMailOpenPGP
import VaultMailStore
import VaultMailTesting

/// Issue 32's writing: what `ComposeEmailService` sends through `OpenPGPWriting` goes through
/// the real SMTP server (aiosmtpd) and is read by two independent OpenPGP implementations,
/// GnuPG (`gpg`) and Sequoia (`sq`); its copy in Dovecot's Sent is read by the sender.
@Suite("OpenPGP writing: sent through the real SMTP server, read by GnuPG and Sequoia (issue 32)", .serialized)
struct OpenPGPSendingTests {
    /// Real servers, the account's OpenPGP engine (its own GnuPG home, passphrases in memory),
    /// and two correspondents who know its key and whose keys it has: GnuPG's Alice and Sequoia's Bob.
    final class World: @unchecked Sendable {
        // @unchecked Sendable: set in init, never changed.
        let fixture: ServerFixture
        let directory: URL
        let engine: GPGMEOpenPGPEngine
        let database: AppDatabase
        let sending: MailSending
        let gnupg: OpenPGPPeer
        let sequoia: OpenPGPPeer
        let fingerprint: String

        private init(fixture: ServerFixture, directory: URL, engine: GPGMEOpenPGPEngine, gnupg: OpenPGPPeer, sequoia: OpenPGPPeer,
                     fingerprint: String) throws {
            self.fixture = fixture
            self.directory = directory
            self.engine = engine
            self.gnupg = gnupg
            self.sequoia = sequoia
            self.fingerprint = fingerprint
            database = try fixture.openDatabase()
            sending = MailSending(database: database, credentials: FixedCredentialProvider(everyAccount: ServerFixture.password),
                                  undoDelaySeconds: { 0 }, clock: fixture.clock, openPGP: engine)
        }

        static func with(_ body: (World) async throws -> Void) async throws {
            let fixture = try await ServerFixture()
            let directory = fixture.directory.appendingPathComponent("openpgp")
            let engine = GPGMEOpenPGPEngine(directory: directory, passphrases: InMemoryOpenPGPPassphrases())
            var peers: [OpenPGPPeer] = []
            do {
                let key = try await engine.accountKey(for: fixture.account)
                let exported = try await engine.exportPublicKey(for: fixture.account)
                for implementation in [OpenPGPPeer.Implementation.gnupg, .sequoia] {
                    let peer = try await OpenPGPPeer(implementation, recipient: exported)
                    peers.append(peer)
                    _ = try await engine.importPublicKeys(Array(peer.publicKey.utf8), accountId: fixture.account.id)
                }
                let world = try World(fixture: fixture, directory: directory, engine: engine, gnupg: peers[0], sequoia: peers[1],
                                      fingerprint: key.fingerprint)
                try await body(world)
            } catch {
                for peer in peers { await peer.stop() }
                await engine.close()
                throw error
            }
            for peer in peers { await peer.stop() }
            await engine.close()
        }

        /// The primary key's fingerprint in binary key data, as GnuPG (`gpg --show-keys`) and
        /// Sequoia (`sq inspect`) each read it.
        func fingerprints(_ keyData: [UInt8]) async throws -> [String] {
            let home = directory.deletingLastPathComponent().appendingPathComponent("reader").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let listing = try await OpenPGPPeer.text("/usr/bin/gpg", OpenPGPPeer.gpgBatch(home) + ["--with-colons", "--show-keys"], input: keyData)
            let gnupg = listing.split(separator: "\n").first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) }
            let inspected = try await OpenPGPPeer.text("/usr/bin/sq", ["inspect"], input: keyData)
            let sequoia = inspected.split(separator: "\n").first { $0.contains("Fingerprint:") }
                .map { $0.split(separator: ":", maxSplits: 1)[1].filter { !$0.isWhitespace }.uppercased() }
            return [gnupg ?? "gpg read no key", sequoia ?? "sq read no key"]
        }

        var alice: String { "Alice Gnu <\(OpenPGPPeer.Implementation.gnupg.sender.address)>" }
        var bob: String { "Bob Sequoia <\(OpenPGPPeer.Implementation.sequoia.sender.address)>" }
    }

    @Test("Every recipient has a key: encrypted and signed as one PGP/MIME message with the subject hidden; GnuPG and Sequoia each decrypt it, read the real subject as a Protected Header and the sender's good signature; the copy in Sent is readable by the sender")
    func encryptedWhenEveryRecipientHasAKey() async throws {
        try await World.with { world in
            let compose = world.sending.compose
            let body = "The numbers are 42.\nFrom the team, with trailing space \n"
            let id = try await world.fixture.draft(compose, to: [world.alice], cc: [world.bob], subject: "Quarterly numbers", body: body)
            let plan = try #require(await compose.cryptoPlan(
                accountId: world.fixture.account.id, recipients: ["alice@example.org", "bob@example.org"],
                threadId: nil, inReplyTo: nil, choice: .automatic))
            #expect(plan.encrypt && plan.sign && plan.recommended && plan.missingKeys.isEmpty && plan.problem == nil)
            #expect(plan.summary == "Encrypted and signed: only the recipients and you can read it.")

            #expect(try await compose.send(emailId: id) == .sent)
            let received = try await world.fixture.smtp.waitForMessages(count: 1)
            #expect(received.count == 1)
            #expect(Set(received[0].recipients) == ["alice@example.org", "bob@example.org"])
            let raw = Array(received[0].raw)
            let wire = String(decoding: raw, as: UTF8.self)
            #expect(!wire.contains("numbers are 42") && !wire.contains("Quarterly"), "neither the text nor the subject travels in clear")
            #expect(GMimeMessageParser().parse(raw).subject == "...")
            guard case .encrypted(let ciphertext)? = GMimeMessageParser().openPGPPayload(in: raw) else {
                Issue.record("not multipart/encrypted: \(wire.prefix(600))")
                return
            }
            // Autocrypt: the sender's key in the clear headers, read by GnuPG and by Sequoia.
            let autocrypt = try #require(Self.headerValues("Autocrypt", in: raw).first, "no Autocrypt header")
            #expect(autocrypt.hasPrefix("addr=ada@example.com; prefer-encrypt=mutual; keydata="))
            let keydata = try #require(Self.keyData(autocrypt))
            #expect(try await world.fingerprints(keydata) == [world.fingerprint, world.fingerprint])
            for peer in [world.gnupg, world.sequoia] {
                let (plaintext, signed) = try await peer.decrypt(ciphertext)
                #expect(signed, "\(peer.implementation) finds the sender's good signature")
                // Gossip: inside, each recipient's key, so each can answer all encrypted.
                let gossip = Self.headerValues("Autocrypt-Gossip", in: plaintext)
                #expect(gossip.count == 2, "\(peer.implementation)")
                for (address, recipient) in [("alice@example.org", world.gnupg), ("bob@example.org", world.sequoia)] {
                    let value = try #require(gossip.first { $0.hasPrefix("addr=\(address);") }, "no gossip for \(address)")
                    #expect(try await world.fingerprints(try #require(Self.keyData(value))).allSatisfy { $0 == recipient.fingerprint })
                }
                let inner = GMimeMessageParser().parse(plaintext)
                #expect(inner.subject == "Quarterly numbers", "\(peer.implementation) reads the real subject inside")
                #expect(inner.textPlain?.contains("The numbers are 42.") == true, "\(peer.implementation)")
                #expect(String(decoding: plaintext, as: UTF8.self).contains("protected-headers=\"v1\""))
            }

            // The copy in Sent: the same bytes, readable with the account's own key.
            let sent = try await world.fixture.messages(in: "Sent")
            #expect(sent.map(\.rawMessage) == [received[0].raw])
            guard case .encrypted(let stored)? = GMimeMessageParser().openPGPPayload(in: Array(try #require(sent.first?.rawMessage))),
                  case .decrypted(let plaintext, .good(let signer)) = await world.engine.decrypt(stored, accountId: world.fixture.account.id) else {
                Issue.record("the copy in Sent could not be read with the sender's key")
                return
            }
            #expect(signer.fingerprint == world.fingerprint)
            #expect(GMimeMessageParser().parse(plaintext).textPlain?.contains("The numbers are 42.") == true)
        }
    }

    @Test("Signed, not encrypted: multipart/signed that GnuPG and Sequoia verify as the sender's; the same content with one character changed does not verify")
    func signedOnly() async throws {
        try await World.with { world in
            let compose = world.sending.compose
            // Trailing white space and a line starting "From ": quoted-printable, so transport cannot break the signature.
            let id = try await world.fixture.draft(compose, to: [world.alice, world.bob], subject: "Minutes",
                                                   body: "Minutes of the meeting \nFrom now on we meet on Tuesdays.\n")
            #expect(try await compose.send(emailId: id, crypto: CryptoChoice(encrypt: false, sign: true)) == .sent)
            let raw = Array(try await world.fixture.smtp.waitForMessages(count: 1)[0].raw)
            #expect(GMimeMessageParser().parse(raw).subject == "Minutes")
            guard case .signed(let content, let signature)? = GMimeMessageParser().openPGPPayload(in: raw) else {
                Issue.record("not multipart/signed: \(String(decoding: raw.prefix(600), as: UTF8.self))")
                return
            }
            #expect(GMimeMessageParser().parse(content).textPlain?.contains("From now on we meet on Tuesdays.") == true)
            var altered = content
            let index = try #require(altered.lastIndex(of: UInt8(ascii: "T")))
            altered[index] = UInt8(ascii: "W")
            for peer in [world.gnupg, world.sequoia] {
                #expect(try await peer.verifies(content, signature: signature), "\(peer.implementation) verifies it")
                #expect(try await peer.verifies(altered, signature: signature) == false, "\(peer.implementation) refuses the altered text")
            }
        }
    }

    @Test("A recipient without a key: asked to encrypt, it is not sent and the error names that recipient (it stays a draft); left to VaultMail, it goes plain and the plan says who has no key")
    func recipientWithoutAKey() async throws {
        try await World.with { world in
            let compose = world.sending.compose
            let id = try await world.fixture.draft(compose, to: [world.alice, "Nobody <nokey@example.net>"], subject: "Plans", body: "See you.\n")
            await #expect(throws: ComposeError.cannotEncrypt(missingKeys: ["nokey@example.net"])) {
                try await compose.queueForSending(emailId: id, crypto: CryptoChoice(encrypt: true))
            }
            #expect(ComposeError.cannotEncrypt(missingKeys: ["nokey@example.net"]).description.contains("no OpenPGP key for nokey@example.net"))
            #expect(try await GRDBOutboxRepository(database: world.database).entry(emailId: id)?.state == .draft)
            #expect(world.fixture.smtp.messages.isEmpty)

            let plan = try #require(await compose.cryptoPlan(accountId: world.fixture.account.id, recipients: ["alice@example.org", "nokey@example.net"],
                                                             threadId: nil, inReplyTo: nil, choice: .automatic))
            #expect(!plan.encrypt && plan.problem == nil && plan.missingKeys == ["nokey@example.net"])
            #expect(plan.summary == "Not encrypted: no key for nokey@example.net.")
            #expect(try await compose.send(emailId: id) == .sent)
            let raw = Array(try await world.fixture.smtp.waitForMessages(count: 1)[0].raw)
            #expect(GMimeMessageParser().openPGPPayload(in: raw) == nil)
            #expect(GMimeMessageParser().parse(raw).textPlain?.contains("See you.") == true)
            // Plain mail carries the Autocrypt header too, so the recipient can write back encrypted.
            let autocrypt = try #require(Self.headerValues("Autocrypt", in: raw).first, "no Autocrypt header")
            #expect(try await world.fingerprints(try #require(Self.keyData(autocrypt))) == [world.fingerprint, world.fingerprint])
            #expect(Self.headerValues("Autocrypt-Gossip", in: raw).isEmpty, "gossip is never written in clear")
        }
    }

    @Test("An answer to encrypted mail is encrypted; when a recipient of it has no key it is not sent unless encryption is turned off")
    func answerToEncryptedMail() async throws {
        try await World.with { world in
            // The encrypted message answered, as sync stores it: its PGP/MIME parts are attachments.
            let repository = MockEmailRepository()
            var original = MailFixtures.email(accountId: world.fixture.account.id, number: 1, threadId: "thread-enc", from: "alice@example.org")
            original.messageId = "<enc-1@example.org>"
            original.bodyPlain = nil
            _ = try await repository.saveEmails([IncomingEmail(email: original, links: [], attachments: [
                Attachment(emailId: original.id, filename: "", mimeType: "application/pgp-encrypted", sizeBytes: 10, partId: "1"),
                Attachment(emailId: original.id, filename: "encrypted.asc", mimeType: "application/octet-stream", sizeBytes: 900, partId: "2"),
            ])])
            let writing = OpenPGPWriting(engine: world.engine, emails: repository, peers: GRDBAutocryptPeerRepository(database: world.database))
            let account = world.fixture.account.id

            let withKey = await writing.plan(accountId: account, recipients: ["alice@example.org"], threadId: "thread-enc",
                                             inReplyTo: "<enc-1@example.org>", choice: .automatic)
            #expect(withKey.encrypt && withKey.answersEncrypted)
            let withoutKey = await writing.plan(accountId: account, recipients: ["alice@example.org", "nokey@example.net"], threadId: "thread-enc",
                                                inReplyTo: "<enc-1@example.org>", choice: .automatic)
            #expect(!withoutKey.encrypt && withoutKey.answersEncrypted)
            #expect(withoutKey.problem == .cannotEncrypt(missingKeys: ["nokey@example.net"]))
            let turnedOff = await writing.plan(accountId: account, recipients: ["alice@example.org", "nokey@example.net"], threadId: "thread-enc",
                                               inReplyTo: "<enc-1@example.org>", choice: CryptoChoice(encrypt: false))
            #expect(!turnedOff.encrypt && turnedOff.problem == nil)
            // A plain conversation: no key, no problem.
            let plain = await writing.plan(accountId: account, recipients: ["nokey@example.net"], threadId: "thread-enc",
                                           inReplyTo: "<other@example.org>", choice: .automatic)
            #expect(!plain.encrypt && !plain.answersEncrypted && plain.problem == nil)
        }
    }

    /// The values of the header `name` in the header section of `raw` (a message or a MIME
    /// entity), unfolded.
    static func headerValues(_ name: String, in raw: [UInt8]) -> [String] {
        let text = String(decoding: raw, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        let prefix = name.lowercased() + ":"
        return unfolded.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
    }

    /// An Autocrypt header's `keydata`, white space removed, decoded.
    static func keyData(_ value: String) -> [UInt8]? {
        guard let start = value.range(of: "keydata=") else { return nil }
        return Data(base64Encoded: String(value[start.upperBound...].filter { !$0.isWhitespace })).map(Array.init)
    }
}

/// Issue 32: the Autocrypt recommendation deciding *Automatic* in `OpenPGPWriting.plan`, with
/// the real engine and the peer states a store would hold (fixed dates).
@Suite("OpenPGP writing follows Autocrypt's recommendation (issue 32)", .serialized)
struct AutocryptWritingTests {
    /// Peer states as the store would give them.
    struct FixedPeers: AutocryptPeerRepository {
        let states: [AutocryptPeerState]
        func peers(accountId: String, addresses: [String]) async throws -> [String: AutocryptPeerState] {
            Dictionary(uniqueKeysWithValues: states.filter { addresses.map { $0.lowercased() }.contains($0.address) }.map { ($0.address, $0) })
        }
        func allPeers(accountId: String) async throws -> [AutocryptPeerState] { states }
        func receiveGossip(_ headers: [AutocryptHeader], effectiveDate: Date, accountId: String) async throws {}
        func receive(_ receipt: AutocryptReceipt, accountId: String) async throws {}
    }

    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("Automatic: mutual and fresh → encrypted; no preference → plain, 'encryption is possible', Encrypt encrypts; stale (over 35 days) or only gossiped → plain with the doubtful key named; a key given with key import still encrypts; no key → named missing")
    func recommendationDecidesAutomatic() async throws {
        try await OpenPGPSendingTests.World.with { world in
            let account = world.fixture.account.id
            let alice = OpenPGPPeer.Implementation.gnupg.sender.address
            let bob = OpenPGPPeer.Implementation.sequoia.sender.address
            let aliceKey = Array(world.gnupg.publicKey.utf8)  // GnuPG reads armored key data as well as binary
            func plan(_ state: AutocryptPeerState, to recipients: [String] = [alice], choice: CryptoChoice = .automatic) async -> CryptoPlan {
                await OpenPGPWriting(engine: world.engine, emails: MockEmailRepository(), peers: FixedPeers(states: [state]))
                    .plan(accountId: account, recipients: recipients, threadId: nil, inReplyTo: nil, choice: choice)
            }
            let fresh = AutocryptPeerState(address: alice, lastSeen: Self.t0, autocryptTimestamp: Self.t0, publicKey: aliceKey, preferMutual: true)
            let mutual = await plan(fresh)
            #expect(mutual.encrypt && mutual.recommendation == .encrypt)

            var none = fresh
            none.preferMutual = false
            let available = await plan(none)
            #expect(!available.encrypt && available.recommendation == .available && available.summary.contains("encryption is possible"))
            #expect(await plan(none, choice: CryptoChoice(encrypt: true, sign: false)).encrypt)

            var stale = fresh
            stale.lastSeen = Self.t0.addingTimeInterval(36 * 24 * 3600)
            let discouraged = await plan(stale)
            #expect(!discouraged.encrypt && discouraged.recommendation == .discourage && discouraged.doubtfulKeys == [alice])
            #expect(discouraged.summary.contains(alice) && discouraged.summary.contains("may be out of date"))
            let gossiped = await plan(AutocryptPeerState(address: alice, lastSeen: Self.t0, gossipTimestamp: Self.t0, gossipKey: aliceKey))
            #expect(!gossiped.encrypt && gossiped.recommendation == .discourage)

            // Bob's key was given with key import (the world's keyring): encrypt; with Alice mutual, both are.
            let both = await plan(fresh, to: [alice, bob])
            #expect(both.encrypt && both.recommendation == .encrypt)
            let withAvailable = await plan(none, to: [alice, bob])
            #expect(!withAvailable.encrypt && withAvailable.recommendation == .available)
            let missing = await plan(fresh, to: [alice, "carol@example.net"])
            #expect(!missing.encrypt && missing.missingKeys == ["carol@example.net"] && missing.problem == nil)
        }
    }
}
