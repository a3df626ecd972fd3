import VaultMailCore

/// The desktop's notification server as VaultMail last found it (NOTIF-02): who it is, what
/// it can do, and whether banners can be shown; `problem` says why not, and what to do.
public struct NotificationServerStatus: Sendable, Hashable {
    /// "dunst 1.9.0 (knopwob)"; nil when no server answered.
    public var server: String?
    public var capabilities: [String]
    public var authorized: Bool
    /// Why banners cannot be shown, in words, with the technical detail apart (issue 29).
    public var problem: PlainProblem?

    public init(server: String?, capabilities: [String], authorized: Bool, problem: PlainProblem?) {
        self.server = server
        self.capabilities = capabilities
        self.authorized = authorized
        self.problem = problem
    }

    /// Replies typed into the banner itself (else Reply opens the conversation).
    public var inlineReply: Bool { capabilities.contains("inline-reply") }

    /// What the server's banners can do, in words (its capabilities are the notification
    /// specification's names, "actions", "body-markup"…; ones without meaning to a reader, or
    /// a server's own "x-…" extensions, are left out).
    public var features: [String] {
        Self.featureNames.compactMap { capabilities.contains($0.capability) ? $0.words : nil }
    }

    private static let featureNames: [(capability: String, words: String)] = [
        ("actions", "buttons"), ("inline-reply", "replies typed into the banner"), ("body", "a preview of the message"),
        ("body-markup", "bold and italic text"), ("body-hyperlinks", "links"), ("body-images", "pictures in the text"),
        ("icon-static", "icons"), ("persistence", "banners kept until dismissed"), ("sound", "sounds"),
    ]
}
