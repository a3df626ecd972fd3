import Foundation

/// Working offline like a mail client (issue 29): an action on a conversation whose server
/// cannot be reached is shown on this computer at once and kept, in order, until the server
/// can be reached; then it is replayed there once. Written once here for every face: the tool,
/// the web app and the daemon's notification actions act through `Conversations`, which keeps
/// changes through this; every sync replays the account's waiting changes before it reads the
/// server (`SyncEmailsUseCase`), so the server's state never undoes one.
///
/// - While an account has changes waiting, its new actions wait behind them (order).
/// - Replaying: oldest first; a change the server finds done already (a message deleted or
///   moved there meanwhile) is done; one that cannot be done any more (a move to a folder that
///   no longer exists) is dropped, the conversation stays where the server has it, and the
///   report says so in plain words; a server that cannot be reached stops the account's replay
///   until the next time; a refusal stops it too, and after `maximumRefusals` the change is
///   dropped with its reason, so one bad change never blocks the queue for good.
public struct PendingChanges: Sendable {
    /// Refused attempts after which a change is given up.
    public static let maximumRefusals = 3

    private let server: any TriageServer
    private let queue: any PendingChangeRepository
    private let clock: any WallClock

    /// Nil when `server` keeps no changes (`pendingChanges` nil).
    public init?(server: any TriageServer, clock: any WallClock = SystemWallClock()) {
        guard let queue = server.pendingChanges else { return nil }
        self.server = server
        self.queue = queue
        self.clock = clock
    }

    /// What a replay did.
    public struct Report: Sendable, Equatable {
        /// Changes now done on the server.
        public var done: [PendingChange] = []
        /// Changes dropped, each with what happened in a person's words.
        public var problems: [String] = []
        /// Changes still waiting afterwards.
        public var waiting = 0

        public init() {}
    }

    /// The changes still waiting, oldest first (every account's when nil).
    public func waiting(accountId: String? = nil) async throws -> [PendingChange] {
        try await queue.pending(accountId: accountId)
    }

    /// Not tried on the server: the account has changes waiting, which go first.
    public struct Waiting: Error {
        public init() {}
    }

    /// Whether `error` of a server-first action means the action can wait for the server.
    public func canWait(after error: any Error) -> Bool {
        if case .actionFailed(let underlying) = error as? ThreadListError { return canWait(after: underlying) }
        return error is Waiting || server.isUnreachable(error)
    }

    /// Whether the account has changes waiting (its new actions then wait behind them).
    public func hasWaiting(accountId: String) async -> Bool {
        (try? await queue.pending(accountId: accountId).isEmpty == false) ?? false
    }

    /// Shows `action` on the conversation here at once and keeps it for the server.
    public func keep(_ action: ConversationAction, threadId: String) async throws -> PendingChange {
        let local = server.local
        guard let thread = try await local.getThread(id: threadId) else { throw RepositoryError.threadNotFound(id: threadId) }
        var folderName: String?
        if case .move(let folderId) = action {
            guard let folder = try await local.getFolder(id: folderId) else { throw RepositoryError.folderNotFound(id: folderId) }
            folderName = folder.name
        }
        let copies = try await server.copies(threadId: threadId)
        switch action {
        case .read: try await local.setThreadRead(id: threadId, isRead: true)
        case .unread: try await local.setThreadRead(id: threadId, isRead: false)
        case .star: try await local.setThreadStarred(id: threadId, isStarred: true)
        case .unstar: try await local.setThreadStarred(id: threadId, isStarred: false)
        case .archive: try await local.archiveThread(id: threadId)
        case .delete: try await local.deleteThread(id: threadId)
        case .move(let folderId): try await local.moveThread(id: threadId, toFolderId: folderId)
        case .snooze, .unsnooze:
            // Issue 33: into the Snoozed folder (it must be here already: creating it needs the
            // server), or back to the inbox.
            let type: FolderType = action == .unsnooze ? .inbox : .snoozed
            guard let folder = try await local.getFolders(accountId: thread.accountId).first(where: { $0.folderType == type }) else {
                throw RepositoryError.missingFolder(accountId: thread.accountId, type: type)
            }
            try await local.moveThread(id: threadId, toFolderId: folder.id)
        }
        return try await queue.add(PendingChange(
            accountId: thread.accountId, threadId: threadId, subject: thread.subject, action: action,
            folderName: folderName, copies: copies, createdAt: clock.now))
    }

    /// Replays the waiting changes (of `accountId`, or of every account), oldest first.
    public func replay(accountId: String? = nil) async -> Report {
        var report = Report()
        guard let changes = try? await queue.pending(accountId: accountId) else { return report }
        var stopped: Set<String> = []
        for change in changes where !stopped.contains(change.accountId) {
            do {
                switch try await server.replay(change) {
                case .done: report.done.append(change)
                case .notPossible(let problem): report.problems.append(problem)
                }
            } catch let error where server.isUnreachable(error) {
                stopped.insert(change.accountId)
            } catch {
                let reason = "\(error)"
                if change.attempts + 1 >= Self.maximumRefusals {
                    try? await queue.remove(id: change.id)
                    report.problems.append("\(change.summary) was not done on the server: it refused \(Self.maximumRefusals) times (\(reason)). The next sync shows the conversation as the server has it.")
                } else {
                    try? await queue.recordRefusal(id: change.id, reason: reason)
                    stopped.insert(change.accountId)
                }
            }
        }
        report.waiting = (try? await queue.pending(accountId: accountId).count) ?? 0
        return report
    }

    /// The words for changes kept for the server: "Archived “Quarterly plan” — will be done on
    /// the server when it’s reachable." (several: "Archived 3 conversations — …").
    public static func note(_ kept: [PendingChange]) -> String? {
        guard let first = kept.first else { return nil }
        let summary = kept.count == 1 ? first.summary
            : PendingChange.summary(first.action, what: "\(kept.count) conversations", folderName: first.folderName)
        return "\(summary) — will be done on the server when it’s reachable."
    }

    /// "1 change waiting for the server", "3 changes waiting for the server"; nil for none.
    public static func waitingText(_ count: Int) -> String? {
        count == 0 ? nil : "\(count) change\(count == 1 ? "" : "s") waiting for the server"
    }
}
