import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("NotificationFilterPipeline (NOTIF-07)")
struct NotificationFilterPipelineTests {
    let settings = SettingsStore(storage: InMemorySettingsStorage())
    let clock = FixedClock(hour: 23, minute: 30)
    var pipeline: NotificationFilterPipeline { .standard(settings: settings, clock: clock) }

    func email(types: Set<FolderType> = [.inbox], from: String = "a@example.com", thread: String = "T",
               category: String? = nil, spam: Bool = false) -> Email {
        filterTestEmail(types: types, from: from, thread: thread, category: category, spam: spam)
    }

    @Test("AC-N-05 / E-04: a VIP in quiet hours, muted thread, disabled category, spam, still notifies")
    func vipOverridesAll() async throws {
        settings.addVIPContact("boss@example.com")
        settings.quietHoursEnabled = true
        settings.toggleMuteThread(threadId: "T")
        settings.setNotificationCategory("promotions", enabled: false)
        settings.setNotificationsEnabled(false, for: "acct-1")
        let vip = email(types: [.spam], from: "Boss@Example.com", category: "promotions", spam: true)
        #expect(await pipeline.evaluate(vip) == .notify(rule: .vip))
        #expect(await pipeline.filter([vip]) == [vip])
    }

    @Test("AC-N-05: AND logic: passing the account filter but in a disabled category suppresses")
    func andLogic() async {
        settings.setNotificationCategory("promotions", enabled: false)
        #expect(await pipeline.evaluate(email(category: "promotions")) == .suppress(rule: .category))
    }

    @Test("AC-N-05: an email passing every filter notifies")
    func allPass() async {
        #expect(await pipeline.evaluate(email()) == .notify(rule: .allFilters))
    }

    @Test("AC-N-05: an empty list gives an empty result")
    func empty() async {
        #expect(await pipeline.filter([]).isEmpty)
    }

    @Test("NOTIF-07: the first rejecting filter, in the spec's order, is the one named")
    func order() async {
        settings.setNotificationsEnabled(false, for: "acct-1")
        settings.toggleMuteThread(threadId: "T")
        #expect(await pipeline.evaluate(email(types: [.sent], spam: true)) == .suppress(rule: .account))
        settings.setNotificationsEnabled(true, for: "acct-1")
        #expect(await pipeline.evaluate(email(types: [.sent], spam: true)) == .suppress(rule: .spam))
        #expect(await pipeline.evaluate(email(types: [.sent])) == .suppress(rule: .folderType))
        #expect(await pipeline.evaluate(email()) == .suppress(rule: .mutedThread))
        settings.quietHoursEnabled = true
        #expect(await pipeline.evaluate(email(thread: "other")) == .suppress(rule: .quietHours))
    }

    @Test("NOTIF-07: filtering stops at the first rejection (later filters are not asked)")
    func stopsEarly() async {
        final class Counting: NotificationFilter {
            let rule = NotificationRule.focusMode
            var calls = 0
            func shouldNotify(for email: Email) async -> Bool { calls += 1; return true }
        }
        let counting = Counting()
        let pipeline = NotificationFilterPipeline(vipFilter: VIPContactFilter(settings: settings),
                                                  filters: [SpamNotificationFilter(), counting])
        _ = await pipeline.filter([email(spam: true), email(), email(spam: true)])
        #expect(counting.calls == 1)
    }
}
