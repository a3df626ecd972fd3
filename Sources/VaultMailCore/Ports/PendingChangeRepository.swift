import Foundation

/// The changes kept for the mail server while it could not be reached (`PendingChange`),
/// persisted so they survive a restart. Every call is one transaction.
public protocol PendingChangeRepository: Sendable {
    /// Keeps `change` after every change kept before; returns it with its `id`.
    @discardableResult
    func add(_ change: PendingChange) async throws -> PendingChange
    /// The changes still waiting, oldest first; every account's when nil.
    func pending(accountId: String?) async throws -> [PendingChange]
    /// The change `id` as it is kept now (its copies may have learned UIDs since it was read),
    /// nil when it is no longer waiting.
    func change(id: Int64) async throws -> PendingChange?
    /// The change is done (or cannot be done): it is forgotten.
    func remove(id: Int64) async throws
    /// The server refused an attempt: counted, with its words.
    func recordRefusal(id: Int64, reason: String) async throws
    /// UIDs the server gave messages a replayed change moved (COPYUID): the account's later
    /// changes kept with those copies' UID unknown (a conversation archived, then deleted,
    /// offline) are carried out on them.
    func learnUIDs(_ links: [EmailFolder], accountId: String) async throws
}

/// The server half of conversation actions, for the changes kept while the server could not be
/// reached (`PendingChanges`): implemented by the repository whose actions reach the server
/// first (`IMAPEmailRepository`). `Conversations` keeps changes only over a repository that is one.
public protocol TriageServer: Sendable {
    /// The store alone: a change kept for later is shown here at once.
    var local: any EmailRepository { get }
    /// Where kept changes wait; nil when this repository keeps none (the action fails instead).
    var pendingChanges: (any PendingChangeRepository)? { get }
    /// Whether `error`, from one of this repository's actions, means the server could not be
    /// reached (refused connection, unknown host, no answer, a dropped connection), so the
    /// action can wait for it. Refusals, TLS and sign-in problems are not.
    func isUnreachable(_ error: any Error) -> Bool
    /// The server copies (folder, UID) of the conversation's messages as the store knows them.
    func copies(threadId: String) async throws -> [EmailFolder]
    /// Carries out `change` on the server only (the store shows it done already), as it is kept
    /// when its turn comes, unless it was done meanwhile (by another process): then it is
    /// `.done` without a command. The change is
    /// removed from `pendingChanges` when it ends (done or not possible) before the account's
    /// connection serves anything else. Throws when the server cannot be reached or refuses.
    func replay(_ change: PendingChange) async throws -> ReplayOutcome
}
