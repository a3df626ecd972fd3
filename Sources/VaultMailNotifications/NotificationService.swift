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
        // Replies to the user and conversations marked "notify me" come first under the cap.
        let firsts = await outranking(fresh.map(\.email))

        var banners: [Candidate] = []
        var inApp: [NotificationContent] = []
        for var candidate in Self.ordered(fresh, firsts: firsts) {
            let email = candidate.email
            if let first = firsts[email.id] { candidate.detail = [candidate.detail, first].compactMap { $0 }.joined(separator: "; ") }
            if let viewingThreadId, email.threadId == viewingThreadId {
                decide(email, .badgeOnly, .viewingThread, candidate.detail)
            } else if inApp.count >= AppConstants.maxNotificationsPerSync {
                decide(email, .badgeOnly, .batchLimit, candidate.detail)
            } else if email.folderTypes.contains(where: { $0.rawValue == activeFolderType }) || folderOnScreen?.shows(email) == true {
                decide(email, .badgeOnly, .activeFolder, candidate.detail)
                inApp.append(NotificationContentBuilder.build(from: email))
            } else {
                banners.append(candidate)
                inApp.append(NotificationContentBuilder.build(from: email))
            }
        }
        for candidate in banners {
            let email = candidate.email
            do {
                var request = NotificationContentBuilder.request(for: email, showing: settings.notificationContent)
                if !settings.notificationSound { request.content.sound = .none }
                try await center.add(request)
                decide(email, .notified, candidate.rule, candidate.detail)
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
            let (verdict, note) = await filterPipeline.evaluateExplained(email)
            switch verdict {
            case .suppress(let filter):
                decide(email, .suppressed, filter, note)
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
                var request = NotificationContentBuilder.request(for: email, showing: settings.notificationContent)
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
    ) async -> [Candidate] {
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
        var passing: [Candidate] = []
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
            let (verdict, note) = await filterPipeline.evaluateExplained(email)
            switch verdict {
            case .notify(let rule): passing.append(Candidate(email: email, rule: rule, detail: note))
            case .suppress(let rule): decide(email, .suppressed, rule, note)
            }
        }
        return passing
    }

    /// Drops emails already announced: in this session's set, or in the ledger from an
    /// earlier run. Survivors are reserved in the set before any await, so a concurrent
    /// batch cannot announce them too.
    private func withoutDuplicates(
        _ candidates: [Candidate],
        decide: (Email, NotificationOutcome, NotificationRule, String?) -> Void
    ) async -> [Candidate] {
        var fresh: [Candidate] = []
        for candidate in candidates {
            if deliveredNotificationIds.insert(candidate.email.id) {
                fresh.append(candidate)
            } else {
                decide(candidate.email, .suppressed, .duplicate, nil)
            }
        }
        guard !fresh.isEmpty else { return [] }
        let announced: Set<String>
        do {
            announced = try await ledger.notifiedEmailIds(among: fresh.map(\.email.id))
        } catch {
            lastError = "could not read the notification ledger: \(error)"
            announced = []
        }
        return fresh.filter { candidate in
            guard announced.contains(candidate.email.id) else { return true }
            decide(candidate.email, .suppressed, .duplicate, "announced in an earlier session")
            return false
        }
    }

    /// An email that passed the filters: the rule that let it through and what to add to its
    /// decision (what the server said of a VIP, why it came first).
    struct Candidate {
        var email: Email
        var rule: NotificationRule
        var detail: String?
    }

    /// Newest first, after the ones in `firsts` (newest first too).
    static func ordered(_ candidates: [Candidate], firsts: [String: String]) -> [Candidate] {
        candidates.sorted { a, b in
            let aFirst = firsts[a.email.id] != nil, bFirst = firsts[b.email.id] != nil
            return aFirst != bFirst ? aFirst : a.email.dateReceived > b.email.dateReceived
        }
    }

    /// Mail that comes before the rest under the limit of banners (issue 33), by email id with
    /// the reason: an answer to a message the user sent (its In-Reply-To or References names
    /// one in the conversation's Sent mail), or mail of a conversation marked "notify me".
    private func outranking(_ emails: [Email]) async -> [String: String] {
        var firsts: [String: String] = [:]
        for email in emails {
            if settings.watchedThreadIds.contains(email.threadId) {
                firsts[email.id] = "its conversation is marked \u{201C}notify me\u{201D}, so it came before other mail"
                continue
            }
            let named = Set(([email.inReplyTo] + (email.references ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
                .compactMap { $0?.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) }.filter { !$0.isEmpty })
            guard !named.isEmpty, let thread = try? await emailRepository.getEmails(threadId: email.threadId) else { continue }
            let mine = thread.contains { $0.id != email.id && $0.folderTypes.contains(.sent) && named.contains($0.messageId.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))) }
            if mine { firsts[email.id] = "it answers a message you sent, so it came before other mail" }
        }
        return firsts
    }

    private func record(_ decisions: [NotificationDecision]) async {
        do {
            try await ledger.record(decisions)
        } catch {
            lastError = "could not record notification decisions: \(error)"
        }
    }

    // MARK: - The quiet hours' digest (issue 33)

    /// A digest older than this after its quiet hours ended is not posted (the daemon was not
    /// running then): a morning's summary in the evening is noise.
    public static let quietDigestWindow: TimeInterval = 12 * 3600

    /// Once the quiet hours have ended, one notification for the mail they held back that is
    /// still unread in an inbox: how many, and who wrote (as much as the privacy level shows).
    /// Each quiet period is summed up once, across restarts (`SettingsStore.lastQuietDigest`);
    /// nothing is posted when nothing waits, notifications are off, or the period ended over
    /// 12 hours ago. Returns what was posted. The daemon calls it every minute.
    @discardableResult
    public func postQuietHoursDigest() async -> NotificationContent? {
        await queue.run { await self.quietHoursDigest() }
    }

    private func quietHoursDigest() async -> NotificationContent? {
        guard settings.quietHoursEnabled,
              let period = Self.lastQuietPeriod(before: clock.now, start: settings.quietHoursStart,
                                                end: settings.quietHoursEnd, timeZone: clock.timeZone),
              (settings.lastQuietDigest.map { $0 < period.upperBound } ?? true)
        else { return nil }
        settings.lastQuietDigest = period.upperBound
        guard settings.notificationsEnabled, clock.now.timeIntervalSince(period.upperBound) <= Self.quietDigestWindow else { return nil }
        let held: [NotificationDecision]
        do {
            held = try await ledger.recentDecisions(limit: AppConstants.maxDeliveredNotificationIds)
                .filter { $0.rule == .quietHours && period.contains($0.decidedAt) }
        } catch {
            lastError = "could not read the notification ledger: \(error)"
            return nil
        }
        guard !held.isEmpty, let emails = try? await emailRepository.getEmails(ids: held.map(\.emailId)) else { return nil }
        let waiting = emails.filter { !$0.isRead && $0.folderTypes.contains(.inbox) }
            .sorted { $0.dateReceived > $1.dateReceived }
        guard !waiting.isEmpty else { return nil }
        var request = NotificationContentBuilder.quietHoursDigest(waiting, showing: settings.notificationContent,
                                                                   endedAt: period.upperBound)
        if !settings.notificationSound { request.content.sound = .none }
        do {
            try await center.add(request)
            return request.content
        } catch {
            lastError = "could not post a notification: \(error)"
            return nil
        }
    }

    // MARK: - Follow-up reminders (issue 33)

    /// Posts a reminder for each conversation nobody answered in time (`FollowUp.due`), as much
    /// as the privacy level shows; a click opens the conversation. Returns what was posted.
    @discardableResult
    public func postFollowUps(_ due: [(reminder: FollowUpReminder, email: Email)]) async -> [NotificationContent] {
        var posted: [NotificationContent] = []
        for (reminder, email) in due {
            var request = NotificationContentBuilder.followUp(reminder, email: email, showing: settings.notificationContent, now: clock.now)
            if !settings.notificationSound { request.content.sound = .none }
            do {
                try await center.add(request)
                posted.append(request.content)
            } catch {
                lastError = "could not post a notification: \(error)"
            }
        }
        return posted
    }

    /// The last quiet period that ended at or before `now`: from `start` to `end` minutes after
    /// midnight in `timeZone` (overnight when `end` < `start`); nil for an empty range.
    static func lastQuietPeriod(before now: Date, start: Int, end: Int, timeZone: TimeZone) -> Range<Date>? {
        guard start != end else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.startOfDay(for: now)
        guard var ending = calendar.date(byAdding: .minute, value: end, to: midnight) else { return nil }
        if ending > now, let previous = calendar.date(byAdding: .day, value: -1, to: ending) { ending = previous }
        let length = ((end - start) % 1440 + 1440) % 1440
        guard let beginning = calendar.date(byAdding: .minute, value: -length, to: ending) else { return nil }
        return beginning..<ending
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
        // New-mail notifications only: a follow-up reminder is about mail in Sent.
        let emailIds = await center.deliveredNotifications()
            .filter { $0.request.content.categoryIdentifier == AppConstants.notificationCategoryEmail }
            .map(\.request.content.userInfo.emailId).filter { !$0.isEmpty }
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
