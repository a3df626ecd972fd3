/// Constants shared across the engine (NOTIF-03 and the thread list).
public enum AppConstants {
    // MARK: - Thread list (AC-U-13)
    public static let threadListPageSize = 25

    // MARK: - Notification identifiers (NOTIF-03)
    public static let notificationCategoryEmail = "EMAIL_NOTIFICATION"
    /// The quiet hours' digest (issue 33): no actions.
    public static let notificationCategoryDigest = "QUIET_HOURS_DIGEST"
    /// A follow-up reminder (issue 33): opens its conversation, nothing else.
    public static let notificationCategoryFollowUp = "FOLLOW_UP"
    public static let notificationActionMarkRead = "MARK_READ_ACTION"
    public static let notificationActionArchive = "ARCHIVE_ACTION"
    public static let notificationActionDelete = "DELETE_ACTION"
    public static let notificationActionReply = "REPLY_ACTION"
    public static let maxNotificationsPerSync = 10
    public static let backgroundNotificationRecencySeconds = 3600
    public static let foregroundNotificationRecencySeconds = 300

    // MARK: - Notification limits (NFR-NOTIF-03)
    /// Most entries the in-memory dedup set keeps before evicting the oldest.
    public static let maxDeliveredNotificationIds = 10_000

    // MARK: - Sync
    public static let defaultSyncWindowDays = 30
    /// "All mail": this window or a longer one fetches every message, whatever its date
    /// (`Account.syncsAllMail`); `account set --sync-window-days all` stores it.
    public static let allMailSyncWindowDays = 36_500

    // MARK: - Quiet hours defaults (NOTIF-14), minutes since midnight
    public static let defaultQuietHoursStart = 1320
    public static let defaultQuietHoursEnd = 420

    // MARK: - Sending
    public static let defaultUndoSendDelaySeconds = 5
}
