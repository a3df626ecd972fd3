/// One tracker the shield removed from a message: where it pointed and what it was.
public struct TrackerFinding: Sendable, Hashable, Codable {
    /// What made it a tracker.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A host or path on the packaged tracker lists (EasyPrivacy, uBlock filters – Privacy).
        case listedTracker = "listed"
        /// An image nobody can see: 2 px or less, or hidden by CSS.
        case invisibleImage = "invisible"
        /// An image whose address is shaped like an open beacon (`/open`, `/o.gif`, `pixel.png`, …).
        case openBeacon = "beacon"
        /// A link's tracking parameters (`utm_*`, `mc_eid`, `fbclid`, …), removed from it.
        case trackingParameters = "parameters"
        /// A click-tracking redirect whose destination was in the link, which now goes there directly.
        case clickRedirect = "redirect"

        /// The kind in a person's words, for the message's list of removed trackers.
        public var words: String {
            switch self {
            case .listedTracker: "known tracker"
            case .invisibleImage: "invisible image"
            case .openBeacon: "open beacon"
            case .trackingParameters: "tracking parameters in a link"
            case .clickRedirect: "click-tracking redirect"
            }
        }
    }

    /// The host the tracker pointed at ("" when the URL had none).
    public var host: String
    public var kind: Kind

    public init(host: String, kind: Kind) {
        self.host = host
        self.kind = kind
    }
}
