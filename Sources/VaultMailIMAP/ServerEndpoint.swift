import Foundation
public import VaultMailCore

/// Where a mail server is and how to reach it, for IMAP (`IMAPEndpoint`) and SMTP
/// (`SMTPEndpoint`) alike.
public protocol ServerEndpoint: Sendable {
    var host: String { get }
    var port: Int { get }
    /// `.tls` (implicit), `.starttls`, or `.plain` (loopback only).
    var security: ConnectionSecurity { get }
    /// A PEM file of CA certificates trusted in addition to the system store
    /// (`/etc/ssl/certs/ca-certificates.crt`), e.g. for a company CA or a test CA.
    var caFile: String? { get }
    /// How long to wait for the TCP connection and the TLS handshake.
    var connectTimeout: Duration { get }
    /// How long to wait for the server's next bytes before the connection counts as lost.
    var readTimeout: Duration { get }
}

extension ServerEndpoint {
    /// `host:port`, as errors name the server.
    public var address: String { ServerAddress.text(host: host, port: port) }
}

/// `host:port`, with IPv6 literals in brackets.
enum ServerAddress {
    static func text(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// An error's text: "cannot log in to host:port as ada: [server's words] — our reason. Hint."
    static func errorText(operation: String, host: String, port: Int, user: String?, details: [String?], hint: String?) -> String {
        var text = "cannot \(operation) \(self.text(host: host, port: port))"
        if let user { text += " as \(user)" }
        let present = details.compactMap { $0 }.filter { !$0.isEmpty }
        text += ": " + (present.isEmpty ? "no further detail" : present.joined(separator: " — "))
        if let hint { text += (text.hasSuffix(".") ? " " : ". ") + hint }
        return text
    }
}
