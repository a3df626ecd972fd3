import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@Suite("Accounts and settings in the store (AC-F-09, NOTIF-23)")
struct AccountAndSettingsTests {
    @Test("AC-F-09: add, get, update and list accounts; names are unique")
    func accounts() async throws {
        let store = try await StoreFixture(accounts: [])
        var account = MailFixtures.account(name: "personal")
        try await store.accounts.addAccount(account)
        account.syncWindowDays = 90
        account.caFile = "/etc/ssl/mine.pem"
        try await store.accounts.updateAccount(account)
        #expect(try await store.accounts.getAccount(named: "personal") == account)
        #expect(try await store.accounts.getAccount(id: account.id)?.syncWindowDays == 90)
        await #expect(throws: RepositoryError.duplicateAccountName("personal")) {
            try await store.accounts.addAccount(MailFixtures.account(name: "personal", id: "other-id"))
        }
        #expect(try await store.accounts.getAccounts().count == 1)
        var ghost = account
        ghost.id = "ghost"
        await #expect(throws: RepositoryError.accountNotFound("ghost")) { try await store.accounts.updateAccount(ghost) }
    }

    @MainActor
    @Test("NOTIF-23: a change is durable when the setter returns; a fresh SettingsStore reads it back")
    func settingsDurable() async throws {
        let store = try await StoreFixture()
        let storage = GRDBSettingsStorage(database: store.database)
        let settings = SettingsStore(storage: storage)
        settings.addVIPContact("VIP@Example.com")
        settings.toggleMuteThread(threadId: "T-1")
        settings.setNotificationCategory("promotions", enabled: false)
        settings.quietHoursEnabled = true
        try settings.setQuietHours(start: 0, end: 420)
        settings.setNotificationsEnabled(false, for: "acct-work")
        #expect(settings.lastPersistenceError == nil)
        let fresh = SettingsStore(storage: GRDBSettingsStorage(database: store.database))
        #expect(fresh.vipContacts == ["vip@example.com"])
        #expect(fresh.mutedThreadIds == ["T-1"])
        #expect(!fresh.notificationCategoryEnabled(for: "promotions"))
        #expect(fresh.quietHoursEnabled)
        #expect(fresh.quietHoursStart == 0)
        #expect(fresh.quietHoursEnd == 420)
        #expect(!fresh.notificationsEnabled(for: "acct-work"))
    }

    @MainActor
    @Test("A toggle for an account that does not exist is refused and reported")
    func toggleForUnknownAccount() async throws {
        let store = try await StoreFixture()
        let settings = SettingsStore(storage: GRDBSettingsStorage(database: store.database))
        settings.setNotificationsEnabled(false, for: "no-such-account")
        #expect(settings.lastPersistenceError != nil)
    }
}
