import Foundation

/// The application service for what notifies (ARCHITECTURE.md, "The application layer"):
/// switching notifications on and off, globally and per account, VIP senders and muted
/// conversations. The `vaultmail` tool and the web app both change them through it, so the
/// same request is accepted or refused the same way, with the same words (issue 28).
///
/// - Switching on (globally or for an account) that is off first asks the notification
///   server for permission (`NotificationPermission`, AC-N-02, E-19, NOTIF-02); refused, the
///   switch stays off and `NotificationSettingsError.permissionRefused` says why. Switching
///   off, or on what is already on, never asks.
/// - A VIP is an email address (`vipAddress`), kept lowercased (AC-N-08).
/// - Only stored conversations can be muted; only muted ones unmuted.
public struct NotificationSettings: Sendable {
    private let settings: SettingsStore
    private let permission: any NotificationPermission
    private let accounts: any AccountRepository
    private let emails: any EmailRepository

    /// - Parameters:
    ///   - permission: the notification engine's question to the notification server.
    ///   - accounts: where an account's switch is checked to belong to an account.
    ///   - emails: where a conversation to mute is checked to exist.
    public init(settings: SettingsStore, permission: any NotificationPermission, accounts: any AccountRepository,
                emails: any EmailRepository) {
        self.settings = settings
        self.permission = permission
        self.accounts = accounts
        self.emails = emails
    }

    // MARK: Switching on and off

    /// The master switch (`vaultmail notify on|off`, Settings → Notifications).
    public func setNotifications(_ on: Bool) async throws {
        try await setNotifications(master: on, accounts: [:])
    }

    /// One account's switch.
    public func setNotifications(_ on: Bool, accountId: String) async throws {
        try await setNotifications(master: nil, accounts: [accountId: on])
    }

    /// Several switches at once (a settings form): the permission is asked at most once, for
    /// all that turn on. Refused, the ones turning off still do, none turns on, and it throws
    /// `.permissionRefused`.
    public func setNotifications(master: Bool?, accounts switches: [String: Bool]) async throws {
        for id in switches.keys {
            guard try await accounts.getAccount(id: id) != nil else { throw AccountError.notFound(id: id) }
        }
        let turningOn = await MainActor.run {
            (master == true && !settings.notificationsEnabled)
                || switches.contains { $0.value && !settings.notificationsEnabled(for: $0.key) }
        }
        var refusal: String?
        if turningOn, case .refused(let reason) = await permission.request() { refusal = reason }
        try await MainActor.run {
            // Refused: what turns off still does, nothing turns on.
            if let master, master != settings.notificationsEnabled, !master || refusal == nil {
                settings.notificationsEnabled = master
            }
            for (id, on) in switches.sorted(by: { $0.key < $1.key }) where on != settings.notificationsEnabled(for: id) && (!on || refusal == nil) {
                settings.setNotificationsEnabled(on, for: id)
            }
            try saved()
        }
        if let refusal { throw NotificationSettingsError.permissionRefused(refusal) }
    }

    /// Every notification setting, with the switches of the accounts `accountIds`.
    public func preferences(accountIds: [String]) async -> NotificationPreferences {
        await MainActor.run {
            NotificationPreferences(
                on: settings.notificationsEnabled, sound: settings.notificationSound,
                accounts: Dictionary(accountIds.map { ($0, settings.notificationsEnabled(for: $0)) }, uniquingKeysWith: { first, _ in first }),
                categories: Dictionary(uniqueKeysWithValues: Self.categories.map { ($0.rawValue, settings.notificationCategoryEnabled(for: $0.rawValue)) }),
                vips: settings.vipContacts.sorted(), mutedThreadIds: settings.mutedThreadIds.sorted(),
                quietHoursOn: settings.quietHoursEnabled, quietHoursStart: settings.quietHoursStart, quietHoursEnd: settings.quietHoursEnd,
                content: settings.notificationContent, watchedThreadIds: settings.watchedThreadIds.sorted())
        }
    }

    /// Whether notifications are on (the master switch).
    public func notificationsOn() async -> Bool {
        await settings.notificationsEnabled
    }

    /// Whether the account's notifications are on (NOTIF-08).
    public func notificationsOn(accountId: String) async -> Bool {
        await settings.notificationsEnabled(for: accountId)
    }

    // MARK: Sound, categories, quiet hours (NOTIF-09, NOTIF-14)

    /// New-mail banners play the desktop's mail sound, or not.
    public func setSound(_ on: Bool) async throws {
        try await MainActor.run {
            if settings.notificationSound != on { settings.notificationSound = on }
            try saved()
        }
    }

    /// The categories a switch exists for (every one but "uncategorized").
    public static let categories = AICategory.allCases.filter { $0 != .uncategorized }

    /// One category's switch; `name` is its raw value, in any case.
    public func setCategory(_ name: String, on: Bool) async throws {
        guard let category = AICategory(rawValue: name.lowercased()), Self.categories.contains(category) else {
            throw NotificationSettingsError.unknownCategory(name, known: Self.categories.map(\.rawValue))
        }
        try await MainActor.run {
            if settings.notificationCategoryEnabled(for: category.rawValue) != on { settings.setNotificationCategory(category.rawValue, enabled: on) }
            try saved()
        }
    }

    /// The one reading of a time of day: `H:MM` or `HH:MM`, 24-hour; minutes since midnight.
    public static func minutes(_ text: String) -> Int? {
        let pieces = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2, let hour = Int(pieces[0]), let minute = Int(pieces[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return hour * 60 + minute
    }

    /// Sets the quiet hours from `start` to `end` (`HH:MM`; overnight when `end` is earlier);
    /// refused, changing nothing, when either is not a time of day or both are the same.
    public func setQuietHours(from start: String, to end: String) async throws {
        guard let from = Self.minutes(start), let to = Self.minutes(end) else {
            throw NotificationSettingsError.invalidQuietHours(Self.minutes(start) == nil ? start : end)
        }
        guard from != to else { throw NotificationSettingsError.emptyQuietHours }
        try await MainActor.run {
            if settings.quietHoursStart != from || settings.quietHoursEnd != to {
                do {
                    try settings.setQuietHours(start: from, end: to)
                } catch {
                    throw NotificationSettingsError.invalidQuietHours("\(start)-\(end)")
                }
            }
            try saved()
        }
    }

    /// Quiet hours on or off (their times stay).
    public func setQuietHoursOn(_ on: Bool) async throws {
        try await MainActor.run {
            if settings.quietHoursEnabled != on { settings.quietHoursEnabled = on }
            try saved()
        }
    }

    // MARK: VIPs (NOTIF-10)

    /// The one rule for a VIP: an email address (as a sender's `From` has it), trimmed and
    /// lowercased.
    public static func vipAddress(_ text: String) throws(NotificationSettingsError) -> String {
        let address = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        do {
            try EmailAddress.validate(address, field: "VIP")
        } catch {
            if case .invalidAddress(_, _, let reason) = error { throw .invalidVIP(text.trimmingCharacters(in: .whitespacesAndNewlines), reason: reason) }
            throw .invalidVIP(text, reason: "\(error)")
        }
        return address
    }

    /// Makes `text` a VIP; returns the address as kept.
    @discardableResult
    public func addVIP(_ text: String) async throws -> String {
        let address = try Self.vipAddress(text)
        try await MainActor.run {
            settings.addVIPContact(address)
            try saved()
        }
        return address
    }

    /// Stops treating `text` as a VIP; returns the address as it was kept.
    @discardableResult
    public func removeVIP(_ text: String) async throws -> String {
        let address = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        try await MainActor.run {
            guard settings.vipContacts.contains(address) else { throw NotificationSettingsError.notVIP(address) }
            settings.removeVIPContact(address)
            try saved()
        }
        return address
    }

    /// The VIPs, sorted.
    /// What both doors say once `address` is a VIP.
    public static func vipAdded(_ address: String) -> String {
        "\(address) is a VIP: their mail always notifies, even in quiet hours or muted threads, once your mail server has authenticated the sender (Why notified? says when it did not)."
    }

    public func vips() async -> [String] {
        await settings.vipContacts.sorted()
    }

    // MARK: Muted conversations (NOTIF-11)

    /// Mutes the conversations; throws, muting none, when one is not stored.
    public func mute(threadIds: [String]) async throws {
        let existing = try await emails.existingThreadIds(among: Set(threadIds))
        if let missing = threadIds.first(where: { !existing.contains($0) }) { throw NotificationSettingsError.noSuchConversation(missing) }
        try await MainActor.run {
            settings.mutedThreadIds.formUnion(threadIds)
            settings.watchedThreadIds.subtract(threadIds)
            try saved()
        }
    }

    /// Unmutes the conversations (stored or not: a muted one may have been deleted since);
    /// throws, unmuting none, when one is not muted.
    public func unmute(threadIds: [String]) async throws {
        try await MainActor.run {
            if let unmuted = threadIds.first(where: { !settings.mutedThreadIds.contains($0) }) {
                throw NotificationSettingsError.notMuted(unmuted)
            }
            settings.mutedThreadIds.subtract(threadIds)
            try saved()
        }
    }

    /// The muted conversations' ids, sorted.
    public func mutedThreadIds() async -> [String] {
        await settings.mutedThreadIds.sorted()
    }

    /// The muted conversations, sorted by id, each with its subject; nil for one no longer
    /// stored (muted, then deleted).
    public func mutedConversations() async throws -> [(id: String, subject: String?)] {
        var muted: [(id: String, subject: String?)] = []
        for id in await mutedThreadIds() {
            muted.append((id, try await emails.getThread(id: id)?.subject))
        }
        return muted
    }

    // MARK: "Notify me" (issue 33)

    /// Marks conversations "notify me": their new mail comes before other mail under the limit
    /// of banners and passes the category switches (not quiet hours: only an authenticated VIP
    /// does). A muted one is unmuted. Throws, marking none, when one is not stored.
    public func watch(threadIds: [String]) async throws {
        let existing = try await emails.existingThreadIds(among: Set(threadIds))
        if let missing = threadIds.first(where: { !existing.contains($0) }) { throw NotificationSettingsError.noSuchConversation(missing) }
        try await MainActor.run {
            settings.watchedThreadIds.formUnion(threadIds)
            settings.mutedThreadIds.subtract(threadIds)
            try saved()
        }
    }

    /// Takes the mark off; throws, changing none, when one is not marked.
    public func unwatch(threadIds: [String]) async throws {
        try await MainActor.run {
            if let unmarked = threadIds.first(where: { !settings.watchedThreadIds.contains($0) }) {
                throw NotificationSettingsError.notWatched(unmarked)
            }
            settings.watchedThreadIds.subtract(threadIds)
            try saved()
        }
    }

    /// The conversations marked "notify me", sorted by id, each with its subject (nil when no
    /// longer stored).
    public func watchedConversations() async throws -> [(id: String, subject: String?)] {
        var watched: [(id: String, subject: String?)] = []
        for id in await settings.watchedThreadIds.sorted() {
            watched.append((id, try await emails.getThread(id: id)?.subject))
        }
        return watched
    }

    // MARK: What a notification shows (issue 33)

    /// Sets the privacy level from `full`, `sender` or `none`.
    @discardableResult
    public func setContent(_ words: String) async throws -> NotificationContentLevel {
        guard let level = NotificationContentLevel(words: words) else { throw NotificationSettingsError.unknownContentLevel(words) }
        try await MainActor.run {
            settings.notificationContent = level
            try saved()
        }
        return level
    }

    // MARK: Which server vouches for VIPs (issue 33)

    /// Sets the authserv-id(s) whose `Authentication-Results` are trusted for the account's mail
    /// (`AuthservTrust`); `auto` or empty goes back to names derived from its IMAP host.
    /// Returns what is trusted now, in words.
    @discardableResult
    public func setAuthservIds(_ text: String, accountName: String) async throws -> String {
        guard let account = try await accounts.getAccount(named: accountName) else {
            throw NotificationSettingsError.noSuchAccount(accountName)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let names = trimmed.lowercased() == "auto" ? [] : trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
        if let bad = names.first(where: { $0.isEmpty || $0.unicodeScalars.contains { !allowed.contains($0) || !$0.isASCII } }) {
            throw NotificationSettingsError.invalidAuthservId(bad.isEmpty ? trimmed : bad)
        }
        return try await MainActor.run {
            settings.setAuthservIds(names.joined(separator: ","), for: account.id)
            try saved()
            return AuthservTrust(imapHost: account.imapHost, configured: settings.authservIds[account.id]).description
        }
    }

    /// What is trusted for the account's mail, in words, and whether it was configured.
    public func authservTrust(accountId: String) async throws -> AuthservTrust? {
        guard let account = try await accounts.getAccount(id: accountId) else { return nil }
        return await AuthservTrust(imapHost: account.imapHost, configured: settings.authservIds[account.id])
    }

    @MainActor
    private func saved() throws(NotificationSettingsError) {
        if let error = settings.lastPersistenceError { throw .notSaved("\(error)") }
    }
}
