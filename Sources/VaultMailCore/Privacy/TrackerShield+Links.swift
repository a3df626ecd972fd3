/// A link as the shield leaves it: where it goes, and what was removed on the way.
public struct CleanedLink: Sendable, Equatable {
    /// The link's target without tracking parameters, or the destination a redirect carried.
    public var url: String
    /// What was removed (a click-tracking redirect, tracking parameters), at most one of each kind.
    public var findings: [TrackerFinding]

    public init(url: String, findings: [TrackerFinding]) {
        self.url = url
        self.findings = findings
    }
}

extension TrackerShield {
    /// Tracking parameters removed from every link even without the lists (which do not name
    /// them all: uBlock leaves `utm_*` alone): every `utm_` parameter, and these names.
    public static let builtInParameters: Set<String> = [
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking", "mkt_tok", "fbclid", "gclid", "gclsrc",
        "dclid", "msclkid", "yclid", "twclid", "ttclid", "igshid", "oly_enc_id", "oly_anon_id", "vero_id", "vero_conv", "_kx",
        "ck_subscriber_id", "ml_subscriber", "ml_subscriber_hash", "ss_email_id", "et_rid", "wickedid", "sfmc_id",
        "sfmc_activityid", "_bta_tid", "_bta_c", "trk_contact", "trk_msg", "trk_module", "trk_sid", "s_cid", "spmailingid",
        "spuserid", "spjobid", "spreportid", "mkt_campaign", "cmpid", "_branch_match_id",
    ]

    /// Parameters a click-tracking redirect carries its destination in (`…/click?url=https%3A…`).
    public static let redirectParameters: Set<String> = [
        "url", "u", "redirect", "redirect_url", "redirecturl", "redirect_to", "target", "dest", "destination", "link", "goto",
        "out", "href", "r",
    ]

    /// `href` without tracking parameters and, when it is a click-tracking redirect whose
    /// destination is written in it, that destination instead (itself cleaned). Anything but an
    /// http(s) URL is returned as it is.
    public func link(_ href: String) -> CleanedLink {
        var url = href
        var findings: [TrackerFinding] = []
        // A redirect may wrap another (a mail service's around a shop's): up to three.
        for _ in 0..<3 {
            guard let remote = RemoteURL(url), let destination = Self.redirectDestination(url) else { break }
            if !findings.contains(where: { $0.kind == .clickRedirect }) {
                findings.append(TrackerFinding(host: remote.host, kind: .clickRedirect))
            }
            url = destination
        }
        guard let remote = RemoteURL(url) else { return CleanedLink(url: url, findings: findings) }
        let (cleaned, removed) = withoutTrackingParameters(url, host: remote.host)
        if removed { findings.append(TrackerFinding(host: remote.host, kind: .trackingParameters)) }
        return CleanedLink(url: cleaned, findings: findings)
    }

    /// Whether `name` (a parameter's name as written) is a tracking parameter on links to `host`.
    public func isTrackingParameter(_ name: String, host: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("utm_") || Self.builtInParameters.contains(lower) || rules.isTrackingParameter(lower, host: host)
    }

    /// The query's parameters `name=value` (as written, `&`-separated) without the tracking ones;
    /// the fragment kept.
    private func withoutTrackingParameters(_ url: String, host: String) -> (String, Bool) {
        guard let question = url.firstIndex(of: "?") else { return (url, false) }
        let hash = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: question)..<hash]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
        let kept = pairs.filter { pair in
            let name = pair.prefix { $0 != "=" }
            return !isTrackingParameter(Self.percentDecoded(name) ?? String(name), host: host)
        }
        guard kept.count < pairs.count else { return (url, false) }
        let rest = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return (String(url[..<question]) + rest + url[hash...], true)
    }

    /// The http(s) URL a redirect parameter of `url` holds, percent-decoded (once or twice), if any.
    static func redirectDestination(_ url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let hash = url[question...].firstIndex(of: "#") ?? url.endIndex
        for pair in url[url.index(after: question)..<hash].split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].lowercased()
            guard redirectParameters.contains(name) else { continue }
            var value = String(pair[pair.index(after: equals)...])
            for _ in 0..<2 {
                guard let decoded = percentDecoded(Substring(value)) else { break }
                value = decoded
                let lower = value.lowercased()
                if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                    // Nothing a browser would read differently: no spaces, quotes or angle brackets.
                    guard !value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }), RemoteURL(value) != nil else { return nil }
                    return value
                }
            }
        }
        return nil
    }

    /// `%XX` escapes decoded (and `+` as a space); nil when an escape is broken or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
