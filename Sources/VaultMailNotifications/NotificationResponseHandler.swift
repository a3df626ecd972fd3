import Foundation
import Observation
import VaultMailCore

/// NOTIF-06: carries out what the user chose on a notification — mark read, archive, delete,
/// reply, or open the thread. Opening and acting go through Core's `Conversations`, as the
/// tool and the web app do: server first, then the thread's notifications withdrawn and the
/// badge counted again. A failed action changes nothing, keeps the notification and says why
/// (E-18).
@MainActor
@Observable
public final class NotificationResponseHandler: NotificationCenterDelegate {
    /// The outcome of the last response handled.
    public private(set) var lastOutcome: NotificationActionOutcome?
    /// Set after creation by the composition root (the coordinator is built after the handler, §5.2).
    @ObservationIgnored public weak var coordinator: NotificationSyncCoordinator?
    /// Told every outcome of a response from the centre, once it is handled: the front end
    /// reports failures to the user and shows the thread a tap asked for. A conversation opened
    /// from a notification that could not be marked read on the server is reported here too, as
    /// a failed "mark read".
    @ObservationIgnored public var onOutcome: (@MainActor (NotificationActionOutcome) async -> Void)?

    @ObservationIgnored private let conversations: Conversations
    @ObservationIgnored private let composition: Compose
    @ObservationIgnored private let composeEmail: any ComposeEmailUseCase
    @ObservationIgnored private let notificationService: any NotificationServiceProtocol

    /// - Parameters:
    ///   - conversations: opens conversations and acts on them; it withdraws their
    ///     notifications (built over `notificationService`).
    ///   - composition: writes the reply typed into a notification as the tool and the web
    ///     composer write theirs (`Compose.answer`).
    ///   - composeEmail: sends that reply.
    ///   - notificationService: withdraws the notifications of a conversation that is gone or
    ///     was answered.
    public init(
        conversations: Conversations,
        composition: Compose,
        composeEmail: any ComposeEmailUseCase,
        notificationService: any NotificationServiceProtocol
    ) {
        self.conversations = conversations
        self.composition = composition
        self.composeEmail = composeEmail
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
            outcome = await perform(.read, "mark read", info.threadId, .markedRead(threadId: info.threadId))
        case AppConstants.notificationActionArchive:
            outcome = await perform(.archive, "archive", info.threadId, .archived(threadId: info.threadId))
        case AppConstants.notificationActionDelete:
            outcome = await perform(.delete, "delete", info.threadId, .deleted(threadId: info.threadId))
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

    /// NOTIF-06e: opens the conversation (`Conversations.open`: its notification withdrawn, marked
    /// read on the server when the setting says so) and hands it to whoever shows threads; a
    /// conversation that is gone is reported and its notifications cleared.
    private func openThread(_ threadId: String) async -> NotificationActionOutcome {
        let conversation: Conversation
        do {
            conversation = try await conversations.open(threadId)
        } catch .threadNotFound {
            await notificationService.removeNotifications(forThreadId: threadId)
            return .failed(action: "open", message: "that conversation no longer exists; it was deleted or moved since the notification")
        } catch {
            return .failed(action: "open", message: "could not look up the conversation: \(error)")
        }
        if let marking = conversation.markingRead {
            Task { [weak self] in
                guard let problem = await marking.value else { return }
                await self?.onOutcome?(.failed(
                    action: "mark read",
                    message: "the conversation is open but still unread on the server: \(problem). It is marked read when you open it again"))
            }
        }
        coordinator?.pendingThreadNavigation = threadId
        return .openedThread(threadId: threadId)
    }

    /// One of the notification's buttons, through `Conversations.perform`, which withdraws the
    /// notification and counts the badge again once the server has done it.
    private func perform(
        _ action: ConversationAction, _ name: String, _ threadId: String, _ success: NotificationActionOutcome
    ) async -> NotificationActionOutcome {
        let result = await conversations.perform(action, on: [threadId])
        if let failure = result.failed.first {
            return .failed(action: name, message: "could not \(name) the conversation: \(failure.error)")
        }
        return success
    }

    /// NOTIF-06d: the reply `Compose.answer` writes — to the sender, "Re:", threaded, the typed
    /// text above the signature, the attribution line and the quoted original, as a reply from
    /// the tool or the web composer — saved, queued and sent now (no undo delay).
    private func reply(to info: NotificationUserInfo, text: String?) async -> NotificationActionOutcome {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            // The reply is written in full where the conversation is shown: open it there.
            if case .failed(_, let message) = await openThread(info.threadId) { return .failed(action: "reply", message: message) }
            return .composeRequested(emailId: info.emailId)
        }
        let reply: DraftContent
        do {
            reply = try await composition.answer(.reply, emailId: info.emailId, typed: text)
        } catch ComposeError.originalNotFound {
            return .failed(action: "reply", message: "the email being answered no longer exists; nothing was sent")
        } catch {
            return .failed(action: "reply", message: "could not read the email being answered: \(error); nothing was sent")
        }
        let draftId: String
        do {
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
