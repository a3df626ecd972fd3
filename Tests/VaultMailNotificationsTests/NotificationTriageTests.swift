import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

/// Issue 33's notifications that know what matters: VIPs only when authenticated, replies and
/// "notify me" conversations first under the limit, privacy levels, the quiet hours' digest.
@Suite("Notifications that know what matters (issue 33)")
@MainActor
struct NotificationTriageTests {
    /// The fixture's clock is 2026-01-15 12:00 UTC: quiet hours 11:00–13:00 hold it.
    func quietNow(_ f: EngineFixture) throws {
        f.settings.quietHoursEnabled = true
        try f.settings.setQuietHours(start: 11 * 60, end: 13 * 60)
    }

    func store(_ f: EngineFixture, _ email: Email, authenticationResults: [String]) async {
        let head = authenticationResults.map { "Authentication-Results: \($0)\r\n" }.joined()
        await f.sources.store(Array("\(head)From: <\(email.fromAddress)>\r\nSubject: \(email.subject)\r\n\r\nHello\r\n".utf8), emailId: email.id)
    }

    @Test("A VIP breaks through quiet hours only when the trusted server authenticated the sender, and `why` says so")
    func vipNeedsAuthentication() async throws {
        let f = try await EngineFixture()
        try quietNow(f)
        f.settings.addVIPContact("boss@corp.example")
        f.settings.setAuthservIds("mx.example.com", for: "acct-work")
        let real = try await f.email(1, from: "boss@corp.example")
        await store(f, real, authenticationResults: ["mx.example.com; dkim=pass header.d=corp.example; spf=pass smtp.mailfrom=corp.example"])
        let forged = try await f.email(2, from: "boss@corp.example")
        await store(f, forged, authenticationResults: [
            "mx.example.com; dkim=none; spf=fail smtp.mailfrom=corp.example", "corp.example; dkim=pass header.d=corp.example"])
        let bare = try await f.email(3, from: "boss@corp.example")
        await store(f, bare, authenticationResults: [])
        await f.process([real, forged, bare])

        #expect(f.postedEmailIds == [real.id])
        let notified = try #require(try await f.decision(real))
        #expect(notified.rule == .vip)
        #expect(notified.detail?.contains("authenticated by mx.example.com: dkim=pass header.d=corp.example") == true)
        let refused = try #require(try await f.decision(forged))
        #expect(refused.outcome == .suppressed)
        #expect(refused.rule == .quietHours)
        #expect(refused.detail?.contains("not authenticated by mx.example.com") == true)
        #expect(refused.detail?.contains("treated like anyone's mail") == true)
        #expect(try await f.decision(bare)?.detail?.contains("no Authentication-Results from mx.example.com") == true)
    }

    @Test("Without a configured server, a VIP's mail without trusted results still notifies, marked as not checked")
    func vipUncheckedWhenServerUnknown() async throws {
        let f = try await EngineFixture()
        try quietNow(f)
        f.settings.addVIPContact("boss@corp.example")
        let mail = try await f.email(1, from: "boss@corp.example")
        await store(f, mail, authenticationResults: ["elsewhere.example; dkim=pass header.d=corp.example"])
        await f.process([mail])
        #expect(f.postedEmailIds == [mail.id])
        #expect(try await f.decision(mail)?.detail?.contains("could not be checked") == true)
    }

    @Test("A reply to mail the user sent comes before newer mail under the limit of 10 banners")
    func repliesFirst() async throws {
        let f = try await EngineFixture()
        var sent = MailFixtures.email(accountId: "acct-work", number: 100, threadId: "t-asked", from: "work@example.com",
                                      date: f.clock.now.addingTimeInterval(-3600))
        sent.messageId = "<asked@example.com>"
        _ = try await f.repository.saveEmails([MailFixtures.incoming(sent, in: [f.folders.of(.sent)])])
        var reply = MailFixtures.email(accountId: "acct-work", number: 101, threadId: "t-asked",
                                       date: f.clock.now.addingTimeInterval(-4 * 60))
        reply.inReplyTo = "<asked@example.com>"
        reply.references = "<asked@example.com>"
        let storedReply = try #require(try await f.repository.saveEmails([MailFixtures.incoming(reply, in: [f.folders.of(.inbox)])]).first)
        let newer = try await f.emails(1..<12, minutesAgo: { 3 - Double($0) * 0.2 })
        await f.process(newer + [storedReply])

        #expect(f.postedEmailIds.count == AppConstants.maxNotificationsPerSync)
        #expect(f.postedEmailIds.first == storedReply.id, "the reply came first though it is the oldest")
        #expect(try await f.decision(storedReply)?.detail?.contains("answers a message you sent") == true)
        #expect(try await f.decision(newer[0])?.rule == .batchLimit, "the oldest of the rest gave way")
    }

    @Test("A conversation marked notify me passes its category's switch and comes first; muting takes the mark off")
    func notifyMe() async throws {
        let f = try await EngineFixture()
        f.settings.setNotificationCategory(AICategory.forums.rawValue, enabled: false)
        let list = try await f.email(1, minutesAgo: 4, thread: "t-list", category: .forums)
        let service = NotificationSettings(settings: f.settings, permission: GrantingPermission(), accounts: f.accounts, emails: f.repository)
        try await service.watch(threadIds: ["t-list"])
        let others = try await f.emails(2..<13)
        await f.process(others + [list])
        #expect(f.postedEmailIds.first == list.id)
        #expect(try await f.decision(list)?.detail?.contains("notify me") == true)

        try await service.mute(threadIds: ["t-list"])
        #expect(!f.settings.watchedThreadIds.contains("t-list"))
        await #expect(throws: NotificationSettingsError.notWatched("t-list")) { try await service.unwatch(threadIds: ["t-list"]) }
        await #expect(throws: NotificationSettingsError.noSuchConversation("t-nothing")) { try await service.watch(threadIds: ["t-nothing"]) }
    }

    @Test("Privacy levels: the sender only, or nothing but New mail; no suggested replies' text either way")
    func privacyLevels() async throws {
        let f = try await EngineFixture()
        let service = NotificationSettings(settings: f.settings, permission: GrantingPermission(), accounts: f.accounts, emails: f.repository)
        try await service.setContent("sender")
        let first = try await f.email(1, fromName: "Ada Lovelace", subject: "Salary review", snippet: "Your new salary is")
        await f.process([first])
        let shown = try #require(f.center.addedRequests.last?.content)
        #expect((shown.title, shown.subtitle, shown.body) == ("Ada Lovelace", "New message", ""))

        try await service.setContent("none")
        let second = try await f.email(2, fromName: "Ada Lovelace", subject: "Salary review")
        await f.process([second])
        let hidden = try #require(f.center.addedRequests.last?.content)
        #expect((hidden.title, hidden.subtitle, hidden.body) == ("New mail", "", ""))
        #expect(hidden.userInfo.emailId == second.id, "its actions still act on the mail")

        await #expect(throws: NotificationSettingsError.unknownContentLevel("loud")) { try await service.setContent("loud") }
        #expect(f.settings.notificationContent == NotificationContentLevel.none)
    }

    @Test("When quiet hours end, one notification sums up what they held back and is still unread; never twice")
    func quietHoursDigest() async throws {
        let f = try await EngineFixture()
        f.settings.quietHoursEnabled = true
        try f.settings.setQuietHours(start: 22 * 60, end: 7 * 60)
        let night = MailFixtures.referenceDate.addingTimeInterval(11 * 3600) // 23:00
        f.clock.set(night)
        let held = [
            try await f.email(1, fromName: "Ada", subject: "Lunch on Friday?"),
            try await f.email(2, fromName: "Bob", subject: "Budget"),
            try await f.email(3, fromName: "Cleo", subject: "Read already"),
        ]
        await f.process(held)
        #expect(f.center.addedRequests.isEmpty)
        #expect(await f.service.postQuietHoursDigest() == nil, "nothing before they end")
        try await f.repository.setEmailsRead(ids: [held[2].id], isRead: true)

        f.clock.set(night.addingTimeInterval(8 * 3600 + 60)) // 07:01
        let digest = try #require(await f.service.postQuietHoursDigest())
        #expect(digest.subtitle == "2 new emails")
        #expect(digest.body == "Bob: Budget\nAda: Lunch on Friday?")
        #expect(f.center.addedRequests.count == 1)
        #expect(await f.service.postQuietHoursDigest() == nil, "each quiet period once")
        #expect(f.settings.lastQuietDigest == night.addingTimeInterval(8 * 3600))

        // The sender-only level names people, not subjects.
        f.settings.notificationContent = .sender
        let request = NotificationContentBuilder.quietHoursDigest([held[0], held[1]], showing: .sender, endedAt: f.clock.now)
        #expect(request.content.body == "From Ada, Bob")
        #expect(NotificationContentBuilder.quietHoursDigest([held[0]], showing: .none, endedAt: f.clock.now).content.body == "")
    }

    @Test("A quiet period that ended over 12 hours ago (the daemon was off) gets no digest")
    func staleDigest() async throws {
        let f = try await EngineFixture()
        f.settings.quietHoursEnabled = true
        try f.settings.setQuietHours(start: 22 * 60, end: 7 * 60)
        let night = MailFixtures.referenceDate.addingTimeInterval(11 * 3600)
        f.clock.set(night)
        await f.process([try await f.email(1)])
        f.clock.set(night.addingTimeInterval(21 * 3600)) // 20:00 the next day
        #expect(await f.service.postQuietHoursDigest() == nil)
        #expect(f.center.addedRequests.isEmpty)
    }
}

/// A notification server that always allows: these tests change no switch.
private struct GrantingPermission: NotificationPermission {
    func request() async -> NotificationPermissionAnswer { .granted }
}
