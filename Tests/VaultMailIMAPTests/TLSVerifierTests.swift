import Foundation
import Testing
import VaultMailTesting
@testable import VaultMailIMAP

@Suite("TLS certificate verification")
struct TLSVerifierTests {
    /// The test CA and its certificates, made once per test in a temporary directory.
    struct Material {
        let directory: URL
        let certificates: TestCertificates

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-tls-\(UUID().uuidString)")
            certificates = try TestCertificates.make(in: directory)
        }

        func der(_ pemFile: String) throws -> [UInt8] {
            let pem = try String(contentsOfFile: pemFile, encoding: .utf8)
            let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return Array(try #require(Data(base64Encoded: base64)))
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test("AC-SEC-01: a CA-signed certificate is accepted for its DNS name and IP addresses", arguments: ["localhost", "127.0.0.1", "::1", "[::1]"])
    func accepted(host: String) throws {
        let material = try Material()
        defer { material.remove() }
        let chain = [try material.der(material.certificates.serverCertificate)]
        #expect(throws: Never.self) {
            try TLSVerifier.verify(chain: chain, host: host, caFile: material.certificates.caFile)
        }
    }

    @Test("AC-SEC-01: the wrong host, an untrusted issuer or no CA file are refused with the reason")
    func refused() throws {
        let material = try Material()
        defer { material.remove() }
        let certificates = material.certificates
        let server = [try material.der(certificates.serverCertificate)]

        var failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(chain: server, host: "mail.example.org", caFile: certificates.caFile)
        }
        #expect(failure.reason.contains("not issued for mail.example.org"))

        failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(
                chain: [try material.der(certificates.selfSignedCertificate)], host: "localhost", caFile: certificates.caFile)
        }
        #expect(failure.reason.contains("not signed by a trusted certificate authority"))

        failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(
                chain: [try material.der(certificates.wrongHostCertificate)], host: "localhost", caFile: certificates.caFile)
        }
        #expect(failure.reason.contains("not issued for localhost"))

        // The system store alone does not know the test CA.
        failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(chain: server, host: "localhost", caFile: nil)
        }
        #expect(failure.reason.contains("not signed by a trusted"))

        failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(chain: server, host: "localhost", caFile: material.directory.path + "/missing.pem")
        }
        #expect(failure.reason.contains("cannot be read"))

        let empty = material.directory.appendingPathComponent("empty.pem").path
        try "no certificate here\n".write(toFile: empty, atomically: true, encoding: .utf8)
        failure = try #require(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(chain: server, host: "localhost", caFile: empty)
        }
        #expect(failure.reason.contains("holds no PEM certificate"))

        #expect(throws: TLSVerifier.Failure.self) { try TLSVerifier.verify(chain: [], host: "localhost", caFile: nil) }
        #expect(throws: TLSVerifier.Failure.self) {
            try TLSVerifier.verify(chain: [[0x30, 0x03, 0x01]], host: "localhost", caFile: certificates.caFile)
        }
    }
}
