import Foundation
import VaultMailCore
import VaultMailNotifications

/// The desktop's notification centre with suggested replies (issue 16, AC-A-05): a new mail's
/// notification is shown at once, as always; when the writing model has written replies to
/// it (on its own thread, never delaying the notification), the notification is shown again
/// in place with a button for each, silently. Nothing is added to a notification the user has
/// already dealt with.
@MainActor
final class ReplySuggestingNotificationCenter: NotificationCenterProviding {
    private let base: any NotificationCenterProviding
    /// The replies to a thread's latest message, none when no model wrote them.
    private let suggest: @Sendable (String) async -> [String]
    /// The most buttons of replies (the server also shows Open, Mark Read, Archive, Delete, Reply).
    nonisolated static let maximumSuggestions = 2

    init(base: any NotificationCenterProviding, suggest: @escaping @Sendable (String) async -> [String]) {
        self.base = base
        self.suggest = suggest
    }

    /// Model-written replies to a thread, or none: suggestions from past replies or plain
    /// phrases alone are not worth a button.
    nonisolated static func modelReplies(_ useCase: SmartReplyUseCase, threadId: String) async -> [String] {
        guard let suggestions = try? await useCase.suggest(threadId: threadId), suggestions.source == .model else { return [] }
        return Array(suggestions.suggestions.map(\.text).prefix(maximumSuggestions))
    }

    /// Notifications whose replies are being written.
    private(set) var writing = 0

    func add(_ request: NotificationRequest) async throws {
        try await base.add(request)
        guard request.content.suggestedReplies.isEmpty else { return }
        let suggest = suggest
        writing += 1
        Task { @MainActor [weak self] in
            let replies = await suggest(request.content.threadIdentifier)
            defer { self?.writing -= 1 }
            guard let self, !replies.isEmpty,
                  await self.base.deliveredNotifications().contains(where: { $0.request.identifier == request.identifier })
            else { return }
            var updated = request
            updated.content.suggestedReplies = replies
            updated.content.sound = .none
            try? await self.base.add(updated)
        }
    }

    func requestAuthorization(options: NotificationAuthorizationOptions) async throws -> Bool {
        try await base.requestAuthorization(options: options)
    }

    func authorizationStatus() async -> NotificationAuthStatus { await base.authorizationStatus() }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
        await base.removeDeliveredNotifications(withIdentifiers: identifiers)
    }

    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async {
        await base.removePendingNotificationRequests(withIdentifiers: identifiers)
    }

    func setNotificationCategories(_ categories: Set<NotificationCategory>) async {
        await base.setNotificationCategories(categories)
    }

    func setBadgeCount(_ count: Int) async throws { try await base.setBadgeCount(count) }

    func deliveredNotifications() async -> [DeliveredNotification] { await base.deliveredNotifications() }

    func setDelegate(_ delegate: (any NotificationCenterDelegate)?) { base.setDelegate(delegate) }
}
