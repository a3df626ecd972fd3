import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@MainActor
@Suite("SettingsStore (NOTIF-23, AC-N-14)")
struct SettingsStoreTests {
    let storage = InMemorySettingsStorage()

    @Test("AC-N-14: a fresh store has the six notification defaults")
    func defaults() {
        let settings = SettingsStore(storage: storage)
        #expect(settings.notificationCategoryPreferences == [:])
        #expect(settings.vipContacts.isEmpty)
        #expect(settings.mutedThreadIds.isEmpty)
        #expect(settings.quietHoursEnabled == false)
        #expect(settings.quietHoursStart == 1320)
        #expect(settings.quietHoursEnd == 420)
        #expect(settings.notificationsEnabled)
        #expect(settings.undoSendDelaySeconds == 5)
    }

    @Test("AC-N-14 / E-22: addVIPContact lowercases; removeVIPContact matches any case")
    func vipContacts() {
        let settings = SettingsStore(storage: storage)
        settings.addVIPContact("John@Example.com")
        #expect(settings.vipContacts == ["john@example.com"])
        #expect(settings.isVIP("JOHN@example.COM"))
        settings.addVIPContact("  ")
        #expect(settings.vipContacts.count == 1)
        settings.removeVIPContact("JOHN@EXAMPLE.COM")
        #expect(settings.vipContacts.isEmpty)
    }

    @Test("AC-N-14: toggleMuteThread adds, then removes")
    func muteToggle() {
        let settings = SettingsStore(storage: storage)
        settings.toggleMuteThread(threadId: "T-123")
        #expect(settings.mutedThreadIds == ["T-123"])
        settings.toggleMuteThread(threadId: "T-123")
        #expect(settings.mutedThreadIds.isEmpty)
    }

    @Test("NOTIF-23: quiet hours persist, and midnight (0) is stored as 0, not as \"not set\"")
    func quietHoursMidnight() throws {
        let settings = SettingsStore(storage: storage)
        settings.quietHoursEnabled = true
        try settings.setQuietHours(start: 0, end: 0)
        let reloaded = SettingsStore(storage: storage)
        #expect(reloaded.quietHoursEnabled)
        #expect(reloaded.quietHoursStart == 0)
        #expect(reloaded.quietHoursEnd == 0)
    }

    @Test("NOTIF-14: quiet hours outside 0..<1440 are rejected with a message")
    func quietHoursValidation() {
        let settings = SettingsStore(storage: storage)
        #expect(throws: SettingsError.invalidQuietHours(start: 1440, end: 60)) { try settings.setQuietHours(start: 1440, end: 60) }
        #expect(settings.quietHoursStart == 1320)
        settings.quietHoursEnd = -60
        #expect(settings.quietHoursEnd == 1380)
        settings.undoSendDelaySeconds = -3
        #expect(settings.undoSendDelaySeconds == 0)
        let reloaded = SettingsStore(storage: storage)
        #expect(reloaded.quietHoursEnd == 1380)
        #expect(reloaded.undoSendDelaySeconds == 0)
    }

    @Test("NOTIF-09: category preferences persist; an absent category is enabled")
    func categoryPreferences() {
        let settings = SettingsStore(storage: storage)
        #expect(settings.notificationCategoryEnabled(for: "promotions"))
        settings.setNotificationCategory("promotions", enabled: false)
        let reloaded = SettingsStore(storage: storage)
        #expect(!reloaded.notificationCategoryEnabled(for: "promotions"))
        #expect(reloaded.notificationCategoryEnabled(for: "social"))
    }

    @Test("NOTIF-08: per-account toggles default on and persist")
    func accountToggles() {
        let settings = SettingsStore(storage: storage)
        #expect(settings.notificationsEnabled(for: "acct-1"))
        settings.setNotificationsEnabled(false, for: "acct-1")
        let reloaded = SettingsStore(storage: storage)
        #expect(!reloaded.notificationsEnabled(for: "acct-1"))
        #expect(reloaded.notificationsEnabled(for: "acct-2"))
    }

    @Test("AC-N-14: resetAll puts all six notification properties back to defaults, durably")
    func resetAll() throws {
        let settings = SettingsStore(storage: storage)
        settings.addVIPContact("a@b.c")
        settings.toggleMuteThread(threadId: "T")
        settings.setNotificationCategory("social", enabled: false)
        settings.quietHoursEnabled = true
        try settings.setQuietHours(start: 60, end: 120)
        settings.setNotificationsEnabled(false, for: "acct")
        settings.resetAll()
        for store in [settings, SettingsStore(storage: storage)] {
            #expect(store.vipContacts.isEmpty)
            #expect(store.mutedThreadIds.isEmpty)
            #expect(store.notificationCategoryPreferences.isEmpty)
            #expect(!store.quietHoursEnabled)
            #expect(store.quietHoursStart == 1320)
            #expect(store.quietHoursEnd == 420)
            #expect(store.notificationsEnabled(for: "acct"))
        }
    }

    @Test("VIPs and muted threads survive a reload")
    func setsPersist() {
        let settings = SettingsStore(storage: storage)
        settings.addVIPContact("Boss@Work.example")
        settings.toggleMuteThread(threadId: "T-9")
        let reloaded = SettingsStore(storage: storage)
        #expect(reloaded.vipContacts == ["boss@work.example"])
        #expect(reloaded.mutedThreadIds == ["T-9"])
    }

    @Test("A write that fails is reported, not silently lost")
    func writeFailureReported() {
        let settings = SettingsStore(storage: storage)
        storage.setFailWrites(true)
        settings.quietHoursEnabled = true
        #expect(settings.lastPersistenceError != nil)
        storage.setFailWrites(false)
        settings.quietHoursEnabled = true
        #expect(settings.lastPersistenceError == nil)
        #expect(SettingsStore(storage: storage).quietHoursEnabled)
    }

    @Test("reload() takes in what another process wrote, and writes nothing back")
    func reloadSeesOtherWriters() {
        let daemon = SettingsStore(storage: storage)
        let commandLine = SettingsStore(storage: storage)
        commandLine.addVIPContact("vip@example.org")
        commandLine.toggleMuteThread(threadId: "T-1")
        commandLine.quietHoursEnabled = true
        commandLine.notificationsEnabled = false
        #expect(daemon.vipContacts.isEmpty)
        storage.setFailWrites(true)
        daemon.reload()
        #expect(daemon.vipContacts == ["vip@example.org"])
        #expect(daemon.mutedThreadIds == ["T-1"])
        #expect(daemon.quietHoursEnabled && !daemon.notificationsEnabled)
        #expect(daemon.lastPersistenceError == nil, "reloading wrote nothing (writes fail here)")
    }
}
