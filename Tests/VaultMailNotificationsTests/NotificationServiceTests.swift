import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("NotificationService (NOTIF-01, 16, 17, 18, 19)")
struct NotificationServiceTests {
    @Test("AC-N-02: requestAuthorization asks for alert, badge and sound; the status follows the answer")
    func authorization() async throws {
        let engine = try await EngineFixture()
        #expect(await engine.service.authorizationStatus() == .notDetermined)
        #expect(await engine.service.requestAuthorization())
        #expect(engine.center.authorizationRequests == [[.alert, .badge, .sound]])
        #expect(await engine.service.authorizationStatus() == .authorized)
        engine.center.authorizationGranted = false
        #expect(await !engine.service.requestAuthorization())
        #expect(await engine.service.authorizationStatus() == .denied)
    }

    @Test("E-19 / AC-N-02: the engine's permission asks the server (alert, badge, sound) unless already authorized; a refusal says so")
    func permissionAsksTheServer() async throws {
        let engine = try await EngineFixture()
        let permission = engine.service.permission
        engine.center.authorizationGranted = false
        #expect(await permission.request() == .refused("the notification server did not allow it"))
        #expect(engine.center.authorizationRequests == [[.alert, .badge, .sound]])
        engine.center.authorizationGranted = true
        #expect(await permission.request() == .granted)
        #expect(engine.center.authorizationRequests.count == 2)
        #expect(await permission.request() == .granted)
        #expect(engine.center.authorizationRequests.count == 2, "authorized already: not asked again")
    }

    @Test("AC-N-01: registerCategories registers the one email category")
    func categories() async throws {
        let engine = try await EngineFixture()
        #expect(engine.center.registeredCategories == [NotificationContentBuilder.emailCategory])
    }

    @Test("NOTIF-19: processNewEmails posts a notification for each qualifying email")
    func postsQualifying() async throws {
        let engine = try await EngineFixture()
        let emails = try await engine.emails(0..<3)
        await engine.process(emails)
        #expect(Set(engine.postedEmailIds) == Set(emails.map(\.id)))
        #expect(engine.center.addedRequests.allSatisfy { $0.identifier.hasPrefix("email-") })
    }

    @Test("E-13 / AC-N-13: 500 emails in the first sync raise nothing; the badge still updates")
    func firstLaunch() async throws {
        let engine = try await EngineFixture(firstLaunchDone: false)
        let emails = try await engine.emails(0..<500)
        await engine.process(emails)
        #expect(engine.center.addedRequests.isEmpty)
        #expect(engine.center.currentBadgeCount == 500)
        #expect(try await engine.decision(emails[0])?.rule == .firstLaunch)
    }

    @Test("AC-N-13: after markFirstLaunchComplete, 3 emails received 2 minutes ago notify")
    func afterFirstLaunch() async throws {
        let engine = try await EngineFixture(firstLaunchDone: false)
        await engine.process(try await engine.emails(0..<5))
        engine.coordinator.markFirstLaunchComplete()
        #expect(!engine.service.isFirstLaunch)
        let second = try await engine.emails(10..<13, minutesAgo: { _ in 2 })
        await engine.process(second)
        #expect(Set(engine.postedEmailIds) == Set(second.map(\.id)))
    }

    @Test("E-15 / AC-N-13: background sync suppresses an email 2 hours old, notifies one 50 minutes old")
    func recencyBackground() async throws {
        let engine = try await EngineFixture()
        let old = try await engine.email(1, minutesAgo: 120)
        let recent = try await engine.email(2, minutesAgo: 50)
        await engine.process([old, recent], background: true)
        #expect(engine.postedEmailIds == [recent.id])
        #expect(try await engine.decision(old)?.rule == .recency)
    }

    @Test("E-16: foreground sync suppresses an email 10 minutes old, notifies one 4 minutes old")
    func recencyForeground() async throws {
        let engine = try await EngineFixture()
        let old = try await engine.email(1, minutesAgo: 10)
        let recent = try await engine.email(2, minutesAgo: 4)
        await engine.process([old, recent], background: false)
        #expect(engine.postedEmailIds == [recent.id])
    }

    @Test("E-14 / AC-N-13: 15 qualifying emails post the 10 most recent by dateReceived; 5 are badge-only")
    func batchCap() async throws {
        let engine = try await EngineFixture()
        let emails = try await engine.emails(0..<15, minutesAgo: { n in Double(n) * 0.2 })
        await engine.process(emails.shuffled())
        let newest = emails.sorted { $0.dateReceived > $1.dateReceived }.prefix(10).map(\.id)
        #expect(engine.postedEmailIds == Array(newest))
        #expect(engine.center.currentBadgeCount == 15)
        let capped = try await engine.decision(emails[14])
        #expect(capped?.outcome == .badgeOnly)
        #expect(capped?.rule == .batchLimit)
    }

    @Test("E-11 / AC-N-10: the same email from two folders or two syncs notifies once")
    func dedup() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1, in: [.inbox, .starred])
        await engine.process([email, email])
        await engine.process([email])
        #expect(engine.postedEmailIds == [email.id])
    }

    @Test("NOTIF-17: two syncs delivering the same email at the same moment notify once")
    func dedupConcurrent() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1)
        async let first: Void = engine.process([email])
        async let second: Void = engine.process([email])
        _ = await (first, second)
        #expect(engine.postedEmailIds == [email.id])
    }

    @Test("AC-N-10: after a relaunch the dedup set is rebuilt from the centre's delivered notifications")
    func dedupRebuiltFromCenter() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1)
        engine.center.preload(NotificationContentBuilder.request(for: email))
        await engine.service.rebuildDeliveredNotificationIds()
        await engine.process([email])
        #expect(engine.center.addedRequests.isEmpty)
    }

    @Test("Restart the notification server did not survive: the ledger still prevents a second announcement")
    func dedupAcrossRestartViaLedger() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1)
        await engine.process([email])
        // A new service (process restart) over the same ledger, with an empty centre.
        let restarted = NotificationService(
            center: MockNotificationCenter(), settingsStore: engine.settings, emailRepository: engine.repository,
            filterPipeline: .standard(settings: engine.settings, clock: engine.clock), ledger: engine.ledger, clock: engine.clock)
        restarted.markFirstLaunchComplete()
        await restarted.processNewEmails([email], fromBackground: false, activeFolderType: nil)
        #expect(restarted.deliveredNotificationIds.contains(email.id))
        #expect(try await engine.decision(email)?.outcome == .notified)
    }

    @Test("AC-N-26 / E-23: the dedup set evicts its oldest entry past 10,000 and only then")
    func dedupCapacity() {
        var ids = DeliveredNotificationIds(capacity: 10_000)
        for n in 0..<10_000 { ids.insert("e\(n)") }
        #expect(ids.count == 10_000)
        #expect(ids.contains("e0"))
        ids.insert("e10000")
        #expect(ids.count == 10_000)
        #expect(!ids.contains("e0"))
        #expect(ids.contains("e1"))
        #expect(ids.contains("e10000"))
        for n in 10_001..<30_000 { ids.insert("e\(n)") }
        #expect(ids.count == 10_000)
        #expect(ids.orderedIds.first == "e20000")
    }

    @Test("NOTIF-18: removeNotifications(forEmailIds:) removes email-<id> identifiers")
    func removeByEmailIds() async throws {
        let engine = try await EngineFixture()
        await engine.service.removeNotifications(forEmailIds: ["a", "b"])
        #expect(engine.center.removedIdentifiers == ["email-a", "email-b"])
        #expect(engine.center.removedPendingIdentifiers == ["email-a", "email-b"])
    }

    @Test("NOTIF-18: removeNotifications(forThreadId:) removes that thread's notifications only")
    func removeByThread() async throws {
        let engine = try await EngineFixture()
        let a1 = try await engine.email(1, thread: "A")
        let a2 = try await engine.email(2, thread: "A")
        let b = try await engine.email(3, thread: "B")
        await engine.process([a1, a2, b])
        await engine.service.removeNotifications(forThreadId: "A")
        #expect(Set(engine.center.removedIdentifiers) == ["email-\(a1.id)", "email-\(a2.id)"])
        #expect(await engine.center.deliveredNotifications().map(\.request.content.userInfo.emailId) == [b.id])
    }

    @Test("AC-N-09: the badge is the inbox-only unread count: 50, not 70; 0 when all is read")
    func badge() async throws {
        let engine = try await EngineFixture()
        for n in 0..<50 { try await engine.email(n, minutesAgo: 600) }
        for n in 50..<60 { try await engine.email(n, in: [.archive], minutesAgo: 600) }
        for n in 60..<70 { try await engine.email(n, in: [.spam], minutesAgo: 600) }
        await engine.service.updateBadgeCount()
        #expect(engine.center.currentBadgeCount == 50)
        #expect(engine.service.badgeCount == 50)
        let all = try await engine.repository.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 100)
        _ = await engine.repository.markThreadsRead(ids: all.threads.map(\.id))
        await engine.service.updateBadgeCount()
        #expect(engine.center.currentBadgeCount == 0)
    }

    @Test("NOTIF-19: activeFolderType suppresses banners for that folder type; the badge still updates")
    func activeFolder() async throws {
        let engine = try await EngineFixture()
        let inbox = try await engine.email(1)
        await engine.process([inbox], activeFolder: FolderType.inbox.rawValue)
        #expect(engine.center.addedRequests.isEmpty)
        #expect(engine.center.currentBadgeCount == 1)
        #expect(try await engine.decision(inbox)?.outcome == .badgeOnly)
    }

    @Test("NOTIF-19: activeFolderType suppresses across all accounts' inboxes (unified inbox)")
    func activeFolderUnified() async throws {
        let engine = try await EngineFixture()
        let otherFolders = MailFixtures.standardFolders(accountId: "acct-home")
        try await engine.repository.saveFolders(otherFolders)
        let work = try await engine.email(1)
        var home = MailFixtures.email(accountId: "acct-home", number: 2, date: engine.clock.now.addingTimeInterval(-30))
        home = try await engine.repository.saveEmails([MailFixtures.incoming(home, in: [otherFolders.of(.inbox)])])[0]
        await engine.process([work, home], activeFolder: "inbox")
        #expect(engine.center.addedRequests.isEmpty)
        await engine.process([try await engine.email(3, in: [.inbox])], activeFolder: "sent")
        #expect(engine.center.addedRequests.count == 1)
    }

    @Test("E-24: mail for the conversation on screen raises no banner; other threads still do")
    func viewingThread() async throws {
        let engine = try await EngineFixture()
        await engine.coordinator.threadOpened("T-open")
        let onScreen = try await engine.email(1, thread: "T-open")
        let other = try await engine.email(2, thread: "T-other")
        await engine.process([onScreen, other])
        #expect(engine.postedEmailIds == [other.id])
        #expect(try await engine.decision(onScreen)?.rule == .viewingThread)
        engine.coordinator.threadClosed("T-open")
        await engine.process([try await engine.email(3, thread: "T-open")])
        #expect(engine.postedEmailIds.count == 2)
    }

    @Test("The master switch off: nothing posts, each decision says so, the badge updates")
    func masterSwitch() async throws {
        let engine = try await EngineFixture()
        engine.settings.notificationsEnabled = false
        let email = try await engine.email(1)
        await engine.process([email])
        #expect(engine.center.addedRequests.isEmpty)
        #expect(try await engine.decision(email)?.rule == .notificationsOff)
        #expect(engine.center.currentBadgeCount == 1)
    }

    @Test("A centre that cannot post: the failure is recorded, the badge still updates, and a later post works")
    func centerUnavailable() async throws {
        let engine = try await EngineFixture()
        engine.center.addError = MockNotificationCenter.Unavailable()
        let first = try await engine.email(1)
        await engine.process([first])
        #expect(try await engine.decision(first)?.outcome == .failed)
        #expect(engine.service.lastError?.contains("org.freedesktop.Notifications") == true)
        #expect(engine.center.currentBadgeCount == 1)
        engine.center.addError = nil
        let second = try await engine.email(2)
        await engine.process([second])
        #expect(engine.postedEmailIds == [second.id])
    }

    @Test("Every evaluated email gets exactly one decision naming its rule")
    func decisionLog() async throws {
        let engine = try await EngineFixture()
        engine.settings.toggleMuteThread(threadId: "muted")
        let good = try await engine.email(1)
        let spam = try await engine.email(2, spamFlagged: true)
        let muted = try await engine.email(3, thread: "muted")
        let sent = try await engine.email(4, in: [.sent])
        await engine.process([good, spam, muted, sent])
        var rules: [NotificationRule?] = []
        for email in [good, spam, muted, sent] { rules.append(try await engine.decision(email)?.rule) }
        #expect(rules == [.allFilters, .spam, .mutedThread, .folderType])
        #expect(await engine.ledger.all.count == 4)
    }

    @Test("E-21: muted ids of threads that no longer exist are cleaned up; live ones stay")
    func mutedCleanup() async throws {
        let engine = try await EngineFixture()
        try await engine.email(1, thread: "alive")
        engine.settings.toggleMuteThread(threadId: "alive")
        engine.settings.toggleMuteThread(threadId: "gone")
        await engine.service.cleanUpMutedThreads()
        #expect(engine.settings.mutedThreadIds == ["alive"])
    }

    @Test("Mail read, archived or deleted elsewhere withdraws its notification and updates the badge")
    func withdrawStale() async throws {
        let engine = try await EngineFixture()
        let read = try await engine.email(1, thread: "R")
        let archived = try await engine.email(2, thread: "A")
        let deleted = try await engine.email(3, thread: "D")
        let untouched = try await engine.email(4, thread: "U")
        await engine.process([read, archived, deleted, untouched])
        #expect(engine.center.currentBadgeCount == 4)
        try await engine.repository.setEmailsRead(ids: [read.id], isRead: true)
        try await engine.repository.archiveThread(id: "A")
        try await engine.repository.deleteThread(id: "D")
        try await engine.repository.deleteThread(id: "D")
        let withdrawn = await engine.service.withdrawStaleNotifications()
        #expect(Set(withdrawn) == [read.id, archived.id, deleted.id])
        #expect(await engine.center.deliveredNotifications().map(\.request.content.userInfo.emailId) == [untouched.id])
        #expect(engine.center.currentBadgeCount == 1)
        #expect(await engine.service.withdrawStaleNotifications().isEmpty)
    }

    @Test("An empty sync changes nothing but the badge")
    func emptySync() async throws {
        let engine = try await EngineFixture()
        try await engine.email(1)
        await engine.process([])
        #expect(engine.center.addedRequests.isEmpty)
        #expect(engine.center.badgeHistory == [1])
    }
}
