import VaultMailCore
import VaultMailNotifications

extension AppDependencies {
    /// Opening conversations and acting on them over this graph's repository (server first
    /// when it is the IMAP-backed one), withdrawing their notifications through the engine.
    public var conversations: Conversations {
        Conversations(emails: emailRepository, settings: settingsStore) { [notificationSyncCoordinator] threadId in
            await notificationSyncCoordinator.didMarkThreadRead(threadId: threadId)
        }
    }
}
