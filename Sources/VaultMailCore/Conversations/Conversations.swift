import Foundation

/// The application service for reading mail (ARCHITECTURE.md, "The application layer"): what
/// opening a conversation does and what acting on conversations does, written once for the
/// `vaultmail` tool, the web app and the daemon (issue 28).
///
/// - `open`: the conversation's messages in reading order; its desktop notification is
///   withdrawn; when it has unread mail and mark-read-on-open is on, it is marked read on the
///   server first (`MarkReadUseCase` over the server-backed repository), then in the store.
/// - `perform`: read, unread, star, unstar, archive, delete and move on many conversations
///   (`ManageThreadActionsUseCase`); each that was read, or left the inbox, has its
///   notification withdrawn. Over a server-backed repository that keeps changes
///   (`TriageServer`), an action the server cannot take now because it cannot be reached is
///   shown here at once and kept for it (`PendingChanges`), as is every action of an account
///   that has changes waiting.
///
/// Muting and VIP senders are notification settings, not actions on mail.
public struct Conversations: Sendable {
    private let emails: any EmailRepository
    private let actions: ManageThreadActionsUseCase
    private let markRead: MarkReadUseCase
    private let markReadOnOpen: @Sendable () async -> Bool
    private let withdrawNotifications: (@Sendable (_ threadId: String) async -> Void)?
    /// The changes kept for the server, when `emails` keeps them.
    public let pendingChanges: PendingChanges?
    /// Decrypts and checks OpenPGP mail as a conversation is read (issue 32); nil where there
    /// is no OpenPGP engine (messages are then shown as stored).
    private let openPGP: OpenPGPReading?

    /// - Parameters:
    ///   - emails: reads the store; its actions reach the server first (the IMAP-backed repository).
    ///   - markReadOnOpen: the user's setting, read at each open.
    ///   - withdrawNotifications: withdraws a conversation's desktop notification and counts the
    ///     badge again. Nil in a process that shows none (the tool): the daemon beside it sees
    ///     the store change and withdraws what became read or left the inbox.
    ///   - openPGP: reads the conversation's OpenPGP messages (decrypted, signatures checked).
    public init(
        emails: any EmailRepository, markReadOnOpen: @escaping @Sendable () async -> Bool,
        withdrawNotifications: (@Sendable (_ threadId: String) async -> Void)?, openPGP: OpenPGPReading? = nil
    ) {
        self.emails = emails
        self.openPGP = openPGP
        actions = ManageThreadActionsUseCase(repository: emails)
        markRead = MarkReadUseCase(repository: emails)
        self.markReadOnOpen = markReadOnOpen
        self.withdrawNotifications = withdrawNotifications
        pendingChanges = (emails as? any TriageServer).flatMap { PendingChanges(server: $0) }
    }

    /// The setting from `settings`.
    public init(emails: any EmailRepository, settings: SettingsStore,
                withdrawNotifications: (@Sendable (_ threadId: String) async -> Void)?, openPGP: OpenPGPReading? = nil) {
        self.init(emails: emails, markReadOnOpen: { await MainActor.run { settings.markReadOnOpen } },
                  withdrawNotifications: withdrawNotifications, openPGP: openPGP)
    }

    // MARK: Opening

    /// Opens the conversation `threadId`: its messages oldest first (the newest `newest` of
    /// them when given, `Conversation.olderCount` saying how many are left out), its notification
    /// withdrawn, and marking it read started (`Conversation.markingRead`): all of it, the
    /// messages left out too. Throws `ThreadListError.threadNotFound` when it no longer exists, `.fetchFailed`.
    public func open(_ threadId: String, newest: Int? = nil) async throws(ThreadListError) -> Conversation {
        var conversation = try await self.conversation(threadId, newest: newest)
        await withdrawNotifications?(threadId)
        let unread = conversation.thread.unreadCount > 0 || conversation.messages.contains { !$0.isRead }
        if unread, await markReadOnOpen() {
            let (markRead, withdraw, thread, pending) = (markRead, withdrawNotifications, conversation.thread, pendingChanges)
            conversation.markingRead = Task {
                do throws(ThreadListError) {
                    if let pending, await pending.hasWaiting(accountId: thread.accountId) {
                        throw .actionFailed(underlying: PendingChanges.Waiting())
                    }
                    try await markRead.markAllRead(in: thread)
                } catch {
                    // The server cannot be reached: read here now, on the server later.
                    guard let pending, pending.canWait(after: error) else { return error }
                    do { _ = try await pending.keep(.read, threadId: thread.id) } catch { return ManageThreadActionsUseCase.map(error) }
                }
                // Mail that arrived while it was marked (its notification posted meanwhile).
                await withdraw?(thread.id)
                return nil
            }
        }
        return conversation
    }

    /// The conversation as it is now, without opening it (a page showing it again after a
    /// change): nothing is marked or withdrawn. Throws like `open`.
    public func conversation(_ threadId: String, newest: Int? = nil) async throws(ThreadListError) -> Conversation {
        let thread: EmailThread
        let stored: [Email]
        var older = 0
        do {
            guard let found = try await emails.getThread(id: threadId) else { throw ThreadListError.threadNotFound(id: threadId) }
            thread = found
            if let newest {
                (stored, older) = try await emails.getEmails(threadId: threadId, newest: max(1, newest))
            } else {
                stored = try await emails.getEmails(threadId: threadId)
            }
        } catch let error as ThreadListError {
            throw error
        } catch {
            throw .fetchFailed(underlying: error)
        }
        guard !stored.isEmpty else { throw .threadNotFound(id: threadId) }
        var conversation = Conversation(thread: thread, messages: Self.ordered(stored))
        conversation.olderCount = older
        if let openPGP {
            for (index, email) in conversation.messages.enumerated() {
                guard let (shown, crypto) = await openPGP.read(email) else { continue }
                conversation.messages[index] = shown
                conversation.crypto[email.id] = crypto
                // The first message's protected subject names the conversation while it is open.
                if index == 0, shown.subject != email.subject, conversation.thread.subject == email.subject {
                    conversation.thread.subject = shown.subject
                }
            }
        }
        return conversation
    }

    /// Reading order: oldest first by arrival; messages that arrived in the same second by
    /// when they were written; then as given.
    public static func ordered(_ emails: [Email]) -> [Email] {
        emails.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.dateReceived != y.dateReceived { return x.dateReceived < y.dateReceived }
            let (sentX, sentY) = (x.dateSent ?? x.dateReceived, y.dateSent ?? y.dateReceived)
            return sentX != sentY ? sentX < sentY : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Acting

    /// Carries out `action` on each conversation, on the server first; reports which failed
    /// and why. Those the server could not be reached for are done here and kept for it
    /// (`BatchActionResult.kept`, also among `succeeded`). Notifications of those read,
    /// archived, deleted or moved are withdrawn.
    public func perform(_ action: ConversationAction, on ids: [String]) async -> BatchActionResult {
        guard let pendingChanges else { return await withdrawing(action, await onServer(action, ids)) }
        // An account with changes waiting: its actions wait behind them, in order.
        var waiting: Set<String> = []
        var direct: [String] = []
        for id in ids {
            if let accountId = try? await emails.getThread(id: id)?.accountId, await pendingChanges.hasWaiting(accountId: accountId) {
                waiting.insert(id)
            } else {
                direct.append(id)
            }
        }
        let tried = direct.isEmpty ? BatchActionResult() : await onServer(action, direct)
        var result = BatchActionResult(succeeded: tried.succeeded)
        result.notUpdatedHere = tried.notUpdatedHere
        var failed = Dictionary(tried.failed.map { ($0.id, $0.error) }, uniquingKeysWith: { first, _ in first })
        for id in ids where waiting.contains(id) || failed[id].map(pendingChanges.canWait(after:)) == true {
            do {
                result.kept.append(try await pendingChanges.keep(action, threadId: id))
                result.succeeded.append(id)
                failed[id] = nil
            } catch {
                failed[id] = ManageThreadActionsUseCase.map(error)
            }
        }
        result.failed = ids.compactMap { id in failed[id].map { (id: id, error: $0) } }
        return await withdrawing(action, result)
    }

    /// "Mark all as read" (issue 29): every unread conversation of `list` (its category tab
    /// included), none whose latest mail in it is newer than `upTo` (the newest the list showed:
    /// mail that arrived since stays unread), marked read as `perform(.read, on:)` marks them:
    /// on the server first, kept for it when it cannot be reached, notifications withdrawn.
    /// Conversations of other folders, tabs or accounts are never touched. Throws when the list
    /// cannot be read (`ThreadListError.folderNotFound`, `.fetchFailed`).
    public func markAllRead(in list: ConversationList, upTo: Date? = nil) async throws(ThreadListError) -> BatchActionResult {
        let ids = try await Mailboxes(emails: emails).unreadThreadIds(in: list, upTo: upTo)
        return ids.isEmpty ? BatchActionResult() : await perform(.read, on: ids)
    }

    /// `action` on the server first, then the store.
    private func onServer(_ action: ConversationAction, _ ids: [String]) async -> BatchActionResult {
        switch action {
        case .read: await actions.markThreadsRead(ids: ids)
        case .unread: await actions.markThreadsUnread(ids: ids)
        case .star: await actions.starThreads(ids: ids, isStarred: true)
        case .unstar: await actions.starThreads(ids: ids, isStarred: false)
        case .archive: await actions.archiveThreads(ids: ids)
        case .delete: await actions.deleteThreads(ids: ids)
        case .move(let folderId): await actions.moveThreads(ids: ids, toFolderId: folderId)
        case .snooze, .unsnooze:
            // Snoozing is `Snooze`'s (it keeps the time on the server too).
            BatchActionResult(failed: ids.map { ($0, ThreadListError.actionFailed(underlying: SnoozeError.notHere)) })
        }
    }

    private func withdrawing(_ action: ConversationAction, _ result: BatchActionResult) async -> BatchActionResult {
        if action.withdrawsNotification, let withdrawNotifications {
            for id in result.succeeded { await withdrawNotifications(id) }
        }
        return result
    }
}
