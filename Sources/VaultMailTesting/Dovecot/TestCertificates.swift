import Foundation

/// Certificates for a test IMAP server, made with the `openssl` command: a private CA and a
/// server certificate it signs for `localhost` / 127.0.0.1 / ::1, plus two that a client must
/// refuse: a self-signed one for the same names (untrusted) and one the CA signs for
/// `mail.example.org` only (wrong host). EC P-256 keys, valid for two days.
public struct TestCertificates: Sendable {
    /// The CA certificate (PEM): give it to the client as the account's CA file.
    public let caFile: String
    public let serverCertificate: String
    public let serverKey: String
    public let selfSignedCertificate: String
    public let selfSignedKey: String
    public let wrongHostCertificate: String
    public let wrongHostKey: String

    /// Creates every file in `directory`. `addresses`: further IP addresses the trusted server
    /// certificate names (a test's server reached from a sealed network namespace).
    public static func make(in directory: URL, addresses: [String] = []) throws -> TestCertificates {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let openssl = "/usr/bin/openssl"
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let names = "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" + addresses.map { ",IP:\($0)" }.joined()
        let serverExtensions = [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
            "extendedKeyUsage=serverAuth",
        ]

        try CommandRunner.run(
            openssl,
            ["req", "-x509"] + newKey + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=VaultMail Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])

        func caSigned(_ name: String, subject: String, altNames: String) throws {
            try CommandRunner.run(
                openssl, ["req", "-new"] + newKey + ["-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", subject])
            let extensions = ([altNames] + serverExtensions).joined(separator: "\n") + "\n"
            try extensions.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
            try CommandRunner.run(
                openssl,
                [
                    "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                    "-set_serial", String(UInt32.random(in: 1...UInt32.max)), "-days", "2",
                    "-extfile", path("\(name).ext"), "-out", path("\(name).pem"),
                ])
        }
        try caSigned("server", subject: "/CN=localhost", altNames: names)
        try caSigned("wronghost", subject: "/CN=mail.example.org", altNames: "subjectAltName=DNS:mail.example.org")
        try CommandRunner.run(
            openssl,
            ["req", "-x509"] + newKey + [
                "-keyout", path("selfsigned.key"), "-out", path("selfsigned.pem"), "-days", "2", "-subj", "/CN=localhost",
                "-addext", names,
            ] + serverExtensions.flatMap { ["-addext", $0] })

        return TestCertificates(
            caFile: path("ca.pem"), serverCertificate: path("server.pem"), serverKey: path("server.key"),
            selfSignedCertificate: path("selfsigned.pem"), selfSignedKey: path("selfsigned.key"),
            wrongHostCertificate: path("wronghost.pem"), wrongHostKey: path("wronghost.key"))
    }
}
