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
    /// The folder type whose list is on screen in a focused window (`FolderType.rawValue`), if
    /// any: sync callers pass it as `activeFolderType`, so its new mail gets the in-app banner
    /// only (AC-N-12, NOTIF-19).
    public private(set) var activeFolderType: String?

    @ObservationIgnored private let notificationService: NotificationService

    public init(notificationService: NotificationService) {
        self.notificationService = notificationService
    }

    /// Hands new mail to the engine; returns the in-app banners it decided on (see
    /// `NotificationService.processNewEmails`).
    @discardableResult
    public func didSyncNewEmails(_ emails: [Email], fromBackground: Bool, activeFolderType: String?) async -> [NotificationContent] {
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

    /// A focused window shows the list of `folderType` (nil: a list of no one type).
    public func folderShown(_ folderType: String?) {
        activeFolderType = folderType
    }

    /// The window that showed `folderType` lost focus or closed; another may show one since.
    public func folderHidden(_ folderType: String?) {
        guard activeFolderType == folderType else { return }
        activeFolderType = nil
    }
}
