import Foundation
import VaultMailCore
import VaultMailIMAP

/// What an action is planned from: the account, its folders, the emails acted on and their
/// folder links with UIDs.
struct ActionContext: Sendable {
    let account: Account
    let folders: [Folder]
    /// The emails acted on that are stored (all of them, but in a replay: see `emailIds`).
    let emails: [Email]
    /// The ids of the emails acted on; in a replay also those deleted here for good since.
    let emailIds: [String]
    let links: [EmailFolder]

    init(account: Account, folders: [Folder], emails: [Email], emailIds: [String]? = nil, links: [EmailFolder]) {
        self.account = account
        self.folders = folders
        self.emails = emails
        self.emailIds = emailIds ?? emails.map(\.id)
        self.links = links
    }

    func folder(_ type: FolderType) throws -> Folder? {
        folders.first { $0.folderType == type }
    }

    func links(of emailId: String) -> [EmailFolder] {
        links.filter { $0.emailId == emailId }
    }

    /// UID → email id of these emails' copies in `folder`; throws when a copy's UID is unknown.
    func uids(of emails: [Email], in folder: Folder) throws -> [UInt32: String] {
        try uids(ofIds: Set(emails.map(\.id)), in: folder)
    }

    /// UID → email id of the copies in `folder` of the emails `ids`.
    func uids(ofIds ids: Set<String>, in folder: Folder) throws -> [UInt32: String] {
        var result: [UInt32: String] = [:]
        for link in links where link.folderId == folder.id && ids.contains(link.emailId) {
            guard let uid = link.uid else { throw UnknownUID(mailbox: folder.path) }
            result[uid] = link.emailId
        }
        return result
    }

    /// MOVE steps for the copies of the emails `ids` in each of `sources` to `target`.
    func moves(of ids: [String], from sources: [Folder], to target: Folder) throws -> [ServerStep] {
        try sources.sorted { $0.path < $1.path }.compactMap { source in
            let uids = try uids(ofIds: Set(ids), in: source)
            return uids.isEmpty ? nil : .move(from: source, uids: uids, to: target)
        }
    }

    /// STORE steps setting (or clearing) `flag` on every copy of the emails `ids`.
    func flagSteps(_ flag: IMAPFlag, set: Bool, on ids: [String]) throws -> [ServerStep] {
        try folders.sorted { $0.path < $1.path }.compactMap { folder in
            let uids = try uids(ofIds: Set(ids), in: folder)
            return uids.isEmpty ? nil : .flag(folder: folder, uids: uids.keys.sorted(), flag: flag, set: set)
        }
    }
}

extension ActionContext {
    /// The server steps of `action` on the emails acted on (AC-F-08): one plan for an action
    /// done at once and for one replayed later (`IMAPEmailRepository.replay`).
    func steps(for action: ConversationAction) throws -> [ServerStep] {
        switch action {
        case .archive:
            let target = try folder(.archive) ?? folder(.allMail)
            guard let target else { throw RepositoryError.missingFolder(accountId: account.id, type: .archive) }
            return try moves(of: emailIds, from: folders.filter { $0.folderType == .inbox }, to: target)
        case .delete:
            guard let trash = try folder(.trash) else { throw RepositoryError.missingFolder(accountId: account.id, type: .trash) }
            let onlyInTrash = emailIds.filter { id in links(of: id).allSatisfy { $0.folderId == trash.id } }
            let elsewhere = emailIds.filter { !onlyInTrash.contains($0) }
            var steps = try moves(of: elsewhere, from: folders.filter { $0.id != trash.id }, to: trash)
            let expunged = try uids(ofIds: Set(onlyInTrash), in: trash)
            if !expunged.isEmpty { steps.append(.expunge(folder: trash, uids: expunged.keys.sorted())) }
            return steps
        case .move(let folderId):
            guard let target = folders.first(where: { $0.id == folderId }) else { throw RepositoryError.folderNotFound(id: folderId) }
            let views: Set<FolderType> = [.sent, .drafts, .allMail, .starred]
            let sources = folders.filter { !views.contains($0.folderType) && $0.id != target.id }
            return try moves(of: emailIds, from: sources, to: target)
        case .read, .unread:
            return try flagSteps(.seen, set: action == .read, on: emailIds)
        case .star:
            // As the store does: starring marks the latest email, unstarring clears them all.
            let latest = emails.max { ($0.dateReceived, $0.id) < ($1.dateReceived, $1.id) }
            return try flagSteps(.flagged, set: true, on: latest.map { [$0.id] } ?? [])
        case .unstar:
            return try flagSteps(.flagged, set: false, on: emailIds)
        case .snooze(let time):
            // A snooze kept while the server could not be reached (issue 33, docs/snooze.md):
            // the keyword (replacing any other) on the copies that leave and those already in
            // Snoozed, then MOVE to Snoozed.
            guard let target = try folder(.snoozed) else { throw RepositoryError.missingFolder(accountId: account.id, type: .snoozed) }
            let sources = folders.filter { !IMAPSnoozeServer.staying.contains($0.folderType) && $0.id != target.id }
            let marks = try (sources + [target]).sorted { $0.path < $1.path }.compactMap { source -> ServerStep? in
                let uids = try uids(ofIds: Set(emailIds), in: source)
                return uids.isEmpty ? nil : .flag(folder: source, uids: uids.keys.sorted(), flag: IMAPFlag(time.keyword), set: true)
            }
            return marks + (try moves(of: emailIds, from: sources, to: target))
        case .unsnooze:
            guard let snoozed = try folder(.snoozed), let inbox = try folder(.inbox) else { return [] }
            return try moves(of: emailIds, from: [snoozed], to: inbox)
        }
    }
}

/// A copy of a message whose UID in `mailbox` is not known yet.
struct UnknownUID: Error {
    let mailbox: String
}

/// One IMAP change an action makes.
enum ServerStep: Sendable {
    /// UID MOVE (or COPY + `\Deleted` + UID EXPUNGE) of these UIDs (→ email ids).
    case move(from: Folder, uids: [UInt32: String], to: Folder)
    /// UID STORE ±flag.
    case flag(folder: Folder, uids: [UInt32], flag: IMAPFlag, set: Bool)
    /// Deleted for good (`IMAPConnection.deleteMessages`: `\Deleted` + UID EXPUNGE, or only
    /// `\Deleted` without UIDPLUS): permanent, so always planned last.
    case expunge(folder: Folder, uids: [UInt32])
}
