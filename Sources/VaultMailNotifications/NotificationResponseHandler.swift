import Foundation
import Observation
import VaultMailCore

/// NOTIF-06: carries out what the user chose on a notification — mark read, archive, delete,
/// reply, or open the thread — then removes the thread's notifications and updates the badge.
/// A failed action changes nothing, keeps the notification and says why (E-18).
@MainActor
@Observable
public final class NotificationResponseHandler: NotificationCenterDelegate {
    /// The outcome of the last response handled.
    public private(set) var lastOutcome: NotificationActionOutcome?
    /// Set after creation by the composition root (the coordinator is built after the handler, §5.2).
    @ObservationIgnored public weak var coordinator: NotificationSyncCoordinator?
    /// Told every outcome of a response from the centre, once it is handled: the front end
    /// reports failures to the user and opens the thread a tap asked for.
    @ObservationIgnored public var onOutcome: (@MainActor (NotificationActionOutcome) async -> Void)?

    @ObservationIgnored private let manageThreadActions: ManageThreadActionsUseCase
    @ObservationIgnored private let markRead: MarkReadUseCase
    @ObservationIgnored private let composeEmail: any ComposeEmailUseCase
    @ObservationIgnored private let emailRepository: any EmailRepository
    @ObservationIgnored private let notificationService: any NotificationServiceProtocol

    public init(
        manageThreadActions: ManageThreadActionsUseCase,
        markRead: MarkReadUseCase,
        composeEmail: any ComposeEmailUseCase,
        emailRepository: any EmailRepository,
        notificationService: any NotificationServiceProtocol
    ) {
        self.manageThreadActions = manageThreadActions
        self.markRead = markRead
        self.composeEmail = composeEmail
        self.emailRepository = emailRepository
        self.notificationService = notificationService
    }

    public func didReceive(_ response: NotificationResponse) async {
        let outcome = await handle(response)
        await onOutcome?(outcome)
    }

    /// Handles a response and returns what happened.
    @discardableResult
    public func handle(_ response: NotificationResponse) async -> NotificationActionOutcome {
        let info = response.userInfo
        let outcome: NotificationActionOutcome
        guard !info.emailId.isEmpty else {
            // Not about an email (an account alert): nothing to act on.
            lastOutcome = .dismissed
            return .dismissed
        }
        switch response.actionIdentifier {
        case NotificationResponse.defaultActionIdentifier:
            outcome = await openThread(info.threadId)
        case AppConstants.notificationActionMarkRead:
            outcome = await perform("mark read", info.threadId, .markedRead(threadId: info.threadId)) {
                guard let thread = try await self.emailRepository.getThread(id: info.threadId) else {
                    throw ThreadListError.threadNotFound(id: info.threadId)
                }
                try await self.markRead.markAllRead(in: thread)
            }
        case AppConstants.notificationActionArchive:
            outcome = await perform("archive", info.threadId, .archived(threadId: info.threadId)) {
                try await self.manageThreadActions.archiveThread(id: info.threadId)
            }
        case AppConstants.notificationActionDelete:
            outcome = await perform("delete", info.threadId, .deleted(threadId: info.threadId)) {
                try await self.manageThreadActions.deleteThread(id: info.threadId)
            }
        case AppConstants.notificationActionReply:
            outcome = await reply(to: info, text: response.userText)
        case NotificationResponse.dismissActionIdentifier:
            outcome = .dismissed
        default:
            outcome = .failed(action: response.actionIdentifier, message: "unknown notification action '\(response.actionIdentifier)'")
        }
        lastOutcome = outcome
        return outcome
    }

    /// NOTIF-06f: banner, badge and sound, or nothing for the conversation on screen.
    public func willPresent(_ notification: DeliveredNotification) -> NotificationPresentationOptions {
        if let viewing = coordinator?.viewingThreadId, viewing == notification.request.content.threadIdentifier {
            return []
        }
        return [.banner, .badge, .sound]
    }

    // MARK: - Actions

    /// NOTIF-06e: hands the thread to whoever shows threads; a thread that is gone is reported.
    private func openThread(_ threadId: String) async -> NotificationActionOutcome {
        do {
            guard try await emailRepository.getThread(id: threadId) != nil else {
                await notificationService.removeNotifications(forThreadId: threadId)
                return .failed(action: "open", message: "that conversation no longer exists; it was deleted or moved since the notification")
            }
        } catch {
            return .failed(action: "open", message: "could not look up the conversation: \(error)")
        }
        coordinator?.pendingThreadNavigation = threadId
        return .openedThread(threadId: threadId)
    }

    private func perform(
        _ action: String, _ threadId: String, _ success: NotificationActionOutcome,
        _ body: () async throws -> Void
    ) async -> NotificationActionOutcome {
        do {
            try await body()
        } catch {
            return .failed(action: action, message: "could not \(action) the conversation: \(error)")
        }
        await notificationService.removeNotifications(forThreadId: threadId)
        await notificationService.updateBadgeCount()
        return success
    }

    /// NOTIF-06d: a reply draft with the 11 parameters, queued and sent now (no undo delay).
    private func reply(to info: NotificationUserInfo, text: String?) async -> NotificationActionOutcome {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            coordinator?.pendingThreadNavigation = info.threadId
            return .composeRequested(emailId: info.emailId)
        }
        let original: Email
        do {
            guard let found = try await emailRepository.getEmail(id: info.emailId) else {
                return .failed(action: "reply", message: "the email being answered no longer exists; nothing was sent")
            }
            original = found
        } catch {
            return .failed(action: "reply", message: "could not read the email being answered: \(error); nothing was sent")
        }
        let headers = ReplyHeaders(answering: original)
        let draftId: String
        do {
            var reply = DraftContent(accountId: info.accountId)
            reply.threadId = info.threadId
            reply.to = [headers.to]
            reply.subject = headers.subject
            reply.body = text
            reply.inReplyTo = headers.inReplyTo
            reply.references = headers.references
            draftId = try await composeEmail.saveForSending(reply, attachments: [])
        } catch {
            return .failed(action: "reply", message: "could not save the reply: \(error); nothing was sent")
        }
        do {
            try await composeEmail.queueForSending(emailId: draftId)
            try await composeEmail.executeSend(emailId: draftId)
        } catch {
            return .failed(action: "reply", message: "the reply is saved in the outbox but was not sent yet: \(error); it will be retried")
        }
        await notificationService.removeNotifications(forThreadId: info.threadId)
        await notificationService.updateBadgeCount()
        return .replied(draftId: draftId)
    }
}
