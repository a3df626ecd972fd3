import Foundation
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
    /// The list on screen in a focused window, if any (the service's, which decides banners by
    /// it): its new mail gets the in-app banner only (AC-N-12, NOTIF-19).
    public var folderOnScreen: FolderOnScreen? { notificationService.folderOnScreen }

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

    /// Mail that came back from Snoozed (issue 33) to the engine: announced as it decides
    /// (`NotificationService.processComeBack`); returns the in-app banners.
    @discardableResult
    public func snoozedMailCameBack(_ emails: [Email], snoozedUntil: [String: Date]) async -> [NotificationContent] {
        await notificationService.processComeBack(emails, snoozedUntil: snoozedUntil)
    }

    /// A conversation was read, archived, deleted or moved, here or elsewhere: its
    /// notifications are withdrawn and the badge counted again.
    public func withdrawNotifications(forThreadId threadId: String) async {
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

    /// A focused window shows `folder`'s list (nil: a list of no folder, the Outbox).
    public func folderShown(_ folder: FolderOnScreen?) {
        notificationService.folderOnScreen = folder
    }

    /// The window that showed `folder` lost focus or closed; another may show one since.
    public func folderHidden(_ folder: FolderOnScreen?) {
        guard folderOnScreen == folder else { return }
        notificationService.folderOnScreen = nil
    }
}
