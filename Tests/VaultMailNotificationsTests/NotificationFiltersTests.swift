import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("Notification filters (NOTIF-08 … NOTIF-15)")
struct NotificationFiltersTests {
    let settings = SettingsStore(storage: InMemorySettingsStorage())

    func email(types: Set<FolderType> = [.inbox], from: String = "a@example.com", thread: String = "T",
               category: String? = nil, spam: Bool = false) -> Email {
        filterTestEmail(types: types, from: from, thread: thread, category: category, spam: spam)
    }

    // MARK: AccountNotificationFilter (3)
    @Test("AC-N-06: AccountNotificationFilter passes an enabled account")
    func accountEnabled() async {
        settings.setNotificationsEnabled(true, for: "acct-1")
        #expect(await AccountNotificationFilter(settings: settings).shouldNotify(for: email()))
    }

    @Test("AC-N-06: AccountNotificationFilter suppresses a disabled account")
    func accountDisabled() async {
        settings.setNotificationsEnabled(false, for: "acct-1")
        #expect(await !AccountNotificationFilter(settings: settings).shouldNotify(for: email()))
    }

    @Test("NOTIF-08: AccountNotificationFilter passes an account never configured (default on)")
    func accountDefault() async {
        #expect(await AccountNotificationFilter(settings: settings).shouldNotify(for: email()))
    }

    // MARK: SpamNotificationFilter (2)
    @Test("AC-N-06: SpamNotificationFilter suppresses spam (server-tagged or only in Junk)")
    func spam() async {
        #expect(await !SpamNotificationFilter().shouldNotify(for: email(spam: true)))
        #expect(await !SpamNotificationFilter().shouldNotify(for: email(types: [.spam])))
    }

    @Test("AC-N-06: SpamNotificationFilter passes non-spam")
    func notSpam() async {
        #expect(await SpamNotificationFilter().shouldNotify(for: email()))
    }

    // MARK: FolderTypeNotificationFilter (4)
    @Test("AC-N-06: FolderTypeNotificationFilter passes inbox mail")
    func folderInbox() async {
        #expect(await FolderTypeNotificationFilter().shouldNotify(for: email(types: [.inbox])))
    }

    @Test("AC-N-06: FolderTypeNotificationFilter suppresses mail only in Sent")
    func folderSent() async {
        #expect(await !FolderTypeNotificationFilter().shouldNotify(for: email(types: [.sent])))
    }

    @Test("E-05: FolderTypeNotificationFilter suppresses mail only in Drafts")
    func folderDrafts() async {
        #expect(await !FolderTypeNotificationFilter().shouldNotify(for: email(types: [.drafts])))
    }

    @Test("E-06 / AC-N-06: Inbox + Starred passes (inbox association present)")
    func folderInboxStarred() async {
        #expect(await FolderTypeNotificationFilter().shouldNotify(for: email(types: [.inbox, .starred])))
    }

    @Test("NOTIF-13: Trash, Spam, Archive and custom folders alone are suppressed", arguments: [FolderType.trash, .spam, .archive, .custom, .allMail])
    func folderOthers(type: FolderType) async {
        #expect(await !FolderTypeNotificationFilter().shouldNotify(for: email(types: [type])))
    }

    // MARK: CategoryNotificationFilter (4)
    @Test("NOTIF-09: an enabled category passes")
    func categoryEnabled() async {
        #expect(await CategoryNotificationFilter(settings: settings).shouldNotify(for: email(category: "social")))
    }

    @Test("AC-N-07: a disabled category (promotions) is suppressed")
    func categoryDisabled() async {
        settings.setNotificationCategory("promotions", enabled: false)
        #expect(await !CategoryNotificationFilter(settings: settings).shouldNotify(for: email(category: "promotions")))
    }

    @Test("E-07 / AC-N-07: a nil category always passes")
    func categoryNil() async {
        settings.setNotificationCategory("primary", enabled: false)
        #expect(await CategoryNotificationFilter(settings: settings).shouldNotify(for: email(category: nil)))
    }

    @Test("NOTIF-09: \"uncategorized\" always passes, even if toggled off")
    func categoryUncategorized() async {
        settings.setNotificationCategory("uncategorized", enabled: false)
        #expect(await CategoryNotificationFilter(settings: settings).shouldNotify(for: email(category: "uncategorized")))
    }

    // MARK: VIPContactFilter (3)
    @Test("AC-N-08: a VIP sender matches")
    func vipMatch() async {
        settings.addVIPContact("john@example.com")
        #expect(await VIPContactFilter(settings: settings).shouldNotify(for: email(from: "john@example.com")))
    }

    @Test("NOTIF-10: a non-VIP sender does not match")
    func vipNoMatch() async {
        settings.addVIPContact("john@example.com")
        #expect(await !VIPContactFilter(settings: settings).shouldNotify(for: email(from: "jane@example.com")))
    }

    @Test("E-22 / AC-N-08: VIP matching is case-insensitive")
    func vipCase() async {
        settings.addVIPContact("john@example.com")
        #expect(await VIPContactFilter(settings: settings).shouldNotify(for: email(from: "John@Example.com")))
    }

    // MARK: MutedThreadFilter (2)
    @Test("AC-N-08: a muted thread is suppressed")
    func muted() async {
        settings.toggleMuteThread(threadId: "T-123")
        #expect(await !MutedThreadFilter(settings: settings).shouldNotify(for: email(thread: "T-123")))
    }

    @Test("AC-N-08: a thread not muted passes")
    func notMuted() async {
        settings.toggleMuteThread(threadId: "T-123")
        #expect(await MutedThreadFilter(settings: settings).shouldNotify(for: email(thread: "T-9")))
    }

    // MARK: QuietHoursFilter (5+)
    func quiet(at hour: Int, _ minute: Int, start: Int = 1320, end: Int = 420, enabled: Bool = true) async throws -> Bool {
        settings.quietHoursEnabled = enabled
        try settings.setQuietHours(start: start, end: end)
        let filter = QuietHoursFilter(settings: settings, clock: FixedClock(hour: hour, minute: minute))
        return await !filter.shouldNotify(for: email())
    }

    @Test("AC-N-07: 23:30 is inside 22:00–07:00: suppressed")
    func quietDuring() async throws { #expect(try await quiet(at: 23, 30)) }

    @Test("AC-N-07: 12:00 is outside 22:00–07:00: allowed")
    func quietOutside() async throws { #expect(try await !quiet(at: 12, 0)) }

    @Test("E-08: overnight 22:00–07:00 at 06:59: suppressed")
    func quietOvernightBeforeEnd() async throws { #expect(try await quiet(at: 6, 59)) }

    @Test("E-09: overnight 22:00–07:00 at 07:00: allowed (the end is outside)")
    func quietOvernightAtEnd() async throws { #expect(try await !quiet(at: 7, 0)) }

    @Test("NOTIF-14: overnight 22:00–07:00 at 22:00: suppressed (the start is inside)")
    func quietAtStart() async throws { #expect(try await quiet(at: 22, 0)) }

    @Test("E-10: normal 09:00–17:00 at 12:00: suppressed; at 17:00 and 08:59 allowed")
    func quietNormal() async throws {
        #expect(try await quiet(at: 12, 0, start: 540, end: 1020))
        #expect(try await !quiet(at: 17, 0, start: 540, end: 1020))
        #expect(try await !quiet(at: 8, 59, start: 540, end: 1020))
    }

    @Test("AC-N-07: disabled quiet hours always allow")
    func quietDisabled() async throws { #expect(try await !quiet(at: 23, 30, enabled: false)) }

    @Test("NOTIF-14: midnight boundaries: 00:00–06:00 quiet at 00:00, not at 06:00")
    func quietMidnight() async throws {
        #expect(try await quiet(at: 0, 0, start: 0, end: 360))
        #expect(try await !quiet(at: 6, 0, start: 0, end: 360))
    }

    @Test("NOTIF-14: quiet hours are read in the clock's time zone")
    func quietTimeZone() async throws {
        settings.quietHoursEnabled = true
        try settings.setQuietHours(start: 1320, end: 420)
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // 21:30 UTC is 22:30 in Berlin (January, UTC+1): quiet there, not in UTC.
        let utcClock = FixedClock(hour: 21, minute: 30)
        let berlinClock = FixedClock(utcClock.now, timeZone: berlin)
        #expect(await QuietHoursFilter(settings: settings, clock: utcClock).shouldNotify(for: email()))
        #expect(await !QuietHoursFilter(settings: settings, clock: berlinClock).shouldNotify(for: email()))
    }

    // MARK: FocusModeFilter (1)
    @Test("AC-N-23: FocusModeFilter is a stub that always passes")
    func focus() async {
        #expect(await FocusModeFilter().shouldNotify(for: email(types: [.spam], spam: true)))
    }
}
