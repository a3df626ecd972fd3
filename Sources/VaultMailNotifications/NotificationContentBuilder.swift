import Foundation
import VaultMailCore

/// NOTIF-04: builds what a notification shows from an email.
public enum NotificationContentBuilder {
    /// Most characters of the snippet the body shows. Characters are graphemes, so an emoji
    /// or an accented letter is never cut in half.
    public static let bodyLength = 100

    public static func build(from email: Email) -> NotificationContent {
        let name = email.fromName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return NotificationContent(
            title: name.isEmpty ? email.fromAddress : name,
            subtitle: email.subject,
            body: String((email.snippet ?? "").prefix(bodyLength)),
            sound: .default,
            categoryIdentifier: AppConstants.notificationCategoryEmail,
            threadIdentifier: email.threadId,
            userInfo: NotificationUserInfo(
                emailId: email.id, threadId: email.threadId, accountId: email.accountId, fromAddress: email.fromAddress),
            interruptionLevel: .active,
            date: email.dateReceived)
    }

    /// The request posting `email`'s notification, identified `email-<id>`.
    public static func request(for email: Email) -> NotificationRequest {
        NotificationRequest(identifier: NotificationRequest.identifier(forEmailId: email.id), content: build(from: email))
    }

    /// The one category of NOTIF-03: Mark Read, Archive, Delete (destructive) and Reply
    /// (text input: "Send", "Type your reply...").
    public static let emailCategory = NotificationCategory(
        identifier: AppConstants.notificationCategoryEmail,
        actions: [
            NotificationAction(identifier: AppConstants.notificationActionMarkRead, title: "Mark Read"),
            NotificationAction(identifier: AppConstants.notificationActionArchive, title: "Archive"),
            NotificationAction(identifier: AppConstants.notificationActionDelete, title: "Delete", options: .destructive),
            NotificationAction(identifier: AppConstants.notificationActionReply, title: "Reply",
                               kind: .textInput(buttonTitle: "Send", placeholder: "Type your reply...")),
        ])
}
