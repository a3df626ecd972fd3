import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("NotificationSyncCoordinator (NOTIF-18 … NOTIF-21)")
struct NotificationSyncCoordinatorTests {
    @Test("AC-N-12: didSyncNewEmails hands the batch to the service with its parameters")
    func didSync() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1)
        await engine.coordinator.didSyncNewEmails([email], fromBackground: false, activeFolderType: nil)
        #expect(engine.postedEmailIds == [email.id])
    }

    @Test("AC-N-11: withdrawNotifications (a conversation read, archived or deleted) removes its notifications and updates the badge", arguments: ["read", "archived"])
    func withdrawNotifications(change: String) async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1, thread: "T")
        _ = try await engine.email(2, thread: "Other")
        await engine.process([email])
        if change == "read" { try await engine.repository.setThreadRead(id: "T", isRead: true) } else { try await engine.repository.archiveThread(id: "T") }
        await engine.coordinator.withdrawNotifications(forThreadId: "T")
        #expect(engine.center.removedIdentifiers == ["email-\(email.id)"])
        #expect(engine.center.currentBadgeCount == 1, "the other conversation's unread mail still counts")
    }

    @Test("E-25 / AC-N-12: markFirstLaunchComplete lifts first-launch suppression (background-only launch too)")
    func markFirstLaunch() async throws {
        let engine = try await EngineFixture(firstLaunchDone: false)
        let first = try await engine.email(1)
        await engine.coordinator.didSyncNewEmails([first], fromBackground: true, activeFolderType: nil)
        #expect(engine.center.addedRequests.isEmpty)
        engine.coordinator.markFirstLaunchComplete()
        let second = try await engine.email(2)
        await engine.coordinator.didSyncNewEmails([second], fromBackground: true, activeFolderType: nil)
        #expect(engine.postedEmailIds == [second.id])
    }

    @Test("E-12 / AC-N-20: pendingThreadNavigation is set before anyone reads it (cold start)")
    func pendingNavigation() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1, thread: "T-cold")
        await engine.process([email])
        try await engine.center.respond(to: "email-\(email.id)", action: NotificationResponse.defaultActionIdentifier)
        #expect(engine.coordinator.pendingThreadNavigation == "T-cold")
    }

    @Test("E-20 / AC-N-15: a non-selected account's sync (activeFolderType nil) is not suppressed")
    func nonSelectedAccount() async throws {
        let engine = try await EngineFixture()
        let selected = try await engine.email(1)
        await engine.coordinator.didSyncNewEmails([selected], fromBackground: false, activeFolderType: "inbox")
        let other = try await engine.email(2)
        await engine.coordinator.didSyncNewEmails([other], fromBackground: false, activeFolderType: nil)
        #expect(engine.postedEmailIds == [other.id])
    }

    @Test("Opening a thread clears its notifications; closing another thread changes nothing")
    func openAndClose() async throws {
        let engine = try await EngineFixture()
        let email = try await engine.email(1, thread: "T")
        await engine.process([email])
        await engine.coordinator.threadOpened("T")
        #expect(engine.center.removedIdentifiers == ["email-\(email.id)"])
        engine.coordinator.threadClosed("other")
        #expect(engine.coordinator.viewingThreadId == "T")
        engine.coordinator.threadClosed("T")
        #expect(engine.coordinator.viewingThreadId == nil)
    }
}
