import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `NotificationSettings` service, without any door: switching on asks the
/// notification server first (AC-N-02, E-19, NOTIF-02); VIPs and muting accept and refuse the
/// same inputs with the same words, whichever door asks (issue 28).
@MainActor
@Suite("NotificationSettings: permission first, one VIP rule, one mute rule (issue 28)")
struct NotificationSettingsTests {
    let storage = InMemorySettingsStorage()
    let work = MailFixtures.account(name: "work", email: "ada@example.com")
    let permission = ScriptedPermission()

    func service() async throws -> (NotificationSettings, SettingsStore, MockEmailRepository) {
        let settings = SettingsStore(storage: storage)
        let emails = MockEmailRepository()
        let email = MailFixtures.email(accountId: work.id, number: 1)
        _ = try await emails.saveEmails([MailFixtures.incoming(email, in: MailFixtures.standardFolders(accountId: work.id).prefix(1).map { $0 })])
        return (NotificationSettings(settings: settings, permission: permission, accounts: InMemoryAccountRepository([work]), emails: emails),
                settings, emails)
    }

    @Test("AC-N-02 / E-19: switching an account on asks first; refused, it stays off and says why and what to do")
    func accountSwitchNeedsPermission() async throws {
        let (service, settings, _) = try await service()
        settings.setNotificationsEnabled(false, for: work.id)
        permission.answer.withLock { $0 = .refused("no notification server owns org.freedesktop.Notifications") }
        await #expect(throws: NotificationSettingsError.permissionRefused("no notification server owns org.freedesktop.Notifications")) {
            try await service.setNotifications(true, accountId: work.id)
        }
        #expect(!settings.notificationsEnabled(for: work.id))
        #expect(permission.asked.withLock { $0 } == 1)
        #expect("\(NotificationSettingsError.permissionRefused("no server"))"
            == "VaultMail may not show notifications (no server), so they stay off. Start the desktop's notification server (or one such as dunst or mako) and switch them on again.")

        permission.answer.withLock { $0 = .granted }
        try await service.setNotifications(true, accountId: work.id)
        #expect(settings.notificationsEnabled(for: work.id))
        // Off, or on when already on, never asks.
        permission.answer.withLock { $0 = .refused("gone") }
        try await service.setNotifications(true, accountId: work.id)
        try await service.setNotifications(false, accountId: work.id)
        #expect(!settings.notificationsEnabled(for: work.id))
        #expect(permission.asked.withLock { $0 } == 2)
        await #expect(throws: AccountError.notFound(id: "nobody")) { try await service.setNotifications(true, accountId: "nobody") }
    }

    @Test("NOTIF-02: the master switch too; a form turning several on asks once, and a refusal still turns off what it turns off")
    func masterSwitchNeedsPermission() async throws {
        let (service, settings, _) = try await service()
        settings.notificationsEnabled = false
        permission.answer.withLock { $0 = .refused("no server") }
        await #expect(throws: NotificationSettingsError.permissionRefused("no server")) { try await service.setNotifications(true) }
        #expect(!settings.notificationsEnabled)

        settings.notificationsEnabled = true
        settings.setNotificationsEnabled(false, for: work.id)
        settings.notificationsEnabled = false
        permission.asked.withLock { $0 = 0 }
        await #expect(throws: NotificationSettingsError.self) { try await service.setNotifications(master: true, accounts: [work.id: true]) }
        #expect(permission.asked.withLock { $0 } == 1)
        #expect(!settings.notificationsEnabled && !settings.notificationsEnabled(for: work.id))

        settings.notificationsEnabled = true
        settings.setNotificationsEnabled(true, for: work.id)
        try await service.setNotifications(master: true, accounts: [work.id: false])
        #expect(settings.notificationsEnabled && !settings.notificationsEnabled(for: work.id))
        #expect(permission.asked.withLock { $0 } == 1, "nothing turned on: not asked")
    }

    @Test("AC-N-08: a VIP is an email address, trimmed and lowercased; anything else is refused with the reason and an example")
    func vipRule() async throws {
        #expect(try NotificationSettings.vipAddress("  Boss@Example.ORG ") == "boss@example.org")
        let refused: [(String, String)] = [
            ("", "'' cannot be a VIP: it is empty. Give the sender's email address, such as ada@example.com."),
            ("boss", "'boss' cannot be a VIP: it has no @. Give the sender's email address, such as ada@example.com."),
            ("boss @example.org", "'boss @example.org' cannot be a VIP: 'space' is not allowed before the @. Give the sender's email address, such as ada@example.com."),
            ("@example.org", "'@example.org' cannot be a VIP: the part before or after @ is empty. Give the sender's email address, such as ada@example.com."),
        ]
        for (input, message) in refused {
            #expect(throws: NotificationSettingsError.self) { try NotificationSettings.vipAddress(input) }
            do {
                _ = try NotificationSettings.vipAddress(input)
            } catch {
                #expect("\(error)" == message)
            }
        }
        let (service, settings, _) = try await service()
        #expect(try await service.addVIP("Boss@Example.org") == "boss@example.org")
        #expect(settings.vipContacts == ["boss@example.org"])
        await #expect(throws: NotificationSettingsError.invalidVIP("boss", reason: "it has no @")) { try await service.addVIP("boss") }
        #expect(try await service.removeVIP("BOSS@example.org") == "boss@example.org")
        await #expect(throws: NotificationSettingsError.notVIP("boss@example.org")) { try await service.removeVIP("boss@example.org") }
        #expect(settings.vipContacts.isEmpty)
    }

    @Test("NOTIF-11: only stored conversations are muted, only muted ones unmuted; a refused batch changes nothing")
    func muteRule() async throws {
        let (service, settings, _) = try await service()
        let thread = MailFixtures.email(accountId: work.id, number: 1).threadId
        await #expect(throws: NotificationSettingsError.noSuchConversation("no-such-thread")) {
            try await service.mute(threadIds: [thread, "no-such-thread"])
        }
        #expect(settings.mutedThreadIds.isEmpty)
        try await service.mute(threadIds: [thread])
        #expect(await service.mutedThreadIds() == [thread])
        await #expect(throws: NotificationSettingsError.notMuted("other")) { try await service.unmute(threadIds: [thread, "other"]) }
        #expect(settings.mutedThreadIds == [thread])
        try await service.unmute(threadIds: [thread])
        #expect(settings.mutedThreadIds.isEmpty)
    }

    @Test("NOTIF-11: the muted list both doors show: each conversation with its subject, none for one no longer stored")
    func mutedConversations() async throws {
        let (service, settings, _) = try await service()
        let thread = MailFixtures.email(accountId: work.id, number: 1).threadId
        try await service.mute(threadIds: [thread])
        settings.mutedThreadIds.insert("0-deleted-since")
        let muted = try await service.mutedConversations()
        #expect(muted.map(\.id) == ["0-deleted-since", thread])
        #expect(muted.map(\.subject) == [nil, "Message 1"])
    }

    @Test("NOTIF-14: quiet hours are two times of day (H:MM or HH:MM, 24-hour), different, overnight allowed; anything else changes nothing")
    func quietHoursRule() async throws {
        let (service, settings, _) = try await service()
        #expect(NotificationSettings.minutes("7:05") == 425 && NotificationSettings.minutes("23:59") == 1439 && NotificationSettings.minutes("00:00") == 0)
        for bad in ["24:00", "7:5", "tonight", "", "07:00:00", "-1:00"] {
            #expect(NotificationSettings.minutes(bad) == nil, "\(bad)")
        }
        try await service.setQuietHours(from: "22:00", to: "07:00")
        try await service.setQuietHoursOn(true)
        #expect(settings.quietHoursStart == 1320 && settings.quietHoursEnd == 420 && settings.quietHoursEnabled)
        await #expect(throws: NotificationSettingsError.invalidQuietHours("25:00")) { try await service.setQuietHours(from: "25:00", to: "07:00") }
        await #expect(throws: NotificationSettingsError.emptyQuietHours) { try await service.setQuietHours(from: "08:00", to: "8:00") }
        #expect(settings.quietHoursStart == 1320 && settings.quietHoursEnd == 420)
        #expect("\(NotificationSettingsError.invalidQuietHours("25:00"))"
            == "'25:00' is not a time of day: write quiet hours as HH:MM in 24-hour time, such as 22:00 and 07:00.")
        try await service.setQuietHoursOn(false)
        #expect(!settings.quietHoursEnabled)
    }

    @Test("NOTIF-09: a category switch names one of the categories (any case); an unknown one is refused, listing them")
    func categoryRule() async throws {
        let (service, settings, _) = try await service()
        try await service.setCategory("Promotions", on: false)
        #expect(!settings.notificationCategoryEnabled(for: "promotions"))
        await #expect(throws: NotificationSettingsError.unknownCategory("spam", known: ["primary", "social", "promotions", "updates", "forums"])) {
            try await service.setCategory("spam", on: false)
        }
        await #expect(throws: NotificationSettingsError.self) { try await service.setCategory("uncategorized", on: false) }
        try await service.setSound(false)
        #expect(!settings.notificationSound)
        let shown = await service.preferences(accountIds: [work.id])
        #expect(shown.categories == ["primary": true, "social": true, "promotions": false, "updates": true, "forums": true])
        #expect(!shown.sound && shown.on && shown.accounts == [work.id: true])
    }

    @Test("A setting the storage refuses is reported, not taken for saved")
    func notSaved() async throws {
        let (service, _, _) = try await service()
        storage.setFailWrites(true)
        await #expect(throws: NotificationSettingsError.self) { try await service.addVIP("boss@example.org") }
    }
}

/// A notification server's permission that answers as told and counts the questions.
final class ScriptedPermission: NotificationPermission {
    let answer = Mutex(NotificationPermissionAnswer.granted)
    let asked = Mutex(0)

    func request() async -> NotificationPermissionAnswer {
        asked.withLock { $0 += 1 }
        return answer.withLock { $0 }
    }
}
