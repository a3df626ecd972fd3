import Foundation
import VaultMailCore
import VaultMailIMAP

/// `SnoozeServer` over IMAP (docs/snooze.md): a mailbox named `Snoozed` (the account's folder
/// of type `.snoozed`, found by name, created on first use; never one the server manages with
/// a `\Snoozed` attribute) and, on each message in it, a keyword with the wake time
/// (`SnoozeTime.keyword`). Each call runs on the account's pooled connection (one after the
/// other with its syncs and actions), changes the server first, then the store.
public struct IMAPSnoozeServer: SnoozeServer {
    let local: any EmailRepository
    let syncStore: any SyncRepository
    let accounts: any AccountRepository
    let connections: IMAPConnectionPool
    let times: any SnoozeRepository

    /// The name of the mailbox created when the account has none.
    public static let mailboxName = "Snoozed"
    /// Folders whose copies are not snoozed (views, and mail the user put away).
    static let staying: Set<FolderType> = [.sent, .drafts, .allMail, .starred, .trash, .spam]

    public init(local: any EmailRepository, syncStore: any SyncRepository, accounts: any AccountRepository,
                connections: IMAPConnectionPool, times: any SnoozeRepository) {
        self.local = local
        self.syncStore = syncStore
        self.accounts = accounts
        self.connections = connections
        self.times = times
    }

    // MARK: Snooze and un-snooze

    public func snooze(threadId: String, until time: SnoozeTime) async throws {
        let (account, emails) = try await conversation(threadId)
        let ids = emails.map(\.id)
        try await onServer(account, action: "snooze a conversation") { imap in
            let target = try await snoozedFolder(of: account, on: imap)
            let folders = try await local.getFolders(accountId: account.id)
            let links = try await syncStore.links(emailIds: ids)
            var learned: [EmailFolder] = []
            var acted = false
            for folder in folders.sorted(by: { $0.path < $1.path }) where !Self.staying.contains(folder.folderType) {
                let uids = Dictionary(links.filter { $0.folderId == folder.id }.compactMap { link in link.uid.map { ($0, link.emailId) } },
                                      uniquingKeysWith: { first, _ in first })
                guard !uids.isEmpty else { continue }
                _ = try await imap.select(folder.path)
                try await mark(uids.keys, with: time, on: imap)
                acted = true
                if folder.id == target.id { continue }
                let result = try await imap.move(UIDSet(uids.keys), to: target.path)
                for (old, new) in result?.uidMapping ?? [:] {
                    if let emailId = uids[old] { learned.append(EmailFolder(emailId: emailId, folderId: target.id, uid: new)) }
                }
            }
            guard acted else { throw SnoozeError.nothingToSnooze }
            try await local.moveThread(id: threadId, toFolderId: target.id)
            try await syncStore.setLinkUIDs(learned)
            try await times.set(emailIds: ids, time: time)
        }
    }

    public func unsnooze(threadId: String) async throws {
        let (account, emails) = try await conversation(threadId)
        let ids = emails.map(\.id)
        try await onServer(account, action: "un-snooze a conversation") { imap in
            let folders = try await local.getFolders(accountId: account.id)
            guard let snoozed = folders.first(where: { $0.folderType == .snoozed }),
                  let inbox = folders.first(where: { $0.folderType == .inbox }) else { throw SnoozeError.notSnoozed }
            let uids = try await syncStore.links(emailIds: ids).filter { $0.folderId == snoozed.id }.compactMap(\.uid)
            guard !uids.isEmpty else { throw SnoozeError.notSnoozed }
            _ = try await imap.select(snoozed.path)
            let learned = try await moveBack(uids, in: snoozed, to: inbox, waking: false, now: Date(), on: imap)
            guard !learned.isEmpty else { throw SnoozeError.notSnoozed }
            try await local.moveThread(id: threadId, toFolderId: inbox.id)
            try await syncStore.setLinkUIDs(learned.map { EmailFolder(emailId: $0.emailId, folderId: inbox.id, uid: $0.uid) })
            try await times.remove(emailIds: ids)
        }
    }

    // MARK: Reading the server and waking

    public func refresh(accountId: String) async throws {
        guard let account = try await accounts.getAccount(id: accountId),
              let snoozed = try await local.getFolders(accountId: accountId).first(where: { $0.folderType == .snoozed }) else { return }
        try await onServer(account, action: "read the Snoozed mailbox") { imap in
            let flags = try await snoozedFlags(in: snoozed, on: imap)
            let known = try await syncStore.uidMap(folderId: snoozed.id)
            var found: [String: SnoozeTime] = [:]
            for (uid, time) in flags { if let emailId = known[uid] { found[emailId] = time } }
            // Moved out or deleted by another client: no longer in Snoozed here either. (Read
            // after a sync, which linked mail moved to another folder there; mail left in no
            // folder was deleted.)
            let gone = known.keys.filter { flags[$0] == nil }.sorted()
            if !gone.isEmpty {
                let detached = try await syncStore.removeLinks(folderId: snoozed.id, uids: gone, keepingOrphans: true)
                _ = try await syncStore.deleteEmailsWithoutLinks(among: detached)
            }
            try await times.replace(accountId: accountId, times: found)
        }
    }

    public func wake(accountId: String, now: Date) async throws -> WokenMail {
        guard let account = try await accounts.getAccount(id: accountId) else { return WokenMail(accountId: accountId, emailIds: [], snoozedUntil: [:]) }
        let folders = try await local.getFolders(accountId: accountId)
        guard let snoozed = folders.first(where: { $0.folderType == .snoozed }),
              let inbox = folders.first(where: { $0.folderType == .inbox }) else {
            return WokenMail(accountId: accountId, emailIds: [], snoozedUntil: [:])
        }
        return try await onServer(account, action: "bring snoozed mail back to the inbox") { imap in
            // What the server holds now, not what the store said: another client or daemon may
            // have woken, moved or re-snoozed some.
            let flags = try await snoozedFlags(in: snoozed, on: imap)
            let due = flags.filter { $0.value.isDue(at: now) }
            guard !due.isEmpty else { return WokenMail(accountId: accountId, emailIds: [], snoozedUntil: [:]) }
            let learned = try await moveBack(Array(due.keys), in: snoozed, to: inbox, waking: true, now: now, on: imap)
            let moved = Set(learned.map(\.emailId))
            var until: [String: Date] = [:]
            for link in learned { if let uid = link.oldUID, let date = due[uid]?.date { until[link.emailId] = date } }
            // The store: the woken mail in the inbox, unread.
            let threads = Set(try await local.getEmails(ids: Array(moved)).map(\.threadId))
            for threadId in threads.sorted() { try await local.moveThread(id: threadId, toFolderId: inbox.id) }
            try await syncStore.setLinkUIDs(learned.map { EmailFolder(emailId: $0.emailId, folderId: inbox.id, uid: $0.uid) })
            if !moved.isEmpty {
                try await local.setEmailsRead(ids: Array(moved), isRead: false)
                // At the top of the inbox, as new mail would be.
                try await times.cameBack(emailIds: Array(moved), at: now)
            }
            // What is still snoozed, as the server has it (so a message moved away elsewhere is
            // not tried again).
            let known = try await syncStore.uidMap(folderId: snoozed.id)
            var remaining: [String: SnoozeTime] = [:]
            for (uid, time) in flags where due[uid] == nil { if let emailId = known[uid] { remaining[emailId] = time } }
            try await times.replace(accountId: accountId, times: remaining)
            return WokenMail(accountId: accountId, emailIds: Array(moved).sorted(), snoozedUntil: until)
        }
    }

    // MARK: The steps

    /// A message moved back: its stored email, its UID in Snoozed and its new UID.
    struct MovedBack { let emailId: String; let oldUID: UInt32?; let uid: UInt32 }

    /// In the selected Snoozed mailbox: these UIDs (when `waking`, those still due as read now)
    /// claimed (`claim`, when the server has CONDSTORE), their snooze keywords (and `\Seen` when
    /// `waking`: back unread) removed, then UID MOVE to `inbox`. Only messages the server says
    /// it moved (COPYUID) and the store knows are returned.
    private func moveBack(_ uids: [UInt32], in snoozed: Folder, to inbox: Folder, waking: Bool, now: Date,
                          on imap: IMAPConnection) async throws -> [MovedBack] {
        var current = try await imap.fetchFlags(UIDSet(uids))
        // Waking: only what is still due as read now (another client may have claimed it since
        // the first look: its lease is a later time).
        if waking { current = current.filter { SnoozeTime(flags: $0.flags.map(\.name)).isDue(at: now) } }
        if await imap.capabilities.condstore { current = try await claim(current, now: now, on: imap) }
        guard !current.isEmpty else { return [] }
        var present = current.map(\.uid)
        var clearing = Set(current.flatMap(\.flags).filter(Self.isSnoozeOrClaim))
        if waking { clearing.insert(.seen) }
        let known = try await syncStore.uidMap(folderId: snoozed.id)
        let result: IMAPCopyResult?
        do {
            if !clearing.isEmpty { try await imap.storeFlags(clearing, .remove, uids: UIDSet(present)) }
            result = try await imap.move(UIDSet(present), to: inbox.path)
        } catch {
            // Another client moved some of them between the look and the move (a client that
            // does not claim, or a server without CONDSTORE): the server refuses a message this
            // session still listed ([EXPUNGEISSUED]). A NOOP brings its expunges; what is gone was
            // woken there, what is still here is moved once more.
            _ = try await imap.noop()
            present = try await imap.fetchFlags(UIDSet(present)).map(\.uid)
            guard !present.isEmpty else { return [] }
            if !clearing.isEmpty { try await imap.storeFlags(clearing, .remove, uids: UIDSet(present)) }
            result = try await imap.move(UIDSet(present), to: inbox.path)
        }
        return (result?.uidMapping ?? [:]).sorted { $0.key < $1.key }.compactMap { old, new in
            known[old].map { MovedBack(emailId: $0, oldUID: old, uid: new) }
        }
    }

    /// How long a claim holds a message (docs/snooze.md, "Waking"): far longer than the STORE and
    /// MOVE that follow it; a claimer that dies before its MOVE leaves the message to come back
    /// this much later.
    static let claimLease: TimeInterval = 5 * 60

    /// The CONDSTORE claim (`IMAPKeywordClaim`, shared with send later): each message's snooze
    /// keyword replaced by a time `claimLease` ahead and a keyword of this claim's own. A client
    /// that reads the message after the claim sees it due only when the lease ends.
    private func claim(_ messages: [IMAPMessageFlags], now: Date, on imap: IMAPConnection) async throws -> [IMAPMessageFlags] {
        // From this machine's clock too: a `now` in the past must not give a lease already over.
        let lease = SnoozeTime.until(max(now, Date()).addingTimeInterval(Self.claimLease))
        return try await Self.keywordClaim.claim(messages, lease: lease.keyword, on: imap)
    }

    static let keywordClaim = IMAPKeywordClaim(isTimeKeyword: SnoozeTime.isKeyword)

    /// A snooze keyword, or a claim's own keyword (left by a client that died before its MOVE).
    static func isSnoozeOrClaim(_ flag: IMAPFlag) -> Bool {
        keywordClaim.isTimeOrClaim(flag)
    }

    /// The selected mailbox's messages `uids` carry `time`'s keyword and no other snooze keyword.
    private func mark(_ uids: some Collection<UInt32>, with time: SnoozeTime, on imap: IMAPConnection) async throws {
        let current = try await imap.fetchFlags(UIDSet(uids))
        let stale = Set(current.flatMap(\.flags).filter { Self.isSnoozeOrClaim($0) && $0.name != time.keyword })
        if !stale.isEmpty { try await imap.storeFlags(stale, .remove, uids: UIDSet(uids)) }
        try await imap.storeFlags([IMAPFlag(time.keyword)], .add, uids: UIDSet(uids))
    }

    /// UID → time of every message in the Snoozed mailbox on the server (selected afterwards).
    private func snoozedFlags(in snoozed: Folder, on imap: IMAPConnection) async throws -> [UInt32: SnoozeTime] {
        let status = try await imap.select(snoozed.path)
        guard status.exists > 0 else { return [:] }
        var result: [UInt32: SnoozeTime] = [:]
        for message in try await imap.fetchFlags(.all) where !message.flags.contains(.deleted) {
            result[message.uid] = SnoozeTime(flags: message.flags.map(\.name))
        }
        return result
    }

    /// The account's Snoozed folder: the stored one, else one the server lists by that name,
    /// else created (and stored either way).
    private func snoozedFolder(of account: Account, on imap: IMAPConnection) async throws -> Folder {
        if let stored = try await local.getFolders(accountId: account.id).first(where: { $0.folderType == .snoozed }) { return stored }
        let listed = try await imap.listFolders()
        let types = FolderTypeMapping.folderTypes(for: listed)
        var found = listed.first { types[$0.path] == .snoozed }
        if found == nil {
            // The name is taken by a mailbox the server manages: a name of VaultMail's own.
            let name = listed.contains(where: { $0.path.caseInsensitiveCompare(Self.mailboxName) == .orderedSame })
                ? "VaultMail \(Self.mailboxName)" : Self.mailboxName
            try await imap.createMailbox(name)
            found = try await imap.listFolders().first { $0.path == name }
        }
        guard let folder = found else { throw SnoozeError.notFound(id: Self.mailboxName) }
        let stored = Folder(accountId: account.id, name: folder.name, path: folder.path, folderType: .snoozed)
        try await syncStore.addOrUpdateFolders([stored])
        return stored
    }

    private func conversation(_ threadId: String) async throws -> (Account, [Email]) {
        guard let thread = try await local.getThread(id: threadId) else { throw SnoozeError.notFound(id: threadId) }
        guard let account = try await accounts.getAccount(id: thread.accountId) else {
            throw ServerActionError(kind: .accountNotFound, action: "snooze", accountName: thread.accountId)
        }
        return (account, try await local.getEmails(threadId: threadId))
    }

    /// Runs `body` on the account's connection; IMAP failures become a `ServerActionError` that
    /// says what failed, in which mailbox.
    private func onServer<T: Sendable>(_ account: Account, action: String,
                                       _ body: @escaping @Sendable (IMAPConnection) async throws -> T) async throws -> T {
        do {
            return try await connections.withConnection(for: account, reuse: .checkFirst, body)
        } catch let error as IMAPError {
            throw ServerActionError(kind: .server, action: action, accountName: account.name, mailbox: error.mailbox, underlying: error)
        } catch let error as SyncError {
            throw ServerActionError(kind: .server, action: action, accountName: account.name, underlying: error)
        }
    }
}
