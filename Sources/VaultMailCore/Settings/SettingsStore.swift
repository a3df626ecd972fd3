import Foundation
import Observation

/// The user's preferences (NOTIF-23), loaded from and written through to a `SettingsStorage`
/// on every change, so a change is durable when the setter returns. Defaults are applied
/// for values never set; a stored 0 (midnight) is a real value, distinct from "not set".
@MainActor
@Observable
public final class SettingsStore {
    /// Per-account notification toggles by account id; an absent account is on (NOTIF-08).
    public private(set) var notificationPreferences: [String: Bool]
    /// The master switch (`vaultmail notify on|off`); when off nothing is posted.
    public var notificationsEnabled: Bool {
        didSet { persist(notificationsEnabled, Keys.notificationsEnabled) }
    }
    /// Category raw value → enabled; absent means enabled (NOTIF-09).
    public var notificationCategoryPreferences: [String: Bool] {
        didSet { persist(notificationCategoryPreferences, Keys.categoryPreferences) }
    }
    /// Lowercased addresses whose mail always notifies (NOTIF-10).
    public var vipContacts: Set<String> {
        didSet { persist(vipContacts.sorted(), Keys.vipContacts) }
    }
    /// Threads that never notify (NOTIF-11).
    public var mutedThreadIds: Set<String> {
        didSet { persist(mutedThreadIds.sorted(), Keys.mutedThreadIds) }
    }
    /// Threads marked "notify me" (issue 33): their new mail comes first under the limit of
    /// banners and passes the category switches.
    public var watchedThreadIds: Set<String> {
        didSet { persist(watchedThreadIds.sorted(), Keys.watchedThreadIds) }
    }
    /// What a desktop notification shows (issue 33): sender and subject, the sender only, or
    /// nothing but "New mail".
    public var notificationContent: NotificationContentLevel {
        didSet { persist(notificationContent.rawValue, Keys.notificationContent) }
    }
    /// The account new mail is written from when none is chosen (AC-U-12, `Accounts.defaultAccount`).
    public var defaultAccountId: String? {
        didSet { persist(defaultAccountId, Keys.defaultAccountId) }
    }
    /// Follow-up reminders by thread id (issue 33, `FollowUp`).
    public var followUps: [String: FollowUpReminder] {
        didSet { persist(followUps, Keys.followUps) }
    }
    /// The end of the last quiet hours whose digest was posted (issue 33), so a restart never
    /// posts it twice.
    public var lastQuietDigest: Date? {
        didSet { persist(lastQuietDigest?.timeIntervalSince1970, Keys.lastQuietDigest) }
    }
    public var quietHoursEnabled: Bool {
        didSet { persist(quietHoursEnabled, Keys.quietHoursEnabled) }
    }
    /// Minutes since midnight, 0 ..< 1440 (NOTIF-14). Other values are wrapped into range.
    public var quietHoursStart: Int {
        didSet {
            let wrapped = Self.wrapMinutes(quietHoursStart)
            if wrapped != quietHoursStart { quietHoursStart = wrapped }
            persist(wrapped, Keys.quietHoursStart)
        }
    }
    /// Minutes since midnight, 0 ..< 1440 (NOTIF-14). Other values are wrapped into range.
    public var quietHoursEnd: Int {
        didSet {
            let wrapped = Self.wrapMinutes(quietHoursEnd)
            if wrapped != quietHoursEnd { quietHoursEnd = wrapped }
            persist(wrapped, Keys.quietHoursEnd)
        }
    }
    /// Seconds a sent message waits before it is transmitted, so it can be undone (AC-U-11);
    /// 0 sends at once, negative values become 0.
    public var undoSendDelaySeconds: Int {
        didSet {
            if undoSendDelaySeconds < 0 { undoSendDelaySeconds = 0 }
            persist(max(0, undoSendDelaySeconds), Keys.undoSendDelay)
        }
    }
    /// Lowercased senders whose remote images are shown without asking ("always for this
    /// sender"); everyone else's are blocked until the user asks (tracking pixels).
    public var imageSenders: Set<String> {
        didSet { persist(imageSenders.sorted(), Keys.imageSenders) }
    }
    /// New-mail banners play the desktop's mail sound.
    public var notificationSound: Bool {
        didSet { persist(notificationSound, Keys.notificationSound) }
    }
    /// Each account's signature, by account id (placed above the quote in the composer).
    public private(set) var signatures: [String: String]
    /// Each account's configured authserv-id(s) (`AuthservTrust`), by account id; absent: derived
    /// from its IMAP host.
    public private(set) var authservIds: [String: String]
    /// Opening a conversation marks it read (else only the explicit action does).
    public var markReadOnOpen: Bool {
        didSet { persist(markReadOnOpen, Keys.markReadOnOpen) }
    }
    /// Remote images in mail: never shown, asked for each message, or shown for known senders.
    public var remoteImages: RemoteImagePolicy {
        didSet { persist(remoteImages.rawValue, Keys.remoteImages) }
    }
    public var theme: Theme {
        didSet { persist(theme.rawValue, Keys.theme) }
    }
    public var listDensity: ListDensity {
        didSet { persist(listDensity.rawValue, Keys.listDensity) }
    }
    /// What opens after archiving, deleting or moving the open conversation.
    public var afterTriage: AfterTriage {
        didSet { persist(afterTriage.rawValue, Keys.afterTriage) }
    }
    /// The list is grouped under date headings ("Today", "Yesterday", "Last week", month
    /// names; issue 29). Off by default.
    public var dateHeadings: Bool {
        didSet { persist(dateHeadings, Keys.dateHeadings) }
    }
    /// Conversations of `SummarizeThreadUseCase.automaticMinimumMessages` or more messages are
    /// summarized when opened (AC-A-06); off, only on request.
    public var autoSummarize: Bool {
        didSet { persist(autoSummarize, Keys.autoSummarize) }
    }

    /// The last write that failed, if any; `nil` after a later write succeeds.
    public private(set) var lastPersistenceError: (any Error)?

    @ObservationIgnored private let storage: any SettingsStorage
    /// Set while `reload()` copies stored values in, so they are not written back.
    @ObservationIgnored private var isReloading = false

    public init(storage: any SettingsStorage) {
        self.storage = storage
        let load = Loader(storage: storage)
        notificationPreferences = load.accountValues(Bool.self, Keys.accountNotifications)
        notificationsEnabled = load.value(Keys.notificationsEnabled) ?? true
        notificationCategoryPreferences = load.value(Keys.categoryPreferences) ?? [:]
        vipContacts = Set(load.value([String].self, Keys.vipContacts) ?? [])
        mutedThreadIds = Set(load.value([String].self, Keys.mutedThreadIds) ?? [])
        watchedThreadIds = Set(load.value([String].self, Keys.watchedThreadIds) ?? [])
        followUps = load.value([String: FollowUpReminder].self, Keys.followUps) ?? [:]
        defaultAccountId = load.value(String?.self, Keys.defaultAccountId).flatMap { $0 }
        notificationContent = load.value(String.self, Keys.notificationContent).flatMap(NotificationContentLevel.init(rawValue:)) ?? .full
        lastQuietDigest = load.value(Double?.self, Keys.lastQuietDigest).flatMap { $0 }.map(Date.init(timeIntervalSince1970:))
        quietHoursEnabled = load.value(Keys.quietHoursEnabled) ?? false
        quietHoursStart = load.value(Keys.quietHoursStart).map(Self.wrapMinutes) ?? AppConstants.defaultQuietHoursStart
        quietHoursEnd = load.value(Keys.quietHoursEnd).map(Self.wrapMinutes) ?? AppConstants.defaultQuietHoursEnd
        undoSendDelaySeconds = load.value(Keys.undoSendDelay) ?? AppConstants.defaultUndoSendDelaySeconds
        imageSenders = Set(load.value([String].self, Keys.imageSenders) ?? [])
        signatures = load.accountValues(String.self, Keys.signature)
        authservIds = load.accountValues(String.self, Keys.authservId)
        notificationSound = load.value(Keys.notificationSound) ?? true
        markReadOnOpen = load.value(Keys.markReadOnOpen) ?? true
        remoteImages = load.value(String.self, Keys.remoteImages).flatMap(RemoteImagePolicy.init(rawValue:)) ?? .ask
        theme = load.value(String.self, Keys.theme).flatMap(Theme.init(rawValue:)) ?? .system
        listDensity = load.value(String.self, Keys.listDensity).flatMap(ListDensity.init(rawValue:)) ?? .comfortable
        afterTriage = load.value(String.self, Keys.afterTriage).flatMap(AfterTriage.init(rawValue:)) ?? .older
        dateHeadings = load.value(Keys.dateHeadings) ?? false
        autoSummarize = load.value(Keys.autoSummarize) ?? true
        lastPersistenceError = load.firstError
    }

    // MARK: - Helpers (NOTIF-08 … NOTIF-11)

    public func notificationsEnabled(for accountId: String) -> Bool {
        notificationPreferences[accountId] ?? true
    }

    public func setNotificationsEnabled(_ enabled: Bool, for accountId: String) {
        notificationPreferences[accountId] = enabled
        write { try storage.setAccountValue(try Self.encode(enabled), forKey: Keys.accountNotifications, accountId: accountId) }
    }

    /// Sets (or, empty, removes) an account's signature.
    public func setSignature(_ text: String, for accountId: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        signatures[accountId] = trimmed.isEmpty ? nil : trimmed
        write { try storage.setAccountValue(trimmed.isEmpty ? nil : try Self.encode(trimmed), forKey: Keys.signature, accountId: accountId) }
    }

    /// Sets (or, empty, removes) the authserv-id(s) trusted for an account's mail.
    public func setAuthservIds(_ text: String, for accountId: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        authservIds[accountId] = trimmed.isEmpty ? nil : trimmed
        write { try storage.setAccountValue(trimmed.isEmpty ? nil : try Self.encode(trimmed), forKey: Keys.authservId, accountId: accountId) }
    }

    /// Forgets every setting kept for the account (its notification switch, its signature):
    /// part of removing it (AC-SEC-03), here and in the storage.
    public func forgetAccount(_ accountId: String) {
        notificationPreferences[accountId] = nil
        signatures[accountId] = nil
        authservIds[accountId] = nil
        if defaultAccountId == accountId { defaultAccountId = nil }
        for key in Keys.perAccount {
            write { try storage.setAccountValue(nil, forKey: key, accountId: accountId) }
        }
    }

    /// The account ids any per-account setting is kept for.
    public var accountsWithSettings: Set<String> {
        Set(notificationPreferences.keys).union(signatures.keys).union(authservIds.keys)
    }

    public func notificationCategoryEnabled(for categoryRaw: String) -> Bool {
        notificationCategoryPreferences[categoryRaw] ?? true
    }

    public func setNotificationCategory(_ categoryRaw: String, enabled: Bool) {
        notificationCategoryPreferences[categoryRaw] = enabled
    }

    /// Adds a VIP, stored lowercased so matching is case-insensitive (AC-N-08).
    public func addVIPContact(_ email: String) {
        let normalized = Self.normalizeAddress(email)
        guard !normalized.isEmpty else { return }
        vipContacts.insert(normalized)
    }

    public func removeVIPContact(_ email: String) {
        vipContacts.remove(Self.normalizeAddress(email))
    }

    public func isVIP(_ address: String) -> Bool {
        vipContacts.contains(Self.normalizeAddress(address))
    }

    /// Mutes the thread, or unmutes it when it is muted.
    public func toggleMuteThread(threadId: String) {
        if mutedThreadIds.contains(threadId) {
            mutedThreadIds.remove(threadId)
        } else {
            mutedThreadIds.insert(threadId)
        }
    }

    /// Sets both ends of the quiet hours from minutes since midnight, rejecting values
    /// outside 0 ..< 1440.
    public func setQuietHours(start: Int, end: Int) throws(SettingsError) {
        guard (0..<1440).contains(start), (0..<1440).contains(end) else {
            throw .invalidQuietHours(start: start, end: end)
        }
        quietHoursStart = start
        quietHoursEnd = end
    }

    /// Re-reads every value, taking in what another process (the command line beside a
    /// running daemon) wrote since this store was loaded. Writes nothing.
    public func reload() {
        let stored = SettingsStore(storage: storage)
        isReloading = true
        defer { isReloading = false }
        notificationPreferences = stored.notificationPreferences
        notificationsEnabled = stored.notificationsEnabled
        notificationCategoryPreferences = stored.notificationCategoryPreferences
        vipContacts = stored.vipContacts
        mutedThreadIds = stored.mutedThreadIds
        watchedThreadIds = stored.watchedThreadIds
        followUps = stored.followUps
        defaultAccountId = stored.defaultAccountId
        notificationContent = stored.notificationContent
        lastQuietDigest = stored.lastQuietDigest
        quietHoursEnabled = stored.quietHoursEnabled
        quietHoursStart = stored.quietHoursStart
        quietHoursEnd = stored.quietHoursEnd
        undoSendDelaySeconds = stored.undoSendDelaySeconds
        imageSenders = stored.imageSenders
        signatures = stored.signatures
        authservIds = stored.authservIds
        notificationSound = stored.notificationSound
        markReadOnOpen = stored.markReadOnOpen
        remoteImages = stored.remoteImages
        theme = stored.theme
        listDensity = stored.listDensity
        afterTriage = stored.afterTriage
        dateHeadings = stored.dateHeadings
        autoSummarize = stored.autoSummarize
    }

    /// Puts every setting back to its default and forgets every stored value.
    public func resetAll() {
        write { try storage.removeAll() }
        notificationPreferences = [:]
        notificationsEnabled = true
        notificationCategoryPreferences = [:]
        vipContacts = []
        mutedThreadIds = []
        watchedThreadIds = []
        followUps = [:]
        defaultAccountId = nil
        notificationContent = .full
        lastQuietDigest = nil
        quietHoursEnabled = false
        quietHoursStart = AppConstants.defaultQuietHoursStart
        quietHoursEnd = AppConstants.defaultQuietHoursEnd
        undoSendDelaySeconds = AppConstants.defaultUndoSendDelaySeconds
        imageSenders = []
        signatures = [:]
        authservIds = [:]
        notificationSound = true
        markReadOnOpen = true
        remoteImages = .ask
        theme = .system
        listDensity = .comfortable
        afterTriage = .older
        dateHeadings = false
        autoSummarize = true
    }

    /// Shows remote images of `address`'s mail from now on.
    public func allowImages(from address: String) {
        let normalized = Self.normalizeAddress(address)
        guard !normalized.isEmpty else { return }
        imageSenders.insert(normalized)
    }

    public func allowsImages(from address: String) -> Bool {
        imageSenders.contains(Self.normalizeAddress(address))
    }

    // MARK: - Persistence

    enum Keys {
        static let accountNotifications = "notificationsEnabledForAccount"
        static let notificationsEnabled = "notificationsEnabled"
        static let categoryPreferences = "notifCategoryPreferences"
        static let vipContacts = "vipContacts"
        static let mutedThreadIds = "mutedThreadIds"
        static let quietHoursEnabled = "quietHoursEnabled"
        static let quietHoursStart = "quietHoursStart"
        static let quietHoursEnd = "quietHoursEnd"
        static let undoSendDelay = "undoSendDelaySeconds"
        static let imageSenders = "imageSenders"
        static let signature = "signature"
        static let notificationSound = "notificationSound"
        static let markReadOnOpen = "markReadOnOpen"
        static let remoteImages = "remoteImages"
        static let theme = "theme"
        static let listDensity = "listDensity"
        static let afterTriage = "afterTriage"
        static let dateHeadings = "dateHeadings"
        static let autoSummarize = "autoSummarize"
        /// Every key kept per account (`setAccountValue`): what `forgetAccount` removes.
        static let watchedThreadIds = "watchedThreadIds"
        static let followUps = "followUps"
        static let defaultAccountId = "defaultAccountId"
        static let notificationContent = "notificationContent"
        static let lastQuietDigest = "lastQuietDigest"
        static let authservId = "authservId"
        static let perAccount = [accountNotifications, signature, authservId]
    }

    private func persist<T: Encodable>(_ value: T, _ key: String) {
        guard !isReloading else { return }
        write { try storage.setValue(try Self.encode(value), forKey: key) }
    }

    private func write(_ body: () throws -> Void) {
        do {
            try body()
            lastPersistenceError = nil
        } catch {
            lastPersistenceError = error
        }
    }

    private static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    static func normalizeAddress(_ address: String) -> String {
        address.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    static func wrapMinutes(_ minutes: Int) -> Int {
        ((minutes % 1440) + 1440) % 1440
    }

    /// Reads stored values, remembering the first failure instead of stopping.
    private final class Loader {
        let storage: any SettingsStorage
        var firstError: (any Error)?

        init(storage: any SettingsStorage) { self.storage = storage }

        func value<T: Decodable>(_ key: String) -> T? { value(T.self, key) }

        func value<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
            do {
                guard let data = try storage.value(forKey: key) else { return nil }
                return try JSONDecoder().decode(T.self, from: data)
            } catch {
                firstError = firstError ?? error
                return nil
            }
        }

        func accountValues<T: Decodable>(_ type: T.Type, _ key: String) -> [String: T] {
            do {
                return try storage.accountValues(forKey: key).compactMapValues {
                    try? JSONDecoder().decode(T.self, from: $0)
                }
            } catch {
                firstError = firstError ?? error
                return [:]
            }
        }
    }
}

/// Invalid settings input, with what was wrong.
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidQuietHours(start: Int, end: Int)
    /// The storage refused the write (the store is read-only, the disk full).
    case notSaved(String)

    public var description: String {
        switch self {
        case .invalidQuietHours(let start, let end):
            "quiet hours must be minutes since midnight between 0 and 1439, got \(start)–\(end)"
        case .notSaved(let reason):
            "the setting could not be saved: \(reason)"
        }
    }
}
