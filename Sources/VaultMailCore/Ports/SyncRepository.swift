/// What the sync engine and the server-backed actions read and write in the store beyond
/// `EmailRepository`: folders as the server lists them, UIDs, per-folder checkpoints, server
/// flags, expunges and re-threading. Every write keeps thread aggregates and the store's
/// trigger-kept membership right; an email left with no folder link by a sync write is
/// deleted (emails that never had a link, such as queued outgoing mail, are left alone).
public protocol SyncRepository: Sendable {
    // MARK: Folders
    /// Inserts folders not stored yet; for stored ones (same id) updates only name, path and
    /// type, never their sync state.
    func addOrUpdateFolders(_ folders: [Folder]) async throws
    /// A folder renamed on the server: it moves to `Folder.stableID(accountId:path:)` of the
    /// new path with its links and sync state. Returns the new id.
    @discardableResult
    func renameFolder(id: String, toPath path: String, name: String) async throws -> String
    /// Folders gone from the server: their links go, and emails left with no link are deleted.
    func deleteFolders(ids: [String]) async throws
    /// Persists a folder's sync state (the checkpoint).
    func updateSyncState(folderId: String, _ state: FolderSyncState) async throws
    /// UIDVALIDITY changed: the folder's UIDs mean nothing any more. Its links are kept but
    /// unconfirmed (no UID) until a re-sync finds the message again, and its sync state starts
    /// over with `uidValidity`.
    func resetFolder(id: String, uidValidity: UInt32) async throws
    /// After a re-sync: removes the folder's links that are still unconfirmed (no UID); emails
    /// left with no link are deleted. Returns how many links went.
    @discardableResult
    func removeUnconfirmedLinks(folderId: String) async throws -> Int

    // MARK: Lookups
    /// UID → email id for the folder's links whose UID is known.
    func uidMap(folderId: String) async throws -> [UInt32: String]
    /// Emails of the folder by UID.
    func emails(folderId: String, uids: [UInt32]) async throws -> [UInt32: Email]
    /// Emails of the account with these Message-IDs.
    func emails(accountId: String, messageIds: [String]) async throws -> [Email]
    /// Which of these email ids are stored.
    func existingEmailIds(among ids: [String]) async throws -> Set<String>
    /// Every stored email of every conversation that mentions one of `messageIds` (as its own
    /// Message-ID, in References or In-Reply-To): what new mail is threaded against.
    func threadingFacts(accountId: String, mentioning messageIds: Set<String>) async throws -> [ThreadingFacts]
    /// The folder links (with UIDs) of these emails.
    func links(emailIds: [String]) async throws -> [EmailFolder]

    // MARK: Message identity (issue 17, `EmailIdentity`)
    /// Id, content fingerprint, size and date of the account's stored emails with these
    /// Message-IDs: what a fetched message is told apart from.
    func emailIdentities(accountId: String, messageIds: [String]) async throws -> [EmailIdentity]
    /// The folder's links (UID → its email's identity) when they were stored before message
    /// identity existed and not checked since (one message's UID may then be linked to another
    /// message with its Message-ID); nil otherwise, the usual answer.
    func pendingIdentityCheck(folderId: String) async throws -> [UInt32: EmailIdentity]?
    /// Ends the folder's check: these emails' links to the folder that are still unconfirmed
    /// (their UID turned out to be another message's, and theirs was not found) go; emails left
    /// with no link are deleted unless `keepingOrphans`. Returns the ids whose link went.
    @discardableResult
    func finishIdentityCheck(folderId: String, droppingUnconfirmed emailIds: [String], keepingOrphans: Bool) async throws -> [String]

    // MARK: Writes
    /// Stores one step of a folder sync in one transaction; returns the emails new to the
    /// store, with `folderTypes` filled. A UID of the batch linked to another email of the
    /// folder is taken from it (that link stays, unconfirmed), and the content fingerprint of
    /// each email that has none is recorded.
    @discardableResult
    func storeSyncBatch(_ batch: SyncBatch) async throws -> [Email]
    /// Copies server flags (by UID in the folder) to the emails; other fields are untouched.
    /// Returns how many emails changed.
    @discardableResult
    func applyServerFlags(folderId: String, _ flags: [ServerFlags]) async throws -> Int
    /// Messages expunged from (or moved out of) the folder: their links go. Emails left with no
    /// link are deleted unless `keepingOrphans`, which a whole-account sync uses so a message
    /// moved to a folder synced later is found there rather than deleted and fetched anew; it
    /// then calls `deleteEmailsWithoutLinks`. Returns the ids of the emails whose link went.
    @discardableResult
    func removeLinks(folderId: String, uids: [UInt32], keepingOrphans: Bool) async throws -> [String]
    /// Deletes those of these emails that have no folder link; returns how many.
    @discardableResult
    func deleteEmailsWithoutLinks(among ids: [String]) async throws -> Int
    /// Records UIDs learned from the server (COPYUID, APPENDUID) for links, adding the link
    /// when it is missing.
    func setLinkUIDs(_ links: [EmailFolder]) async throws
}
