import Foundation
import VaultMailCore
import VaultMailIMAP

/// Changes kept while the server could not be reached (issue 29, `PendingChanges` in Core):
/// what "unreachable" is for IMAP, which copies a change is carried out on, and the replay.
extension IMAPEmailRepository: TriageServer {
    public func isUnreachable(_ error: any Error) -> Bool {
        Self.unreachable(error)
    }

    /// A refused connection, an unknown host, no answer in time or a dropped connection, under
    /// whatever wraps it; TLS, certificate and sign-in failures are not.
    static func unreachable(_ error: any Error) -> Bool {
        switch error {
        case let error as IMAPError:
            return [.connectionFailed, .timedOut, .connectionLost].contains(error.connectionFailure)
        case let error as ServerActionError:
            return error.kind == .server && error.underlying.map(unreachable) == true
        case let error as SyncError:
            return error.kind == .server && error.underlying.map(unreachable) == true
        case let error as ThreadListError:
            if case .actionFailed(let underlying) = error { return unreachable(underlying) }
            return false
        default:
            return false
        }
    }

    public func copies(threadId: String) async throws -> [EmailFolder] {
        let emails = try await local.getEmails(threadId: threadId)
        return try await syncStore.links(emailIds: emails.map(\.id))
    }

    /// Plans `change` over the copies it was kept with (those whose UID was known), as an
    /// action done at once is planned, and runs it leniently: a copy gone from the server (its
    /// folder or its UID) was deleted or moved there meanwhile, which is not an error. A move
    /// whose target folder no longer exists puts the conversation back where the server has it.
    public func replay(_ kept: PendingChange) async throws -> ReplayOutcome {
        guard let queue = pendingChanges, let account = try await accounts.getAccount(id: kept.accountId) else { return .done }
        let (local, syncStore) = (local, syncStore)
        let action = "replay: \(kept.summary)"
        return try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            // As kept now (an earlier replay may have taught it UIDs); done meanwhile (by another
            // VaultMail process): nothing to send.
            guard let change = try await queue.change(id: kept.id) else { return .done }
            let copies = change.copies.filter { $0.uid != nil }
            let ids = Array(Set(change.copies.map(\.emailId))).sorted()
            let emails = try await local.getEmails(ids: ids)
            let folders = try await local.getFolders(accountId: account.id)
            var outcome = ReplayOutcome.done
            if case .move(let folderId) = change.action, !folders.contains(where: { $0.id == folderId }) {
                outcome = await Self.putBack(change, folders: folders, local: local, syncStore: syncStore)
            } else {
                let context = ActionContext(account: account, folders: folders, emails: emails, emailIds: ids, links: copies)
                let steps = (try? context.steps(for: change.action)) ?? []
                do {
                    let learned = try await ServerStepRunner(imap: imap, action: action, account: account, syncStore: syncStore)
                        .replay(steps)
                    // Only links still here learn their UID (a later change may have moved the
                    // message on here); later changes learn it too, for their own replay.
                    let present = Set(try await syncStore.links(emailIds: learned.map(\.emailId)).map { "\($0.emailId)\u{1F}\($0.folderId)" })
                    try await syncStore.setLinkUIDs(learned.filter { present.contains("\($0.emailId)\u{1F}\($0.folderId)") })
                    try await queue.learnUIDs(learned, accountId: account.id)
                } catch is ServerStepRunner.MissingTarget {
                    outcome = await Self.putBack(change, folders: folders, local: local, syncStore: syncStore)
                }
            }
            try await queue.remove(id: change.id)
            return outcome
        }
    }

    /// A move that cannot be done: the conversation goes back here to the folder it was kept
    /// from (with its UIDs), and the words say so.
    private static func putBack(
        _ change: PendingChange, folders: [Folder], local: any EmailRepository, syncStore: any SyncRepository
    ) async -> ReplayOutcome {
        let target = change.folderName ?? "that folder"
        let known = change.copies.filter { copy in folders.contains { $0.id == copy.folderId } }
        let origin = known.first.flatMap { copy in folders.first { $0.id == copy.folderId } }
        if let origin {
            try? await local.moveThread(id: change.threadId, toFolderId: origin.id)
            try? await syncStore.setLinkUIDs(known)
        }
        let stays = origin.map { " It stays in \($0.name)." } ?? ""
        return .notPossible(problem: "Couldn’t move \(change.quotedSubject) to \(target): that folder no longer exists on the server.\(stays)")
    }
}
