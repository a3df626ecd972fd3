import VaultMailCore

/// What the sanitizer made of a mail's HTML.
public struct SanitizedHTML: Sendable, Equatable {
    /// Safe markup for the body of the message frame (no `<html>`/`<head>`/`<body>` wrappers).
    public var html: String
    /// How many remote resources (images, backgrounds, CSS urls, fonts) were held back, trackers
    /// aside: the page offers "Show images" when > 0.
    public var blockedRemoteContent: Int
    /// The `cid:` references found (Content-IDs without "cid:" or angle brackets), unique, in
    /// document order.
    public var contentIds: [String]
    /// What the tracker shield removed (images, CSS fetches, links' tracking), in document order.
    public var trackers: [TrackerFinding]

    /// A result as the sanitizer makes it (also for fakes in tests of the pages).
    public init(html: String, blockedRemoteContent: Int, contentIds: [String], trackers: [TrackerFinding] = []) {
        self.html = html
        self.blockedRemoteContent = blockedRemoteContent
        self.contentIds = contentIds
        self.trackers = trackers
    }
}
