import Foundation
import VaultMailCore
import VaultMailIMAP

extension ServerStepRunner {
    /// The target folder of a move no longer exists on the server.
    struct MissingTarget: Error {}

    /// Runs the steps of a change kept for later (issue 29), each on its own: a step whose
    /// folder is gone, or whose messages are (UIDs the server no longer has), changes nothing
    /// and is not an error. Unlike `run`, nothing is undone: each step stands alone and can be
    /// run again. Throws `MissingTarget` when a move's target is gone, the connection's errors
    /// (`IMAPError` with a `connectionFailure`) as they are, and any other refusal.
    /// Returns the links learned from COPYUID.
    func replay(_ steps: [ServerStep]) async throws -> [EmailFolder] {
        var learned: [EmailFolder] = []
        for step in steps {
            switch step {
            case .flag(let folder, let uids, let flag, let set):
                guard try await selectIfThere(folder) else { continue }
                let current = try await imap.fetchFlags(UIDSet(uids))
                // A snooze keyword replaces any other (issue 33, docs/snooze.md).
                let stale = Set(current.flatMap(\.flags).filter { set && $0 != flag && SnoozeTime.isKeyword($0.name) && SnoozeTime.isKeyword(flag.name) })
                if !stale.isEmpty { try await imap.storeFlags(stale, .remove, uids: UIDSet(current.map(\.uid))) }
                let changing = current.filter { $0.flags.contains(flag) != set }.map(\.uid)
                guard !changing.isEmpty else { continue }
                try await imap.storeFlags([flag], set ? .add : .remove, uids: UIDSet(changing))
            case .move(let source, let uids, let target):
                guard try await selectIfThere(source) else { continue }
                // Only the UIDs still there: a message moved or deleted meanwhile is done.
                let present = Set(try await imap.fetchFlags(UIDSet(uids.keys)).map(\.uid))
                guard !present.isEmpty else { continue }
                let result: IMAPCopyResult?
                do {
                    result = try await imap.move(UIDSet(present), to: target.path)
                } catch let error as IMAPError where error.connectionFailure == nil && Self.mailboxMissing(error) {
                    throw MissingTarget()
                }
                for (old, new) in result?.uidMapping ?? [:] {
                    if let emailId = uids[old] { learned.append(EmailFolder(emailId: emailId, folderId: target.id, uid: new)) }
                }
            case .expunge(let folder, let uids):
                guard try await selectIfThere(folder) else { continue }
                let present = try await imap.fetchFlags(UIDSet(uids)).map(\.uid)
                guard !present.isEmpty else { continue }
                try await imap.deleteMessages(uids: UIDSet(present))
            }
        }
        return learned
    }

    /// Selects `folder`; false when the server has no such folder any more, or its UIDVALIDITY
    /// is not the one the kept UIDs belong to (they would name other messages now).
    private func selectIfThere(_ folder: Folder) async throws -> Bool {
        do {
            let status = try await imap.select(folder.path)
            return folder.uidValidity == nil || folder.uidValidity == status.uidValidity
        } catch let error as IMAPError where error.connectionFailure == nil && Self.mailboxMissing(error) {
            return false
        }
    }

    /// The server's words for a mailbox that does not exist (RFC 3501 TRYCREATE, RFC 5530
    /// NONEXISTENT, Dovecot's "Mailbox doesn't exist").
    static func mailboxMissing(_ error: IMAPError) -> Bool {
        guard error.kind == .commandFailed, let words = error.serverResponse?.lowercased() else { return false }
        return words.contains("trycreate") || words.contains("nonexistent") || words.contains("doesn't exist")
            || words.contains("does not exist")
    }
}
