import Foundation
import VaultMailCore

/// NOTIF-04: builds what a notification shows from an email.
public enum NotificationContentBuilder {
    /// Most characters of the snippet the body shows. Characters are graphemes, so an emoji
    /// or an accented letter is never cut in half.
    public static let bodyLength = 100

    /// What `email`'s notification shows at `level` (issue 33's privacy levels): at `.sender`
    /// the sender and "New message", at `.none` only "New mail"; the actions stay.
    public static func build(from email: Email, showing level: NotificationContentLevel = .full) -> NotificationContent {
        let name = name(of: email)
        return NotificationContent(
            title: level == .none ? "New mail" : name,
            subtitle: level == .full ? email.subject : level == .sender ? "New message" : "",
            body: level == .full ? String((email.snippet ?? "").prefix(bodyLength)) : "",
            sound: .default,
            categoryIdentifier: AppConstants.notificationCategoryEmail,
            threadIdentifier: email.threadId,
            userInfo: NotificationUserInfo(
                emailId: email.id, threadId: email.threadId, accountId: email.accountId, fromAddress: email.fromAddress),
            interruptionLevel: .active,
            date: email.dateReceived)
    }

    /// The request posting `email`'s notification, identified `email-<id>`.
    public static func request(for email: Email, showing level: NotificationContentLevel = .full) -> NotificationRequest {
        NotificationRequest(identifier: NotificationRequest.identifier(forEmailId: email.id), content: build(from: email, showing: level))
    }

    /// The notification summing up what quiet hours held back (issue 33), newest first in
    /// `emails`: "3 new emails" and who wrote them, as much as `level` shows. It carries no
    /// email, so it has no actions and a click only dismisses it.
    public static func quietHoursDigest(_ emails: [Email], showing level: NotificationContentLevel, endedAt: Date) -> NotificationRequest {
        let count = emails.count == 1 ? "1 new email" : "\(emails.count) new emails"
        let shown = 3
        let more = emails.count > shown ? " and \(emails.count - shown) more" : ""
        let body: String
        switch level {
        case .full:
            body = emails.prefix(shown).map { "\(name(of: $0)): \($0.subject)" }.joined(separator: "\n") + more
        case .sender:
            var senders: [String] = []
            for email in emails where !senders.contains(name(of: email)) { senders.append(name(of: email)) }
            let others = senders.count > shown ? " and \(senders.count - shown) others" : ""
            body = "From " + senders.prefix(shown).joined(separator: ", ") + others
        case .none:
            body = ""
        }
        let content = NotificationContent(
            title: "While your quiet hours lasted", subtitle: count, body: body, sound: .default,
            categoryIdentifier: AppConstants.notificationCategoryDigest, threadIdentifier: "quiet-hours",
            userInfo: NotificationUserInfo(emailId: "", threadId: "", accountId: "", fromAddress: ""),
            interruptionLevel: .active, date: endedAt)
        return NotificationRequest(identifier: "quiet-digest-\(Int(endedAt.timeIntervalSince1970))", content: content)
    }

    /// The reminder that nobody answered `email` (issue 33): its subject and to whom, as much as
    /// `level` shows; a click opens the conversation.
    public static func followUp(_ reminder: FollowUpReminder, email: Email, showing level: NotificationContentLevel, now: Date) -> NotificationRequest {
        let to = (email.toAddresses.first.map { ($0.name?.isEmpty == false ? $0.name : nil) ?? $0.email } ?? "")
            + (email.toAddresses.count > 1 ? " and \(email.toAddresses.count - 1) more" : "")
        let days = Int(now.timeIntervalSince(reminder.sentAt) / 86_400)
        let when = days >= 2 ? "\(days) days ago" : days == 1 ? "yesterday" : "earlier today"
        let content = NotificationContent(
            title: "No answer yet",
            subtitle: level == .full ? reminder.subject : "",
            body: level == .none ? "" : "You wrote to \(to) \(when) and asked to be reminded if nobody answered.",
            sound: .default, categoryIdentifier: AppConstants.notificationCategoryFollowUp, threadIdentifier: reminder.threadId,
            userInfo: NotificationUserInfo(emailId: email.id, threadId: reminder.threadId, accountId: email.accountId, fromAddress: email.fromAddress),
            interruptionLevel: .active, date: now)
        return NotificationRequest(identifier: "follow-up-\(reminder.threadId)", content: content)
    }

    private static func name(of email: Email) -> String {
        let trimmed = email.fromName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return trimmed.isEmpty ? email.fromAddress : trimmed
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
