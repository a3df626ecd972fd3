/// Reads a filter list in Adblock Plus / uBlock syntax (EasyPrivacy, uBlock filters – Privacy)
/// into `TrackerRules`: only what decides a third-party image fetched from a mail, and the
/// names of tracking parameters.
///
/// Kept: network filters and exceptions (`@@`) whose pattern is a host (`||host^`), a host and a
/// path (`||host/path`, `||host^*/pixel.gif`) or a plain pattern (`/pixel.gif?`, `|https://…`),
/// that apply to images (no type option, or `image`, or types other than `~image` excluded) and
/// to third-party requests, on every page (no `domain=`/`from=` naming a site; only negated
/// ones). `redirect=` filters block (the extension swaps in a blank resource). `$removeparam=name`
/// rules without a site restriction, or restricted to hosts (`||host^`, `to=host|host`).
///
/// Left out: comments (`!`), the header (`[Adblock Plus …]`), cosmetic filters (`##`, `#@#`,
/// `#?#`, `#$#`, `#%#`), regular expressions (`/…/`), hosts with wildcards (`||amazon.*/`),
/// filters for other request types (scripts, frames, XHR, documents, popups), first-party-only
/// filters, and those that rewrite instead of block (`csp=`, `header=`, `replace=`,
/// `redirect-rule=`, `urltransform=`, `badfilter`, `denyallow=`, `method=`, …).
public enum FilterListParser {
    /// Adds what `text` (a whole list) holds to `rules`.
    public static func parse(_ text: String, into rules: inout TrackerRules) {
        var text = text
        text.withUTF8 { buffer in
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != 0x0A { end += 1 }
                var lineEnd = end
                while lineEnd > start, buffer[lineEnd - 1] == 0x0D || buffer[lineEnd - 1] == 0x20 { lineEnd -= 1 }
                var lineStart = start
                while lineStart < lineEnd, buffer[lineStart] == 0x20 { lineStart += 1 }
                if lineStart < lineEnd {
                    parseLine(UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd]), into: &rules)
                }
                start = end + 1
            }
        }
    }

    private static func parseLine(_ line: UnsafeBufferPointer<UInt8>, into rules: inout TrackerRules) {
        let first = line[0]
        if first == UInt8(ascii: "!") || first == UInt8(ascii: "[") { return }
        if isCosmetic(line) { return }
        var body = line[...]
        let exception = body.starts(with: "@@".utf8)
        if exception { body = body.dropFirst(2) }
        // Options follow the last `$` that is not part of the pattern.
        var options: ArraySlice<UInt8> = []
        if let dollar = body.lastIndex(of: UInt8(ascii: "$")), dollar != body.startIndex || body.count > 1 {
            options = ArraySlice(body[(dollar + 1)...])
            body = body[..<dollar]
        }
        let parsedOptions = Options(options)
        guard let parsedOptions else { return }
        if let parameter = parsedOptions.removedParameter {
            guard !exception else { return }
            addParameter(parameter, pattern: ArraySlice(body), options: parsedOptions, into: &rules)
            return
        }
        guard parsedOptions.appliesToThirdPartyImages else { return }
        var pattern = Array(body)
        for index in pattern.indices where pattern[index] >= UInt8(ascii: "A") && pattern[index] <= UInt8(ascii: "Z") { pattern[index] += 32 }
        // A regular expression: not read.
        if pattern.count > 1, pattern.first == UInt8(ascii: "/"), pattern.last == UInt8(ascii: "/") { return }
        if pattern.starts(with: "||".utf8) {
            addHostFilter(pattern.dropFirst(2), exception: exception, into: &rules)
            return
        }
        var anchoredStart = false, anchoredEnd = false
        var slice = pattern[...]
        if slice.first == UInt8(ascii: "|") { anchoredStart = true; slice = slice.dropFirst() }
        if slice.last == UInt8(ascii: "|") { anchoredEnd = true; slice = slice.dropLast() }
        rules.add(pattern: FilterPattern(slice, anchoredStart: anchoredStart, anchoredEnd: anchoredEnd), exception: exception)
    }

    /// `||host…`: the host up to the first character that cannot be in one, then the rest.
    private static func addHostFilter(_ pattern: ArraySlice<UInt8>, exception: Bool, into rules: inout TrackerRules) {
        var end = pattern.startIndex
        while end < pattern.endIndex, isHostByte(pattern[end]) { end += 1 }
        let host = pattern[pattern.startIndex..<end]
        // A wildcard in the host (`||amazon.*/dp/`) or a host cut short (`||www.ebay.`): not read.
        guard !host.isEmpty, host.last != UInt8(ascii: "."), end == pattern.endIndex || pattern[end] != UInt8(ascii: "*") else { return }
        var rest = pattern[end...]
        var anchoredEnd = false
        if rest.last == UInt8(ascii: "|") { anchoredEnd = true; rest = rest.dropLast() }
        let hostName = String(decoding: host, as: UTF8.self)
        // `||host^` and `||host` alone: the host and its subdomains.
        if rest.isEmpty || (rest.count == 1 && rest.first == UInt8(ascii: "^")) {
            rules.add(host: hostName, rest: nil, exception: exception)
        } else {
            rules.add(host: hostName, rest: FilterPattern(rest, anchoredStart: true, anchoredEnd: anchoredEnd), exception: exception)
        }
    }

    private static func addParameter(_ name: String, pattern: ArraySlice<UInt8>, options: Options, into rules: inout TrackerRules) {
        // Only plain names: not a regular expression (`/…/`), not a negation (`~name`).
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else { return }
        guard !options.restrictedToSites else { return }
        let text = String(decoding: pattern, as: UTF8.self).lowercased()
        if text.isEmpty || text == "*" {
            if options.targetHosts.isEmpty {
                rules.addParameter(name, host: nil)
            } else {
                for host in options.targetHosts { rules.addParameter(name, host: host) }
            }
        } else if text.hasPrefix("||"), text.hasSuffix("^") {
            let host = String(text.dropFirst(2).dropLast())
            if !host.isEmpty, host.utf8.allSatisfy(isHostByte), !host.hasSuffix(".") {
                rules.addParameter(name, host: host)
            }
        }
    }

    /// `##`, `#@#`, `#?#`, `#$#`, `#%#`, `#+js`: element hiding and scriptlets, for pages.
    private static func isCosmetic(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count >= 2 else { return false }
        for index in 0..<(line.count - 1) where line[index] == UInt8(ascii: "#") {
            switch line[index + 1] {
            case UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "+"):
                return true
            default:
                continue
            }
        }
        return false
    }

    static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// A filter's options, read for what the shield needs; nil for an option that changes what
    /// the filter does in a way the shield does not follow.
    private struct Options {
        var included: Set<String> = []
        var excluded: Set<String> = []
        var firstPartyOnly = false
        var restrictedToSites = false
        var removedParameter: String?
        var targetHosts: [String] = []

        private static let types: Set<String> = [
            "image", "script", "stylesheet", "css", "xmlhttprequest", "xhr", "subdocument", "frame", "font", "media",
            "object", "other", "ping", "beacon", "websocket", "popup", "popunder", "document", "doc", "all", "inline-script",
            "inline-font", "webrtc", "object-subrequest", "mp4", "genericblock", "generichide", "ghide", "elemhide", "ehide",
            "specifichide", "shide", "cname", "csp",
        ]
        private static let ignored: Set<String> = ["important", "match-case", "strict3p", "third-party", "3p", "~first-party", "~1p"]

        init?(_ text: ArraySlice<UInt8>) {
            guard !text.isEmpty else { return }
            for raw in text.split(separator: UInt8(ascii: ",")) {
                let option = String(decoding: raw, as: UTF8.self)
                let lower = option.lowercased()
                if Self.ignored.contains(lower) { continue }
                if ["~third-party", "~3p", "first-party", "1p", "strict1p", "strict-first-party"].contains(lower) {
                    firstPartyOnly = true
                    continue
                }
                if let value = Self.value(of: lower, for: ["domain", "from"]) {
                    if value.split(separator: "|").contains(where: { !$0.hasPrefix("~") }) { restrictedToSites = true }
                    continue
                }
                if let value = Self.value(of: lower, for: ["to"]) {
                    targetHosts = value.split(separator: "|").map(String.init).filter { !$0.hasPrefix("~") && !$0.contains("*") }
                    if targetHosts.isEmpty { restrictedToSites = true }
                    continue
                }
                if lower.hasPrefix("removeparam") {
                    // `removeparam` alone removes every parameter: not followed.
                    guard lower.hasPrefix("removeparam="), let value = option.split(separator: "=", maxSplits: 1).last else { return nil }
                    removedParameter = value.lowercased()
                    continue
                }
                if lower.hasPrefix("redirect=") { continue }
                let negated = lower.hasPrefix("~")
                let name = negated ? String(lower.dropFirst()) : lower
                guard Self.types.contains(name) else { return nil }
                if negated { excluded.insert(name) } else { included.insert(name) }
            }
        }

        private static func value(of option: String, for names: [String]) -> String? {
            for name in names where option.hasPrefix(name + "=") { return String(option.dropFirst(name.count + 1)) }
            return nil
        }

        /// Whether a filter with these options blocks an image fetched from a mail (a
        /// third-party request on no site of the list's).
        var appliesToThirdPartyImages: Bool {
            guard !firstPartyOnly, !restrictedToSites, targetHosts.isEmpty else { return false }
            if !included.isEmpty { return included.contains("image") || included.contains("all") }
            return !excluded.contains("image")
        }
    }
}
