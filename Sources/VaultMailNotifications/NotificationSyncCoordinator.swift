import Observation
import VaultMailCore

/// NOTIF-18: the one place sync callers and in-app actions tell the notification engine what
/// happened, and where a tapped notification leaves the thread to open.
@MainActor
@Observable
public final class NotificationSyncCoordinator {
    /// Set when the user taps a notification; whoever shows threads opens it and sets nil.
    public var pendingThreadNavigation: String?
    /// The conversation on screen, if any (the service's, which decides banners by it).
    public var viewingThreadId: String? { notificationService.viewingThreadId }

    @ObservationIgnored private let notificationService: NotificationService

    public init(notificationService: NotificationService) {
        self.notificationService = notificationService
    }

    public func didSyncNewEmails(_ emails: [Email], fromBackground: Bool, activeFolderType: String?) async {
        await notificationService.processNewEmails(emails, fromBackground: fromBackground, activeFolderType: activeFolderType)
    }

    public func didMarkThreadRead(threadId: String) async {
        await notificationService.removeNotifications(forThreadId: threadId)
        await notificationService.updateBadgeCount()
    }

    public func didRemoveThread(threadId: String) async {
        await notificationService.removeNotifications(forThreadId: threadId)
        await notificationService.updateBadgeCount()
    }

    public func markFirstLaunchComplete() {
        notificationService.markFirstLaunchComplete()
    }

    /// The user opened a conversation: its new mail stops raising banners, and what it
    /// already raised is cleared.
    public func threadOpened(_ threadId: String) async {
        notificationService.viewingThreadId = threadId
        await notificationService.removeNotifications(forThreadId: threadId)
    }

    public func threadClosed(_ threadId: String) {
        guard viewingThreadId == threadId else { return }
        notificationService.viewingThreadId = nil
    }
}
