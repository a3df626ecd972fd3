import Foundation
import Observation
import VaultMailCore

/// NOTIF-01: decides which new mail notifies, posts it, removes it when mail changes, and
/// keeps the badge. Every email it evaluates gets one recorded decision (`NotificationLedger`).
///
/// The flow of §5.3: first-launch suppression → master switch → already read (issue 34) →
/// recency → filter pipeline →
/// dedup (this session's set and the durable ledger) → thread on screen → the cap of 10
/// newest → folder on screen → post → badge. Batches are processed one at a time, so the same
/// email arriving from two syncs at once is announced once.
///
/// It decides both banners: the desktop one it posts, and the in-app one an open app shows
/// (the sibling story: also when the app is open, no desktop permission needed), which
/// `processNewEmails` returns. Mail of the conversation on screen gets neither (S3.4-AC5); mail
/// of the folder on screen gets only the in-app one (AC-N-12).
@MainActor
@Observable
public final class NotificationService: NotificationServiceProtocol {
    /// True until the first sync of the session completes (NOTIF-19 anti-flood).
    public private(set) var isFirstLaunch = true
    public private(set) var badgeCount = 0
    /// The last failure talking to the centre or the store, for status displays.
    public private(set) var lastError: String?
    /// The conversation on screen: its mail never raises a banner.
    public var viewingThreadId: String?
    /// The list on screen, as a front end reports it: its mail gets the in-app banner only,
    /// like mail of a caller's `activeFolderType`.
    public var folderOnScreen: FolderOnScreen?
    public private(set) var deliveredNotificationIds = DeliveredNotificationIds(capacity: AppConstants.maxDeliveredNotificationIds)

    @ObservationIgnored private let center: any NotificationCenterProviding
    @ObservationIgnored private let settings: SettingsStore
    @ObservationIgnored private let emailRepository: any EmailRepository
    @ObservationIgnored private let filterPipeline: NotificationFilterPipeline
    @ObservationIgnored private let ledger: any NotificationLedger
    @ObservationIgnored private let clock: any WallClock
    @ObservationIgnored private let queue = SerialTaskQueue()

    public init(
        center: any NotificationCenterProviding,
        settingsStore: SettingsStore,
        emailRepository: any EmailRepository,
        filterPipeline: NotificationFilterPipeline,
        ledger: any NotificationLedger,
        clock: any WallClock
    ) {
        self.center = center
        self.settings = settingsStore
        self.emailRepository = emailRepository
        self.filterPipeline = filterPipeline
        self.ledger = ledger
        self.clock = clock
    }

    // MARK: - Authorization and categories (NOTIF-02, NOTIF-03)

    public func requestAuthorization() async -> Bool {
        do {
            return try await center.requestAuthorization(options: NotificationServerPermission.options)
        } catch {
            lastError = "could not ask for notification permission: \(error)"
            return false
        }
    }

    public func authorizationStatus() async -> NotificationAuthStatus {
        await center.authorizationStatus()
    }

    /// The permission rule `NotificationSettings` asks before switching notifications on
    /// (E-19 / AC-N-02), over this engine's notification centre.
    public var permission: NotificationServerPermission {
        NotificationServerPermission(center: center)
    }

    public func registerCategories() async {
        await center.setNotificationCategories([NotificationContentBuilder.emailCategory])
    }

    public func markFirstLaunchComplete() {
        isFirstLaunch = false
    }

    /// Rebuilds this session's dedup set from what the centre still shows (NOTIF-17).
    public func rebuildDeliveredNotificationIds() async {
        for notification in await center.deliveredNotifications() {
            if let id = NotificationRequest.emailId(fromIdentifier: notification.request.identifier) {
                deliveredNotificationIds.insert(id)
            }
        }
    }

    // MARK: - New mail (§5.3)

    /// Decides and posts the desktop banners for new mail; returns what the open app shows as
    /// in-app banners, newest first: the mail announced, whether its desktop banner was posted
    /// or held back because its folder is on screen (`activeFolderType`, or `folderOnScreen`).
    @discardableResult
    public func processNewEmails(_ emails: [Email], fromBackground: Bool, activeFolderType: String?) async -> [NotificationContent] {
        await queue.run { await self.process(emails, fromBackground: fromBackground, activeFolderType: activeFolderType) }
    }

    private func process(_ batch: [Email], fromBackground: Bool, activeFolderType: String?) async -> [NotificationContent] {
        var seen = Set<String>()
        let emails = batch.filter { seen.insert($0.id).inserted }
        guard !emails.isEmpty else {
            await updateBadgeCount()
            return []
        }
        let now = clock.now
        var decisions: [NotificationDecision] = []
        func decide(_ email: Email, _ outcome: NotificationOutcome, _ rule: NotificationRule, _ detail: String? = nil) {
            decisions.append(NotificationDecision(email: email, decidedAt: now, outcome: outcome, rule: rule, detail: detail))
        }

        let candidates = await qualifying(emails, fromBackground: fromBackground, now: now, decide: decide)
        let fresh = await withoutDuplicates(candidates, decide: decide)

        var banners: [(Email, NotificationRule)] = []
        var inApp: [NotificationContent] = []
        for (email, rule) in fresh.sorted(by: { $0.0.dateReceived > $1.0.dateReceived }) {
            if let viewingThreadId, email.threadId == viewingThreadId {
                decide(email, .badgeOnly, .viewingThread)
            } else if inApp.count >= AppConstants.maxNotificationsPerSync {
                decide(email, .badgeOnly, .batchLimit)
            } else if email.folderTypes.contains(where: { $0.rawValue == activeFolderType }) || folderOnScreen?.shows(email) == true {
                decide(email, .badgeOnly, .activeFolder)
                inApp.append(NotificationContentBuilder.build(from: email))
            } else {
                banners.append((email, rule))
                inApp.append(NotificationContentBuilder.build(from: email))
            }
        }
        for (email, rule) in banners {
            do {
                var request = NotificationContentBuilder.request(for: email)
                if !settings.notificationSound { request.content.sound = .none }
                try await center.add(request)
                decide(email, .notified, rule)
            } catch {
                deliveredNotificationIds.remove(email.id)
                lastError = "could not post a notification: \(error)"
                decide(email, .failed, .centerUnavailable, "\(error)")
            }
        }
        await record(decisions)
        await updateBadgeCount()
        return inApp
    }

    /// Mail that came back from Snoozed (issue 33): announced like new mail by the master switch
    /// and the filter pipeline (quiet hours, muted, VIPs, accounts, categories), the thread and
    /// folder on screen and the cap, but not held back for its age or as a duplicate (it was
    /// announced when it first arrived). Each decision says "snoozed until … came back"
    /// (`notify why`) and replaces the one recorded when it arrived. `snoozedUntil`: email id →
    /// the time it was snoozed until.
    @discardableResult
    public func processComeBack(_ emails: [Email], snoozedUntil: [String: Date]) async -> [NotificationContent] {
        await queue.run { await self.comeBack(emails, snoozedUntil: snoozedUntil) }
    }

    private func comeBack(_ batch: [Email], snoozedUntil: [String: Date]) async -> [NotificationContent] {
        var seen = Set<String>()
        let emails = batch.filter { seen.insert($0.id).inserted }
        let now = clock.now
        var decisions: [NotificationDecision] = []
        func decide(_ email: Email, _ outcome: NotificationOutcome, _ rule: NotificationRule, _ extra: String? = nil) {
            let until = snoozedUntil[email.id].map { "snoozed until \(Self.localTime($0, timeZone: clock.timeZone)) came back" }
                ?? "came back from Snoozed"
            decisions.append(NotificationDecision(email: email, decidedAt: now, outcome: outcome, rule: rule,
                                                  detail: [until, extra].compactMap { $0 }.joined(separator: "; ")))
        }
        var inApp: [NotificationContent] = []
        var banners: [(Email, NotificationRule)] = []
        for email in emails.sorted(by: { $0.dateReceived > $1.dateReceived }) {
            guard settings.notificationsEnabled else {
                decide(email, .suppressed, .notificationsOff)
                continue
            }
            let rule: NotificationRule
            switch await filterPipeline.evaluate(email) {
            case .suppress(let filter):
                decide(email, .suppressed, filter)
                continue
            case .notify(let filter): rule = filter == .vip ? .vip : .snoozeEnded
            }
            deliveredNotificationIds.insert(email.id)
            if let viewingThreadId, email.threadId == viewingThreadId {
                decide(email, .badgeOnly, .viewingThread)
            } else if inApp.count >= AppConstants.maxNotificationsPerSync {
                decide(email, .badgeOnly, .batchLimit)
            } else if folderOnScreen?.shows(email) == true {
                decide(email, .badgeOnly, .activeFolder)
                inApp.append(NotificationContentBuilder.build(from: email))
            } else {
                banners.append((email, rule))
                inApp.append(NotificationContentBuilder.build(from: email))
            }
        }
        for (email, rule) in banners {
            do {
                var request = NotificationContentBuilder.request(for: email)
                if !settings.notificationSound { request.content.sound = .none }
                try await center.add(request)
                decide(email, .notified, rule)
            } catch {
                lastError = "could not post a notification: \(error)"
                decide(email, .failed, .centerUnavailable, "\(error)")
            }
        }
        do {
            try await ledger.recordComeBack(decisions)
        } catch {
            lastError = "could not record notification decisions: \(error)"
        }
        await updateBadgeCount()
        return inApp
    }

    /// "2026-12-01 09:00" in `timeZone`.
    static func localTime(_ date: Date, timeZone: TimeZone) -> String {
        Snooze.localText(date, timeZone: timeZone)
    }

    /// First launch, the master switch, recency and the filter pipeline; records why each
    /// rejected email was rejected.
    private func qualifying(
        _ emails: [Email], fromBackground: Bool, now: Date,
        decide: (Email, NotificationOutcome, NotificationRule, String?) -> Void
    ) async -> [(Email, NotificationRule)] {
        if isFirstLaunch {
            emails.forEach { decide($0, .suppressed, .firstLaunch, nil) }
            return []
        }
        if !settings.notificationsEnabled {
            emails.forEach { decide($0, .suppressed, .notificationsOff, nil) }
            return []
        }
        let window = TimeInterval(fromBackground
            ? AppConstants.backgroundNotificationRecencySeconds
            : AppConstants.foregroundNotificationRecencySeconds)
        var passing: [(Email, NotificationRule)] = []
        for email in emails {
            // Mail read before VaultMail first saw it is not news, even from a VIP (issue 34).
            if email.isRead {
                decide(email, .suppressed, .alreadyRead, nil)
                continue
            }
            guard now.timeIntervalSince(email.dateReceived) <= window else {
                decide(email, .suppressed, .recency, nil)
                continue
            }
            switch await filterPipeline.evaluate(email) {
            case .notify(let rule): passing.append((email, rule))
            case .suppress(let rule): decide(email, .suppressed, rule, nil)
            }
        }
        return passing
    }

    /// Drops emails already announced: in this session's set, or in the ledger from an
    /// earlier run. Survivors are reserved in the set before any await, so a concurrent
    /// batch cannot announce them too.
    private func withoutDuplicates(
        _ candidates: [(Email, NotificationRule)],
        decide: (Email, NotificationOutcome, NotificationRule, String?) -> Void
    ) async -> [(Email, NotificationRule)] {
        var fresh: [(Email, NotificationRule)] = []
        for candidate in candidates {
            if deliveredNotificationIds.insert(candidate.0.id) {
                fresh.append(candidate)
            } else {
                decide(candidate.0, .suppressed, .duplicate, nil)
            }
        }
        guard !fresh.isEmpty else { return [] }
        let announced: Set<String>
        do {
            announced = try await ledger.notifiedEmailIds(among: fresh.map(\.0.id))
        } catch {
            lastError = "could not read the notification ledger: \(error)"
            announced = []
        }
        return fresh.filter { email, _ in
            guard announced.contains(email.id) else { return true }
            decide(email, .suppressed, .duplicate, "announced in an earlier session")
            return false
        }
    }

    private func record(_ decisions: [NotificationDecision]) async {
        do {
            try await ledger.record(decisions)
        } catch {
            lastError = "could not record notification decisions: \(error)"
        }
    }

    // MARK: - Removal (NOTIF-18) and badge (NOTIF-16)

    public func removeNotifications(forEmailIds emailIds: [String]) async {
        let identifiers = emailIds.map(NotificationRequest.identifier(forEmailId:))
        await center.removeDeliveredNotifications(withIdentifiers: identifiers)
        await center.removePendingNotificationRequests(withIdentifiers: identifiers)
    }

    public func removeNotifications(forThreadId threadId: String) async {
        let identifiers = await center.deliveredNotifications()
            .filter { $0.request.content.userInfo.threadId == threadId }
            .map(\.request.identifier)
        guard !identifiers.isEmpty else { return }
        await center.removeDeliveredNotifications(withIdentifiers: identifiers)
    }

    public func updateBadgeCount() async {
        do {
            let count = try await emailRepository.getInboxUnreadCount()
            badgeCount = count
            try await center.setBadgeCount(count)
        } catch {
            lastError = "could not update the badge: \(error)"
        }
    }

    /// Withdraws notifications whose mail changed elsewhere (another client, the web mail):
    /// read, moved out of the inbox, or deleted. Run after each sync round; updates the badge.
    /// Returns the email ids withdrawn.
    @discardableResult
    public func withdrawStaleNotifications() async -> [String] {
        var stale: [String] = []
        let emailIds = await center.deliveredNotifications().map(\.request.content.userInfo.emailId).filter { !$0.isEmpty }
        if !emailIds.isEmpty {
            do {
                // One read for all of them (the store reads 500 ids a query).
                let current = Dictionary(try await emailRepository.getEmails(ids: emailIds).map { ($0.id, $0) },
                                         uniquingKeysWith: { first, _ in first })
                stale = emailIds.filter { id in
                    guard let email = current[id] else { return true }
                    return email.isRead || !email.folderTypes.contains(.inbox)
                }
            } catch {
                lastError = "could not check the notifications' emails: \(error)"
            }
        }
        if !stale.isEmpty { await removeNotifications(forEmailIds: stale) }
        await updateBadgeCount()
        return stale
    }

    // MARK: - Housekeeping

    /// E-21: forgets muted thread ids whose threads no longer exist.
    public func cleanUpMutedThreads() async {
        let muted = settings.mutedThreadIds
        guard !muted.isEmpty else { return }
        do {
            let existing = try await emailRepository.existingThreadIds(among: muted)
            if existing != muted { settings.mutedThreadIds = existing }
        } catch {
            lastError = "could not clean up muted threads: \(error)"
        }
    }
}
