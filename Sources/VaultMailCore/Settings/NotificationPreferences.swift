/// What notifies, as the doors show it (`vaultmail notify status`, Settings → Notifications):
/// a snapshot `NotificationSettings.preferences` takes.
public struct NotificationPreferences: Sendable, Equatable {
    /// The master switch.
    public var on: Bool
    public var sound: Bool
    /// Each account's switch, by account id.
    public var accounts: [String: Bool]
    /// Each category's switch, by raw value (every one of `NotificationSettings.categories`).
    public var categories: [String: Bool]
    /// Sorted.
    public var vips: [String]
    /// Sorted.
    public var mutedThreadIds: [String]
    public var quietHoursOn: Bool
    /// Minutes since midnight.
    public var quietHoursStart: Int
    public var quietHoursEnd: Int
    /// What a desktop notification shows (issue 33).
    public var content: NotificationContentLevel
    /// Conversations marked "notify me", sorted (issue 33).
    public var watchedThreadIds: [String]

    public init(on: Bool, sound: Bool, accounts: [String: Bool], categories: [String: Bool], vips: [String], mutedThreadIds: [String],
                quietHoursOn: Bool, quietHoursStart: Int, quietHoursEnd: Int,
                content: NotificationContentLevel = .full, watchedThreadIds: [String] = []) {
        self.content = content
        self.watchedThreadIds = watchedThreadIds
        self.on = on
        self.sound = sound
        self.accounts = accounts
        self.categories = categories
        self.vips = vips
        self.mutedThreadIds = mutedThreadIds
        self.quietHoursOn = quietHoursOn
        self.quietHoursStart = quietHoursStart
        self.quietHoursEnd = quietHoursEnd
    }
}
