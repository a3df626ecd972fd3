/// The network filters and URL-parameter rules of the tracker lists, compiled into a fast
/// matcher for the question the shield asks: would this list block a third-party image fetched
/// from this URL?
///
/// - Filters anchored to a host (`||host^`, `||host/path`) are kept by host: a URL looks up
///   each suffix of its host (`a.b.example.com`, `b.example.com`, `example.com`, `com`), and a
///   host's filters with a path are matched right after the host.
/// - Other filters (`/pixel.gif?`, `.ct.sendgrid.net/$image`) are indexed by one token each
///   (the way uBlock does): a URL is split into tokens and only the filters of its tokens are tried.
/// - Exception filters (`@@`) are kept the same way; an exception that matches lets the URL through.
/// - `$removeparam=name` rules become the names of tracking parameters: everywhere, or only on
///   some hosts (`||host^$removeparam=name`, `$removeparam=name,to=host`).
public struct TrackerRules: Sendable {
    /// A filter anchored to a host, with the rest of its pattern (nil: the host alone).
    struct HostFilter: Sendable {
        let rest: FilterPattern?
    }

    private(set) var blockedHosts: [String: [HostFilter]] = [:]
    private(set) var allowedHosts: [String: [HostFilter]] = [:]
    private(set) var blockedByToken: [UInt64: [FilterPattern]] = [:]
    private(set) var allowedByToken: [UInt64: [FilterPattern]] = [:]
    private(set) var blockedUntokened: [FilterPattern] = []
    private(set) var allowedUntokened: [FilterPattern] = []
    /// Parameter names removed from every link (lowercased).
    public private(set) var parameters: Set<String> = []
    /// Parameter names removed from links to a host and its subdomains (lowercased).
    public private(set) var hostParameters: [String: Set<String>] = [:]
    /// How many network filters were compiled (block and exception).
    public private(set) var filterCount = 0

    public init() {}

    // MARK: - Building

    mutating func add(host: String, rest: FilterPattern?, exception: Bool) {
        filterCount += 1
        if exception { allowedHosts[host, default: []].append(HostFilter(rest: rest)) } else {
            blockedHosts[host, default: []].append(HostFilter(rest: rest))
        }
    }

    mutating func add(pattern: FilterPattern, exception: Bool) {
        guard !pattern.matchesEverything else { return }
        filterCount += 1
        if let token = pattern.indexToken {
            let key = Self.hash(token[...])
            if exception { allowedByToken[key, default: []].append(pattern) } else { blockedByToken[key, default: []].append(pattern) }
        } else if exception {
            allowedUntokened.append(pattern)
        } else {
            blockedUntokened.append(pattern)
        }
    }

    mutating func addParameter(_ name: String, host: String?) {
        if let host { hostParameters[host, default: []].insert(name) } else { parameters.insert(name) }
    }

    // MARK: - Matching

    /// Whether the lists block `url` (as a third-party image request) and no exception lets it
    /// through.
    func blocks(_ url: RemoteURL) -> Bool {
        url.lowercased.withUnsafeBufferPointer { bytes in
            matches(bytes, url, hosts: blockedHosts, byToken: blockedByToken, untokened: blockedUntokened)
                && !matches(bytes, url, hosts: allowedHosts, byToken: allowedByToken, untokened: allowedUntokened)
        }
    }

    /// Whether `name` (lowercased) is a tracking parameter on links to `host`.
    func isTrackingParameter(_ name: String, host: String) -> Bool {
        if parameters.contains(name) { return true }
        guard !hostParameters.isEmpty else { return false }
        var found = false
        RemoteURL.forEachSuffix(of: host) { suffix in
            if hostParameters[suffix]?.contains(name) == true { found = true }
            return !found
        }
        return found
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ url: RemoteURL, hosts: [String: [HostFilter]],
                         byToken: [UInt64: [FilterPattern]], untokened: [FilterPattern]) -> Bool {
        if !hosts.isEmpty {
            var found = false
            RemoteURL.forEachSuffix(of: url.host) { suffix in
                if let filters = hosts[suffix] {
                    found = filters.contains { filter in
                        guard let rest = filter.rest else { return true }
                        return rest.matches(bytes, from: url.hostEnd, anchored: true)
                    }
                }
                return !found
            }
            if found { return true }
        }
        if !byToken.isEmpty {
            var start = 0
            var tried: Set<UInt64> = []
            while start < bytes.count {
                guard FilterPattern.isTokenByte(bytes[start]) else { start += 1; continue }
                var end = start
                while end < bytes.count, FilterPattern.isTokenByte(bytes[end]) { end += 1 }
                let key = Self.hash(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                if let candidates = byToken[key], tried.insert(key).inserted,
                   candidates.contains(where: { $0.matches(bytes, from: 0, anchored: false) }) {
                    return true
                }
                start = end
            }
        }
        return untokened.contains { $0.matches(bytes, from: 0, anchored: false) }
    }

    /// FNV-1a over a token's bytes: the index's key (a collision only costs one more filter tried).
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
