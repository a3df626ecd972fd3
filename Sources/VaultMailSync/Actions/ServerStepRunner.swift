import Foundation
import VaultMailCore
import VaultMailIMAP

/// Runs an action's server steps in order. When one fails, the steps already done are
/// undone in reverse (flags exactly: only the messages whose flag changed are changed back;
/// moves back to where they came from when COPYUID told where they went).
struct ServerStepRunner {
    let imap: IMAPConnection
    let action: String
    let account: Account
    let syncStore: any SyncRepository

    /// Returns the links learned from COPYUID (email id, destination folder, new UID).
    func run(_ steps: [ServerStep]) async throws -> [EmailFolder] {
        var undo: [ServerStep] = []
        var learned: [EmailFolder] = []
        var undoable = true
        for step in steps {
            do {
                switch step {
                case .flag(let folder, let uids, let flag, let set):
                    _ = try await imap.select(folder.path)
                    let current = try await imap.fetchFlags(UIDSet(uids))
                    let changing = current.filter { $0.flags.contains(flag) != set }.map(\.uid)
                    guard !changing.isEmpty else { continue }
                    try await imap.storeFlags([flag], set ? .add : .remove, uids: UIDSet(changing))
                    undo.append(.flag(folder: folder, uids: changing, flag: flag, set: !set))
                case .move(let source, let uids, let target):
                    _ = try await imap.select(source.path)
                    let result = try await imap.move(UIDSet(uids.keys), to: target.path)
                    var back: [UInt32: String] = [:]
                    for (old, new) in result?.uidMapping ?? [:] {
                        guard let emailId = uids[old] else { continue }
                        learned.append(EmailFolder(emailId: emailId, folderId: target.id, uid: new))
                        back[new] = emailId
                    }
                    if back.count == uids.count {
                        undo.append(.move(from: target, uids: back, to: source))
                    } else {
                        undoable = false
                    }
                case .expunge(let folder, let uids):
                    _ = try await imap.select(folder.path)
                    try await imap.deleteMessages(uids: UIDSet(uids))
                    undoable = false
                }
            } catch {
                var restored = undo.isEmpty
                if undoable && !undo.isEmpty {
                    let (complete, links) = await undoSteps(undo)
                    restored = complete
                    // Messages moved back have new UIDs where they started: keep the links right.
                    try? await syncStore.setLinkUIDs(links)
                }
                throw ServerActionError(
                    kind: .server, action: action, accountName: account.name, mailbox: step.mailbox,
                    underlying: error, serverPartlyChanged: !restored)
            }
        }
        return learned
    }

    /// Undoes done steps, newest first: whether all of them were undone, and the UIDs that
    /// messages moved back got.
    private func undoSteps(_ steps: [ServerStep]) async -> (Bool, [EmailFolder]) {
        var links: [EmailFolder] = []
        for step in steps.reversed() {
            do {
                switch step {
                case .flag(let folder, let uids, let flag, let set):
                    _ = try await imap.select(folder.path)
                    try await imap.storeFlags([flag], set ? .add : .remove, uids: UIDSet(uids))
                case .move(let source, let uids, let target):
                    _ = try await imap.select(source.path)
                    let result = try await imap.move(UIDSet(uids.keys), to: target.path)
                    for (old, new) in result?.uidMapping ?? [:] {
                        if let emailId = uids[old] { links.append(EmailFolder(emailId: emailId, folderId: target.id, uid: new)) }
                    }
                case .expunge:
                    return (false, links)
                }
            } catch {
                return (false, links)
            }
        }
        return (true, links)
    }
}

extension ServerStep {
    /// The mailbox the step acts on, for error messages.
    var mailbox: String {
        switch self {
        case .flag(let folder, _, _, _): folder.path
        case .move(_, _, let target): target.path
        case .expunge(let folder, _): folder.path
        }
    }
}
