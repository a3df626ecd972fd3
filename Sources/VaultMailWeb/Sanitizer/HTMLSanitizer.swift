import VaultMailCore

/// Turns a mail's HTML into markup that is safe to show in the message frame.
///
/// The HTML is parsed by gumbo, a real HTML5 parser, into the tree a browser would build; only
/// allowlisted elements and attributes are written back, by our own serializer, so that the
/// output parses back into the same tree. Scripts, forms, embedded documents, SVG/MathML and
/// event handlers never come through; links keep only http(s) and mailto targets and open in a
/// new window; remote images and CSS resources are held back unless
/// `Options.allowRemoteImages`; `cid:` images take the URLs given; quoted replies can be folded.
/// With a `TrackerShield` (issue 30), trackers are removed whether or not images are shown: the
/// shield decides each remote image and CSS `url()` (known trackers, invisible images, open
/// beacons) and cleans every link (tracking parameters, click-tracking redirects); what it
/// removed is listed in `SanitizedHTML.trackers`.
/// The frame's own sandbox and CSP come on top of this.
public struct HTMLSanitizer: Sendable {
    /// How the sanitizer treats a given mail.
    public struct Options: Sendable {
        /// Keep http(s) images (the user chose "Show images").
        public var allowRemoteImages: Bool = false
        /// Replacement URL for each `cid:` reference (typically a data: URI); a cid with no
        /// entry is dropped (alt text kept).
        public var contentIdURLs: [String: String] = [:]
        /// Wrap quoted replies in `<details><summary>Show quoted text</summary>…</details>`
        /// (works without scripts).
        public var foldQuotes: Bool = true
        /// The tracker shield that decides remote resources and links (nil: none removed).
        public var shield: TrackerShield?
        /// Where a kept remote image is asked for instead of its own address (the daemon's image
        /// proxy); nil keeps the address.
        public var remoteImageSource: (@Sendable (String) -> String)?

        public init(allowRemoteImages: Bool = false, contentIdURLs: [String: String] = [:], foldQuotes: Bool = true,
                    shield: TrackerShield? = nil, remoteImageSource: (@Sendable (String) -> String)? = nil) {
            self.allowRemoteImages = allowRemoteImages
            self.contentIdURLs = contentIdURLs
            self.foldQuotes = foldQuotes
            self.shield = shield
            self.remoteImageSource = remoteImageSource
        }
    }

    public init() {}

    /// Sanitizes `html` (a whole document or a fragment; malformed markup is read the way a
    /// browser reads it).
    public func sanitize(_ html: String, options: Options = Options()) -> SanitizedHTML {
        let document = GumboDocument(parsing: NestingLimiter.limit(html))
        return SanitizingSerializer.serialize(document, options: options, sizeHint: html.utf8.count)
    }
}
