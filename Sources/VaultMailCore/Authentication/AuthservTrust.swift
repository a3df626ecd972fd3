import Foundation

/// Which `Authentication-Results` fields of an account's mail come from its own server, by
/// the name the server writes in them (the authserv-id, RFC 8601 §2.5).
///
/// - Configured (`vaultmail notify authserv ACCOUNT NAME`, Settings → Notifications): exactly
///   those names (several separated by commas), and a message without a field from them is
///   not authenticated.
/// - Otherwise derived from the IMAP server's host: the host itself, its domain and any host
///   under it (`imap.example.com` trusts `mx.example.com`), and the names well-known providers
///   use (Gmail's `mx.google.com`, Fastmail's `*.messagingengine.com`). A message without a
///   field from them is "not checked": the server may add none.
public struct AuthservTrust: Sendable, Equatable {
    /// The configured names, lowercased; empty when derived.
    public let configured: [String]
    /// The IMAP host the names are derived from, lowercased.
    public let host: String

    public init(imapHost: String, configured: String?) {
        host = imapHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[] ."))
        self.configured = (configured ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    public var isConfigured: Bool { !configured.isEmpty }

    /// The domain whose hosts are trusted when nothing is configured; nil for an address or a
    /// single-label host (then only the host itself).
    public var derivedDomain: String? {
        let labels = host.split(separator: ".")
        guard labels.count >= 2, !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }), !host.contains(":") else { return nil }
        // example.co.uk, example.com.au: a short second-level label under a country code.
        let take = labels.count >= 3 && labels[labels.count - 1].count == 2 && labels[labels.count - 2].count <= 3 ? 3 : 2
        return labels.suffix(take).joined(separator: ".")
    }

    /// Names providers write for their own IMAP hosts' domains.
    static let providers: [String: [String]] = [
        "gmail.com": ["mx.google.com"],
        "googlemail.com": ["mx.google.com"],
        "fastmail.com": ["messagingengine.com"],
    ]

    public func trusts(_ authservId: String) -> Bool {
        let id = authservId.lowercased()
        if isConfigured { return configured.contains(id) }
        if id == host { return true }
        guard let domain = derivedDomain else { return false }
        return ([domain] + (Self.providers[domain] ?? [])).contains { id == $0 || id.hasSuffix("." + $0) }
    }

    /// What is trusted, in words: "mx.example.com" or "imap.example.com's domain (example.com)".
    public var description: String {
        if isConfigured { return configured.joined(separator: ", ") }
        guard let domain = derivedDomain else { return host }
        return "\(host)'s domain (\(([domain] + (Self.providers[domain] ?? [])).joined(separator: ", ")))"
    }
}
