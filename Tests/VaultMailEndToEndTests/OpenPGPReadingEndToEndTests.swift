import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 32's reading, end to end: GnuPG, Sequoia and RNP write PGP/MIME and inline mail to the
/// account's key (made and exported by `vaultmail key export`), Dovecot delivers it, `vaultmail
/// sync` stores it, and `vaultmail show --json` says what each message is: decrypted text and
/// the real subject, the signer, and tampered or altered mail never reported as fine.
@Suite("OpenPGP mail from gpg, sq and rnp read through the tool after a sync (issue 32)", .serialized)
struct OpenPGPReadingEndToEndTests {
    struct Shown: Decodable {
        struct Email: Decodable {
            struct Crypto: Decodable, Equatable {
                struct Signer: Decodable, Equatable { var fingerprint: String; var userId: String? }
                var encryption: String
                var signature: String
                var signer: Signer?
                var signatureKeyId: String?
                var summary: String
            }
            struct File: Decodable { var filename: String }
            var messageId: String
            var subject: String
            var bodyPlain: String?
            var attachments: [File]
            var crypto: Crypto
        }
        var emails: [Email]
    }

    /// What one message must show.
    struct Expected {
        var subject: String
        var encryption: String
        var signature: String
        var signer: String?
        /// Text the body holds; nil: the body must be empty (nothing could be decrypted).
        var text: String?
    }

    @Test("PGP/MIME and inline mail, encrypted, signed and both, from GnuPG, Sequoia and RNP: decrypted, real subject, signer named; tampered ciphertext, altered signed text and an unknown signer said so")
    func readsWhatPeersWrite() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()
            let exported = try await world.vaultmail(["key", "export", "work"], errors: false)
            try #require(exported.status == 0 && exported.text.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"), "\(exported.text)")
            let to = "Ada <\(EndToEndWorld.address)>"
            var expected: [String: Expected] = [:]
            var peers: [OpenPGPPeer] = []
            defer { let all = peers; Task { for peer in all { await peer.stop() } } }

            for implementation in OpenPGPPeer.Implementation.allCases {
                let peer = try await OpenPGPPeer(implementation, recipient: exported.text)
                peers.append(peer)
                let keyFile = peer.directory.appendingPathComponent("sender.asc").path
                try peer.publicKey.write(toFile: keyFile, atomically: true, encoding: .utf8)
                let imported = try await world.vaultmail(["key", "import", "work", keyFile])
                try #require(imported.status == 0 && imported.text.contains(peer.fingerprint), "\(imported.text)")
                let from = implementation.userId
                let signer = implementation.userId

                // PGP/MIME, signed and encrypted in one OpenPGP message, the subject protected.
                let both = "<both-\(implementation)@example.org>"
                let entity = PGPMIMEMessage.entity(text: "The launch code is 0000 (\(implementation)).", protectedSubject: "Launch plans from \(implementation)")
                try world.deliver(PGPMIMEMessage.encrypted(from: from, to: to, messageId: both, armored: try await peer.encrypt(entity, signed: true)))
                expected[both] = Expected(subject: "Launch plans from \(implementation)", encryption: "decrypted", signature: "good", signer: signer,
                                          text: "The launch code is 0000 (\(implementation)).")

                // PGP/MIME encrypted, not signed.
                let encrypted = "<enc-\(implementation)@example.org>"
                try world.deliver(PGPMIMEMessage.encrypted(from: from, to: to, messageId: encrypted,
                                                           armored: try await peer.encrypt(PGPMIMEMessage.entity(text: "Only encrypted (\(implementation))."), signed: false)))
                expected[encrypted] = Expected(subject: "...", encryption: "decrypted", signature: "not-signed", signer: nil, text: "Only encrypted (\(implementation)).")

                // PGP/MIME signed.
                let signed = "<sig-\(implementation)@example.org>"
                let signedEntity = PGPMIMEMessage.entity(text: "Signed minutes (\(implementation)).")
                try world.deliver(PGPMIMEMessage.signed(from: from, to: to, subject: "Minutes by \(implementation)", messageId: signed, entity: signedEntity,
                                                        signature: try await peer.detachedSignature(signedEntity)))
                expected[signed] = Expected(subject: "Minutes by \(implementation)", encryption: "not-encrypted", signature: "good", signer: signer,
                                            text: "Signed minutes (\(implementation)).")

                // Inline PGP: an encrypted and signed block, and a cleartext-signed one.
                let inline = "<inline-\(implementation)@example.org>"
                try world.deliver(PGPMIMEMessage.inline(from: from, to: to, subject: "Inline from \(implementation)", messageId: inline,
                                                        text: try await peer.encrypt(Array("Inline secret (\(implementation)).\n".utf8), signed: true)))
                expected[inline] = Expected(subject: "Inline from \(implementation)", encryption: "decrypted", signature: "good", signer: signer,
                                            text: "Inline secret (\(implementation)).")
                let clear = "<clear-\(implementation)@example.org>"
                try world.deliver(PGPMIMEMessage.inline(from: from, to: to, subject: "Clear from \(implementation)", messageId: clear,
                                                        text: try await peer.clearsign("Clearly signed (\(implementation)).\n")))
                expected[clear] = Expected(subject: "Clear from \(implementation)", encryption: "not-encrypted", signature: "good", signer: signer,
                                           text: "Clearly signed (\(implementation)).")
            }

            // Tampered ciphertext: nothing shown, said so.
            let gnupg = peers[0]
            let tampered = "<tampered@example.org>"
            let ciphertext = try await gnupg.encrypt(PGPMIMEMessage.entity(text: String(repeating: "Transfer 100 EUR. ", count: 30)), signed: true)
            try world.deliver(PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: to, messageId: tampered,
                                                       armored: OpenPGPPeer.armored(try OpenPGPPeer.tampered(ciphertext))))
            expected[tampered] = Expected(subject: "...", encryption: "integrity-failure", signature: "not-signed", signer: nil, text: nil)

            // Signed text changed after signing: bad, never good.
            let altered = "<altered@example.org>"
            let original = PGPMIMEMessage.entity(text: "Transfer 100 EUR to Alice.")
            let signature = try await gnupg.detachedSignature(original)
            try world.deliver(PGPMIMEMessage.signed(from: OpenPGPPeer.Implementation.gnupg.userId, to: to, subject: "Transfer", messageId: altered,
                                                    entity: PGPMIMEMessage.entity(text: "Transfer 900 EUR to Mallory."), signature: signature))
            expected[altered] = Expected(subject: "Transfer", encryption: "not-encrypted", signature: "bad", signer: nil, text: "Transfer 900 EUR to Mallory.")

            // A signer whose key the account does not have: unknown, with its key named.
            let stranger = try await OpenPGPPeer(.gnupg, recipient: exported.text)
            peers.append(stranger)
            let unknown = "<unknown@example.org>"
            try world.deliver(PGPMIMEMessage.encrypted(from: "Stranger <alice@example.org>", to: to, messageId: unknown,
                                                       armored: try await stranger.encrypt(PGPMIMEMessage.entity(text: "Who am I?"), signed: true)))
            expected[unknown] = Expected(subject: "...", encryption: "decrypted", signature: "unknown-key", signer: nil, text: "Who am I?")

            let synced = try await world.vaultmail(["sync"])
            try #require(synced.status == 0, "\(synced.text)")
            var shown: [String: Shown.Email] = [:]
            for thread in try await world.inboxThreads() {
                let output = try await world.vaultmail(["show", thread.id, "--json"], errors: false)
                try #require(output.status == 0, "\(output.text)")
                for email in try ToolJSON.decode(Shown.self, from: output.text).emails { shown[email.messageId] = email }
            }
            #expect(Set(shown.keys) == Set(expected.keys))
            for (messageId, want) in expected.sorted(by: { $0.key < $1.key }) {
                guard let email = shown[messageId] else { continue }
                #expect(email.subject == want.subject, "\(messageId)")
                #expect(email.crypto.encryption == want.encryption, "\(messageId): \(email.crypto)")
                #expect(email.crypto.signature == want.signature, "\(messageId): \(email.crypto)")
                #expect(email.crypto.signer?.userId == want.signer, "\(messageId): \(email.crypto)")
                if let text = want.text {
                    #expect(email.bodyPlain?.contains(text) == true, "\(messageId): \(email.bodyPlain ?? "nil")")
                } else {
                    #expect(email.bodyPlain == nil, "\(messageId) shows text it could not decrypt: \(email.bodyPlain ?? "")")
                }
                #expect(!email.attachments.contains { $0.filename == "encrypted.asc" || $0.filename == "signature.asc" }, "\(messageId)")
            }
            #expect(shown[unknown]?.crypto.signatureKeyId?.isEmpty == false)
            #expect(shown[altered]?.crypto.summary == "Signature not valid — the text may have been changed")

            // The tool stopped the GnuPG agent it started for the account's home.
            try await world.eventually("no GnuPG agent left running for the account", timeout: .seconds(15)) {
                Self.processes(mentioning: world.home.path + "/openpgp").isEmpty
            }

            // The text view says the state in one line.
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Minutes by gnupg" })
            let text = try await world.vaultmail(["show", thread.id])
            #expect(text.text.contains("OpenPGP: Signed by Alice Gnu <alice@example.org>"), "\(text.text)")
        }
    }

    @Test("The web reading pane: a decrypted message shows its real subject and \"Encrypted · Signed by …\"; altered signed text an alert; both accessible, light, dark and narrow")
    func readingPaneBadges() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()
            let exported = try await world.vaultmail(["key", "export", "work"], errors: false)
            try #require(exported.status == 0, "\(exported.text)")
            let peer = try await OpenPGPPeer(.gnupg, recipient: exported.text)
            defer { Task { await peer.stop() } }
            let imported = try await world.vaultmail(["key", "import", "work"], input: peer.publicKey)
            try #require(imported.status == 0, "\(imported.text)")
            let to = "Ada <\(EndToEndWorld.address)>"
            let entity = PGPMIMEMessage.entity(text: "The launch is on Tuesday.", protectedSubject: "Launch date")
            try world.deliver(PGPMIMEMessage.encrypted(from: OpenPGPPeer.Implementation.gnupg.userId, to: to, messageId: "<launch@example.org>",
                                                       armored: try await peer.encrypt(entity, signed: true)))
            let original = PGPMIMEMessage.entity(text: "Transfer 100 EUR to Alice.")
            try world.deliver(PGPMIMEMessage.signed(from: OpenPGPPeer.Implementation.gnupg.userId, to: to, subject: "Transfer order",
                                                    messageId: "<transfer@example.org>", entity: PGPMIMEMessage.entity(text: "Transfer 900 EUR to Mallory."),
                                                    signature: try await peer.detachedSignature(original)))
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            _ = try await browser.waitForCount("#threads .row") { $0 == 2 }

            // The encrypted one (listed as "..."): its real subject, its text, the badge; no ciphertext file.
            try await browser.js("Array.from(document.querySelectorAll('#threads .row-link')).find(a => a.textContent.includes('...')).click()")
            try await browser.wait("return document.querySelector('#conversation .crypto-state') !== null")
            #expect(try await browser.string("return document.querySelector('#conv-title').textContent") == "Launch date")
            #expect(try await browser.string("return document.querySelector('#conversation .crypto-state').textContent")
                == "Encrypted · Signed by Alice Gnu <alice@example.org>")
            #expect(try await browser.string("return document.querySelector('#conversation .msg-body').innerText").contains("The launch is on Tuesday."))
            #expect(try await browser.number("return document.querySelectorAll('#conversation .attachments .att-name').length") == 0)
            #expect(try await browser.js("return document.querySelector('#conversation .crypto-state').getAttribute('role') === null") as? Bool == true,
                    "a message that is fine is no alert")
            try await world.expectAccessible(browser, page: "a decrypted message")
            try await world.screenshots(browser, name: "crypto-encrypted")

            // The altered one: an alert in words, the text still shown beneath it.
            try await browser.js("Array.from(document.querySelectorAll('#threads .row-link')).find(a => a.textContent.includes('Transfer order')).click()")
            try await browser.wait("return document.querySelector('#conv-title').textContent.includes('Transfer order') && document.querySelector('#conversation .crypto-state') !== null")
            let alert = try await browser.js("""
                const n = document.querySelector('#conversation .crypto-state');
                const r = n.getBoundingClientRect();
                return [n.getAttribute('role'), n.textContent, getComputedStyle(n).color, r.width, r.height];
                """) as? [Any]
            #expect(alert?[0] as? String == "alert")
            #expect(alert?[1] as? String == "Signature not valid — the text may have been changed")
            #expect((alert?[3] as? Double ?? 0) > 100 && (alert?[4] as? Double ?? 0) > 10, "the alert is on screen: \(alert ?? [])")
            #expect(try await browser.string("return document.querySelector('#conversation .msg-body').innerText").contains("Transfer 900 EUR to Mallory."))
            #expect(try await browser.number("return document.querySelectorAll('#conversation .attachments .att-name').length") == 0,
                    "signature.asc is not listed as a file")
            try await world.expectAccessible(browser, page: "a message whose signature does not match")
            try await world.screenshots(browser, name: "crypto-bad-signature")
        }
    }

    /// Ids of running processes whose command line mentions `text`.
    static func processes(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(text)
        }
    }
}
