import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// Issue 32: the PGP/MIME structure of RFC 3156 read over GMime — what the engine is handed.
@Suite("PGP/MIME structure (RFC 3156, issue 32)")
struct OpenPGPStructureTests {
    let reader = GMimeMessageParser()

    @Test("multipart/encrypted: the second part's OpenPGP message, its transfer encoding undone")
    func encrypted() {
        let armored = "-----BEGIN PGP MESSAGE-----\n\nhQEMA1234\n=abcd\n-----END PGP MESSAGE-----\n"
        let message = PGPMIMEMessage.encrypted(from: "a@example.org", to: "b@example.org", messageId: "<e@x>", armored: armored)
        guard case .encrypted(let ciphertext)? = reader.openPGPPayload(in: Array(message)) else {
            Issue.record("no encrypted payload"); return
        }
        #expect(String(decoding: ciphertext, as: UTF8.self).contains("hQEMA1234"))
        #expect(String(decoding: ciphertext, as: UTF8.self).hasPrefix("-----BEGIN PGP MESSAGE-----"))
    }

    @Test("multipart/signed: the signed part exactly as signed (its own last CRLF included), with CRLF line ends even when the message was stored with LF")
    func signedBytes() throws {
        let entity = PGPMIMEMessage.entity(text: "Line one\r\nLine two  \r\n\r\n-- \r\nAda")
        let message = PGPMIMEMessage.signed(from: "a@example.org", to: "b@example.org", subject: "s", messageId: "<s@x>", entity: entity,
                                            signature: "-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----")
        for raw in [Array(message), Array(String(decoding: message, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)] {
            guard case .signed(let content, let signature)? = reader.openPGPPayload(in: raw) else {
                Issue.record("no signed payload"); continue
            }
            #expect(content == entity, "\(String(decoding: content, as: UTF8.self).debugDescription)")
            #expect(String(decoding: signature, as: UTF8.self).contains("BEGIN PGP SIGNATURE"))
        }
    }

    @Test("Other mail, and multipart/signed with another protocol (S/MIME), has no OpenPGP payload")
    func notOpenPGP() {
        let plain = TestMessage(from: "a@example.org", to: "b@example.org", subject: "hi", body: "-----BEGIN PGP MESSAGE----- is just text").data
        #expect(reader.openPGPPayload(in: Array(plain)) == nil)
        let smime = String(decoding: PGPMIMEMessage.signed(from: "a@example.org", to: "b@example.org", subject: "s", messageId: "<m@x>",
                                                            entity: PGPMIMEMessage.entity(text: "x"), signature: "sig"), as: UTF8.self)
            .replacingOccurrences(of: "application/pgp-signature\";", with: "application/pkcs7-signature\";")
        #expect(reader.openPGPPayload(in: Array(smime.utf8)) == nil)
    }
}
