/// Whether the user's own server authenticated a message's From address (issue 33: a VIP
/// address breaks through quiet hours only then).
public enum SenderAuthenticity: Sendable, Equatable {
    /// A field from a trusted server says DMARC, or DKIM or SPF aligned with the From domain,
    /// passed; `evidence` is that check (`dkim=pass header.d=example.com`).
    case authenticated(by: String, evidence: String)
    /// The trusted server wrote its results, and none passes for the From domain.
    case failed(by: String, evidence: String)
    /// No field from a trusted server (`trust` says which names were looked for).
    case unchecked(trust: AuthservTrust)

    /// Reads `fields` (every `Authentication-Results` value of the message, topmost first) for
    /// `fromAddress`, trusting only what `trust` trusts.
    public static func of(fromAddress: String, fields: [String], trust: AuthservTrust) -> SenderAuthenticity {
        let fromDomain = fromAddress.split(separator: "@").last.map { $0.lowercased() } ?? ""
        let trusted = fields.compactMap(AuthenticationResults.init).filter { trust.trusts($0.authservId) }
        guard let first = trusted.first else { return .unchecked(trust: trust) }
        // The strongest evidence is named: DMARC, then DKIM, then SPF.
        for method in ["dmarc", "dkim", "spf"] {
            for results in trusted {
                if let pass = results.checks.first(where: { $0.method == method && passes($0, fromDomain: fromDomain) }) {
                    return .authenticated(by: results.authservId, evidence: pass.summary)
                }
            }
        }
        let said = first.checks.map(\.summary).joined(separator: "; ")
        return .failed(by: first.authservId, evidence: said.isEmpty ? "no checks" : said)
    }

    /// DMARC passed for this From domain, or DKIM or SPF passed for a domain aligned with it
    /// (the same, or one under the other: DMARC's relaxed alignment).
    static func passes(_ check: AuthenticationResults.Check, fromDomain: String) -> Bool {
        guard check.result == "pass", !fromDomain.isEmpty else { return false }
        switch check.method {
        case "dmarc":
            return check.properties["header.from"].map { aligned(domain(of: $0), fromDomain) } ?? true
        case "dkim":
            guard let signer = check.properties["header.d"] ?? check.properties["header.i"].map(domain(of:)) else { return false }
            return aligned(signer.lowercased(), fromDomain)
        case "spf":
            guard let mailFrom = check.properties["smtp.mailfrom"] else { return false }
            return aligned(domain(of: mailFrom), fromDomain)
        default:
            return false
        }
    }

    static func domain(of text: String) -> String {
        (text.split(separator: "@").last.map(String.init) ?? text).lowercased()
    }

    static func aligned(_ domain: String, _ fromDomain: String) -> Bool {
        guard domain.contains(".") else { return false }
        return domain == fromDomain || fromDomain.hasSuffix("." + domain) || domain.hasSuffix("." + fromDomain)
    }

    /// Words for `notify why`.
    public var explanation: String {
        switch self {
        case .authenticated(let by, let evidence): "authenticated by \(by): \(evidence)"
        case .failed(let by, let evidence): "not authenticated by \(by) (\(evidence))"
        case .unchecked(let trust): "no Authentication-Results from \(trust.description)"
        }
    }
}
