import VaultMailCore

/// Decides every URL the sanitizer meets (links, image sources, CSS `url()`) and keeps the tally
/// the page needs: remote resources blocked, trackers removed and `cid:` references found. The
/// tracker shield, when given, decides each remote resource first (a tracker is removed whether
/// or not images are shown, and is not counted as an image to offer) and cleans each link.
struct ResourcePolicy {
    let allowRemoteImages: Bool
    let contentIdURLs: [String: String]
    let shield: TrackerShield?
    let remoteImageSource: (@Sendable (String) -> String)?
    private(set) var blockedRemoteContent = 0
    private(set) var trackers: [TrackerFinding] = []
    private(set) var contentIds: [String] = []
    private var seenContentIds: Set<String> = []

    init(options: HTMLSanitizer.Options) {
        allowRemoteImages = options.allowRemoteImages
        contentIdURLs = options.contentIdURLs
        shield = options.shield
        remoteImageSource = options.remoteImageSource
    }

    /// The `href` to keep for a link, or nil: only http:, https: and mailto: targets survive.
    static func linkTarget(_ raw: String) -> String? {
        let url = cleaned(raw)
        let lower = url.lowercased()
        guard lower.hasPrefix("http:") || lower.hasPrefix("https:") || lower.hasPrefix("mailto:") else { return nil }
        return url
    }

    /// The `href` to write for a link, or nil: a safe target (`linkTarget`) that the shield
    /// has cleaned of tracking.
    mutating func link(_ raw: String) -> String? {
        guard let target = Self.linkTarget(raw) else { return nil }
        guard let shield else { return target }
        let cleaned = shield.link(target)
        trackers.append(contentsOf: cleaned.findings)
        return cleaned.url
    }

    /// The `src` to give an image, or nil to show its alt text instead; `facts`: its size and
    /// visibility, for the shield.
    mutating func imageSource(_ raw: String, facts: ImageFacts) -> String? {
        let url = Self.cleaned(raw)
        if let finding = shield?.image(url, facts: facts) {
            trackers.append(finding)
            return nil
        }
        return resource(url)
    }

    /// The URL to write in a CSS `url()`, or nil to write `none` instead.
    mutating func styleURL(_ raw: String) -> String? {
        let url = Self.cleaned(raw)
        if let finding = shield?.styleResource(url) {
            trackers.append(finding)
            return nil
        }
        return resource(url)
    }

    /// Counts a remote resource that is never kept (a `background` attribute, an `@import`, a
    /// web font), so that "Show images" is offered; nothing is counted once remote images are
    /// shown, and a tracker is counted as one.
    mutating func noteDroppedResource(_ raw: String) {
        let url = Self.cleaned(raw)
        if let finding = shield?.styleResource(url) {
            trackers.append(finding)
        } else if !allowRemoteImages, Self.isRemote(url.lowercased()) {
            blockedRemoteContent += 1
        }
    }

    /// Counts a dropped remote resource whose URL is not at hand.
    mutating func noteDroppedRemoteResource() {
        if !allowRemoteImages { blockedRemoteContent += 1 }
    }

    private mutating func resource(_ url: String) -> String? {
        let lower = url.lowercased()
        if lower.hasPrefix("cid:") {
            let id = Self.contentId(url.dropFirst(4))
            guard !id.isEmpty else { return nil }
            if seenContentIds.insert(id).inserted { contentIds.append(id) }
            return contentIdURLs[id] ?? contentIdURLs["<\(id)>"]
        }
        if Self.isRemote(lower) {
            guard allowRemoteImages else {
                blockedRemoteContent += 1
                return nil
            }
            let absolute = lower.hasPrefix("//") ? "https:" + url : url
            return remoteImageSource.map { $0(absolute) } ?? absolute
        }
        return Self.inlineImages.contains { lower.hasPrefix($0) } ? url : nil
    }

    /// Inline images kept as they are: raster formats only (an SVG image could carry markup).
    private static let inlineImages = ["data:image/png;base64,", "data:image/gif;base64,", "data:image/jpeg;base64,",
                                       "data:image/webp;base64,", "data:image/bmp;base64,"]

    /// http(s) and protocol-relative URLs: the ones a browser would fetch from the network.
    static func isRemote(_ lowercasedURL: String) -> Bool {
        lowercasedURL.hasPrefix("http:") || lowercasedURL.hasPrefix("https:") || lowercasedURL.hasPrefix("//")
    }

    /// A URL as a browser reads it: leading and trailing C0 controls and spaces trimmed, and tabs
    /// and newlines removed anywhere (so "java\tscript:" is "javascript:").
    static func cleaned(_ raw: String) -> String {
        guard raw.utf8.contains(where: { $0 <= 0x20 }) else { return raw }
        var bytes = raw.utf8.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }[...]
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The Content-ID a `cid:` URL names: percent-decoded, without angle brackets (RFC 2392).
    private static func contentId(_ reference: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = reference.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        var id = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
        while let first = id.first, first.value <= 0x20 || first == "<" { id.removeFirst() }
        while let last = id.last, last.value <= 0x20 || last == ">" { id.removeLast() }
        return String(id)
    }
}
