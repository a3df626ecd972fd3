/// The desktop's notification server as VaultMail last found it (NOTIF-02): who it is, what
/// it can do, and whether banners can be shown; `problem` says why not, and what to do.
public struct NotificationServerStatus: Sendable, Hashable {
    /// "dunst 1.9.0 (knopwob)"; nil when no server answered.
    public var server: String?
    public var capabilities: [String]
    public var authorized: Bool
    public var problem: String?

    public init(server: String?, capabilities: [String], authorized: Bool, problem: String?) {
        self.server = server
        self.capabilities = capabilities
        self.authorized = authorized
        self.problem = problem
    }

    /// Replies typed into the banner itself (else Reply opens the conversation).
    public var inlineReply: Bool { capabilities.contains("inline-reply") }
}
