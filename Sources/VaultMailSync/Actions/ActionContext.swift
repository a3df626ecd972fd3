import Foundation
import VaultMailCore
import VaultMailIMAP

/// What an action is planned from: the account, its folders, the emails acted on and their
/// folder links with UIDs.
struct ActionContext: Sendable {
    let account: Account
    let folders: [Folder]
    let emails: [Email]
    let links: [EmailFolder]

    func folder(_ type: FolderType) throws -> Folder? {
        folders.first { $0.folderType == type }
    }

    func links(of emailId: String) -> [EmailFolder] {
        links.filter { $0.emailId == emailId }
    }

    /// UID → email id of these emails' copies in `folder`; throws when a copy's UID is unknown.
    func uids(of emails: [Email], in folder: Folder) throws -> [UInt32: String] {
        let ids = Set(emails.map(\.id))
        var result: [UInt32: String] = [:]
        for link in links where link.folderId == folder.id && ids.contains(link.emailId) {
            guard let uid = link.uid else { throw UnknownUID(mailbox: folder.path) }
            result[uid] = link.emailId
        }
        return result
    }

    /// MOVE steps for the copies of `emails` in each of `sources` to `target`.
    func moves(of emails: [Email], from sources: [Folder], to target: Folder) throws -> [ServerStep] {
        try sources.sorted { $0.path < $1.path }.compactMap { source in
            let uids = try uids(of: emails, in: source)
            return uids.isEmpty ? nil : .move(from: source, uids: uids, to: target)
        }
    }

    /// STORE steps setting (or clearing) `flag` on every copy of `emails`.
    func flagSteps(_ flag: IMAPFlag, set: Bool, on emails: [Email]) throws -> [ServerStep] {
        try folders.sorted { $0.path < $1.path }.compactMap { folder in
            let uids = try uids(of: emails, in: folder)
            return uids.isEmpty ? nil : .flag(folder: folder, uids: uids.keys.sorted(), flag: flag, set: set)
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
