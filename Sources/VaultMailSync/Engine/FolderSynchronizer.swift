import Foundation
import VaultMailCore
import VaultMailIMAP

/// Syncs one folder over a connection the caller holds (see `SyncEmailsUseCase`).
///
/// 1. SELECT; a changed UIDVALIDITY resets the folder (E-03).
/// 2. New messages: during the initial sync (no `lastSyncDate` yet) those of the sync window
///    above the checkpoint, afterwards every UID above it; UIDs already linked (our own moves
///    with COPYUID) are skipped. Fetched in batches, fetching, parsing and storing overlapped;
///    each batch is stored with its checkpoint in one transaction (E-01).
///    While the folder's older mail is not complete for the account's window (the first sync,
///    an interrupted one, a widened window: `historyWindowDays` below `syncWindowDays`), the
///    window's messages at or below the checkpoint are fetched too, and the whole pass goes
///    newest (highest UID) first; the checkpoint then moves only when the pass is complete, so
///    an interrupted pass searches again and fetches only what is not linked yet.
/// 3. Known messages: removals (UID SEARCH vs stored UIDs) and flags (CHANGEDSINCE with
///    CONDSTORE, a flag sweep otherwise).
/// 4. Counts and the final checkpoint; after an initial sync, links the server no longer
///    confirmed are dropped.
struct FolderSynchronizer: Sendable {
    let account: Account
    let syncStore: any SyncRepository
    let parser: any MessageParser
    let now: Date
    let options: SyncOptions
    /// Keep emails whose last link this folder removed (a whole-account sync deletes them at
    /// its end, unless another folder turned out to hold them: a move, not an expunge).
    var keepOrphans = false

    func sync(_ folder: Folder, on imap: IMAPConnection) async throws -> FolderSyncReport {
        var report = FolderSyncReport(folderId: folder.id)
        do {
            try await run(folder, on: imap, report: &report)
            return report
        } catch {
            var wrapped = SyncError.wrap(error, account: account, mailbox: folder.path)
            wrapped.newEmails = report.newEmails + wrapped.newEmails
            throw wrapped
        }
    }

    private func run(_ folder: Folder, on imap: IMAPConnection, report: inout FolderSyncReport) async throws {
        let status = try await imap.examine(folder.path)
        let capabilities = await imap.capabilities
        var state = folder.syncState
        if let known = state.uidValidity, known != status.uidValidity {
            try await syncStore.resetFolder(id: folder.id, uidValidity: status.uidValidity)
            state = FolderSyncState(uidValidity: status.uidValidity)
            report.uidValidityChanged = true
        }
        state.uidValidity = status.uidValidity
        let isInitial = state.lastSyncDate == nil
        let last = state.lastSyncedUID ?? 0
        var anyRethread = false
        let identityCheck = try await syncStore.pendingIdentityCheck(folderId: folder.id)
        if let links = identityCheck {
            try await checkIdentities(folder, links: links, last: last, imap: imap, state: state, report: &report, rethreaded: &anyRethread)
        }
        // A pass back in time: the first sync, one interrupted, or a window made wider.
        let wanted = Self.normalized(account.syncWindowDays)
        let reachesBack = state.historyWindowDays.map(Self.normalized) ?? 0 < wanted
        if !isInitial && !reachesBack && identityCheck == nil && !report.uidValidityChanged
            && Self.isUnchanged(status, comparedWith: state, condstore: capabilities.condstore) {
            // Nothing changed since the last sync (CONDSTORE): the EXAMINE was the only round trip.
            state.lastSyncDate = now
            try await syncStore.updateSyncState(folderId: folder.id, state)
            return
        }
        let known = try await syncStore.uidMap(folderId: folder.id)

        // New messages. An incremental sync learns new and removed UIDs from one search of
        // the whole folder (one round trip on the IDLE path).
        let hasNew = status.exists > 0 && (status.uidNext == 0 || status.uidNext > last + 1)
        let knownBefore = known.filter { $0.key <= last }
        let everyUID = !isInitial && (hasNew || !knownBefore.isEmpty) ? try await imap.searchUIDs(in: .all) : nil
        var candidates: [UInt32] = []
        if hasNew {
            if let everyUID {
                candidates = everyUID.filter { $0 > last }
            } else {
                candidates = try await imap.searchUIDs(since: windowStart, in: last > 0 ? UIDSet.from(last + 1) : nil)
            }
        }
        var older: [UInt32] = []
        if reachesBack && last > 0 && status.exists > 0 {
            if let everyUID, windowStart == nil {
                older = everyUID.filter { $0 <= last }
            } else {
                older = try await imap.searchUIDs(since: windowStart, in: UIDSet(1...last))
            }
        }
        var toFetch = (candidates + older).filter { known[$0] == nil }
        if reachesBack { toFetch.sort(by: >) }
        try await fetchAndStore(
            toFetch, folder: folder, imap: imap, state: state, newestFirst: reachesBack,
            report: &report, rethreaded: &anyRethread)
        var highest = max(last, candidates.last ?? 0)
        if status.uidNext > 0 { highest = max(highest, status.uidNext - 1) }
        state.lastSyncedUID = highest
        if reachesBack { state.historyWindowDays = account.syncWindowDays }

        // Known messages: removals and flags. Copies our own moves linked above the checkpoint
        // (COPYUID) were never fetched: their flags are read with the others, or a change made
        // to them on the server (before the move, or since) falls below the HIGHESTMODSEQ stored
        // at the end and is never read (issue 34, soak seed 2).
        let linkedAbove = known.keys.filter { $0 > last }
        if !knownBefore.isEmpty {
            let stillThere = if let everyUID { everyUID.filter { $0 <= last } } else { try await imap.searchUIDs(in: UIDSet(1...last)) }
            let onServer = Set(stillThere)
            let gone = knownBefore.keys.filter { !onServer.contains($0) }
            if !gone.isEmpty {
                let detached = try await syncStore.removeLinks(folderId: folder.id, uids: gone.sorted(), keepingOrphans: keepOrphans)
                report.removed += detached.count
                report.detachedEmailIds += detached
            }
        }
        if !knownBefore.isEmpty || !linkedAbove.isEmpty {
            let top = max(last, linkedAbove.max() ?? 0)
            var flags: [IMAPMessageFlags] = []
            if capabilities.condstore, let since = state.highestModSeq, let current = status.highestModSeq {
                if current != since {
                    flags = try await imap.fetchFlags(UIDSet(1...top), changedSince: since)
                }
            } else if let lowest = known.keys.min() {
                flags = try await imap.fetchFlags(UIDSet(lowest...top))
            }
            let updates = flags.filter { known[$0.uid] != nil }
                .map { ServerFlags(uid: $0.uid, isRead: $0.isSeen, isStarred: $0.isFlagged) }
            if !updates.isEmpty {
                report.flagChanges += try await syncStore.applyServerFlags(folderId: folder.id, updates)
            }
        }

        // Counts and the final checkpoint.
        let unseen = status.exists == 0 ? [] : try await imap.searchUIDs(unseenOnly: true)
        state.totalCount = Int(status.exists)
        state.unreadCount = unseen.count
        state.highestModSeq = status.highestModSeq
        state.lastSyncDate = now
        try await syncStore.updateSyncState(folderId: folder.id, state)
        if isInitial {
            report.removed += try await syncStore.removeUnconfirmedLinks(folderId: folder.id)
        }
        if anyRethread && !report.newEmails.isEmpty {
            // A later batch may have moved emails of an earlier one to another conversation.
            let current = try await syncStore.emails(accountId: account.id, messageIds: report.newEmails.map(\.messageId))
            let byId = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            report.newEmails = report.newEmails.compactMap { byId[$0.id] }
        }
    }

    /// Once per folder whose links were stored before message identity (migration
    /// `v10-message-identity`): a second message with a stored Message-ID then became a link of
    /// the first email, its UID moved onto that link (the first message's UID left unlinked),
    /// or it was dropped from its batch. One FETCH of every UID's size and internal date finds
    /// them: a link whose message differs from what its email was stored from, and an unlinked
    /// message of the sync window, are fetched and told apart (`EmailIdentity`). An email whose
    /// UID went to another message then gets its own back: unlinked messages of its size or
    /// date, and those with its Message-ID (SEARCH HEADER), are fetched; if none is it, its
    /// link to this folder goes.
    private func checkIdentities(
        _ folder: Folder, links: [UInt32: EmailIdentity], last: UInt32, imap: IMAPConnection, state: FolderSyncState,
        report: inout FolderSyncReport, rethreaded: inout Bool
    ) async throws {
        guard last > 0, !links.isEmpty else {
            try await syncStore.finishIdentityCheck(folderId: folder.id, droppingUnconfirmed: [], keepingOrphans: keepOrphans)
            return
        }
        let onServer = try await imap.fetchMessages(UIDSet(1...last), items: [.size, .internalDate])
        let start = windowStart
        var refetch: [UInt32] = []
        for message in onServer {
            if let stored = links[message.uid] {
                if !Self.isSameMessage(stored, message) { refetch.append(message.uid) }
            } else if let start, let date = message.internalDate, date < start {
                continue  // outside the sync window: never fetched
            } else {
                refetch.append(message.uid)
            }
        }
        guard !refetch.isEmpty else {
            try await syncStore.finishIdentityCheck(folderId: folder.id, droppingUnconfirmed: [], keepingOrphans: keepOrphans)
            return
        }
        // Newest first keeps the checkpoint where it is.
        try await fetchAndStore(
            refetch.sorted(by: >), folder: folder, imap: imap, state: state, newestFirst: true,
            report: &report, rethreaded: &rethreaded)

        // Emails whose UID turned out to be another message's.
        var linked = try await syncStore.uidMap(folderId: folder.id)
        var stranded = Set(links.values.map(\.emailId)).subtracting(linked.values)
        if !stranded.isEmpty {
            var candidates = Set<UInt32>()
            for id in stranded {
                guard let stored = links.values.first(where: { $0.emailId == id }) else { continue }
                for message in onServer where linked[message.uid] == nil {
                    let sameSize = message.size.map { Int($0) == stored.sizeBytes } ?? false
                    let sameDate = message.internalDate.map { abs($0.timeIntervalSince(stored.dateReceived)) < 1 } ?? false
                    if sameSize || sameDate { candidates.insert(message.uid) }
                }
                if !stored.messageId.hasSuffix("@synthesized.vaultmail>") {
                    for uid in try await imap.searchUIDs(header: "Message-ID", containing: stored.messageId)
                    where uid <= last && linked[uid] == nil {
                        candidates.insert(uid)
                    }
                }
            }
            if !candidates.isEmpty {
                try await fetchAndStore(
                    candidates.sorted(by: >), folder: folder, imap: imap, state: state, newestFirst: true,
                    report: &report, rethreaded: &rethreaded)
                linked = try await syncStore.uidMap(folderId: folder.id)
                stranded.subtract(linked.values)
            }
        }
        let dropped = try await syncStore.finishIdentityCheck(
            folderId: folder.id, droppingUnconfirmed: stranded.sorted(), keepingOrphans: keepOrphans)
        report.removed += dropped.count
        report.detachedEmailIds += dropped
    }

    /// Whether the EXAMINE shows a folder exactly as the last sync left it: with CONDSTORE the
    /// same HIGHESTMODSEQ (new mail, expunges and flag changes all raise it), the same message
    /// count and no UID above the checkpoint. Without CONDSTORE flag changes cannot be seen
    /// this way, so the folder is never taken as unchanged.
    static func isUnchanged(_ status: IMAPMailboxStatus, comparedWith state: FolderSyncState, condstore: Bool) -> Bool {
        guard condstore, let held = state.highestModSeq, let current = status.highestModSeq, held == current,
              let last = state.lastSyncedUID, status.uidNext > 0, status.uidNext <= last + 1
        else { return false }
        return Int(status.exists) == state.totalCount
    }

    /// Whether a message's size and internal date are those its stored email was fetched with.
    static func isSameMessage(_ stored: EmailIdentity, _ message: IMAPMessage) -> Bool {
        if let size = message.size, Int(size) != stored.sizeBytes { return false }
        if let date = message.internalDate, abs(date.timeIntervalSince(stored.dateReceived)) >= 1 { return false }
        return true
    }

    /// The first day of the account's sync window; nil for all mail.
    var windowStart: Date? {
        account.syncsAllMail ? nil : now.addingTimeInterval(-Double(Self.normalized(account.syncWindowDays)) * 86_400)
    }

    /// A window in days, all mail as `AppConstants.allMailSyncWindowDays`.
    static func normalized(_ days: Int) -> Int {
        min(max(1, days), AppConstants.allMailSyncWindowDays)
    }

    /// Fetches `uids` in batches in their order and stores each with its checkpoint, three
    /// stages overlapping: while batch N is stored (threading, the store's transaction), batch
    /// N+1 is parsed and batch N+2 fetched. In ascending order each batch moves the checkpoint
    /// to its highest UID; newest first it stays where it was.
    private func fetchAndStore(
        _ uids: [UInt32], folder: Folder, imap: IMAPConnection, state: FolderSyncState, newestFirst: Bool,
        report: inout FolderSyncReport, rethreaded: inout Bool
    ) async throws {
        let batches = stride(from: 0, to: uids.count, by: options.batchSize).map {
            UIDSet(uids[$0..<min($0 + options.batchSize, uids.count)])
        }
        guard !batches.isEmpty else { return }
        let items: IMAPFetchItems = [.fullMessage, .gmailThreadID]
        let folderId = folder.id
        var fetching: Task<[IMAPMessage], any Error>? = Task { try await imap.fetchMessages(batches[0], items: items) }
        var parsing: Task<[FetchedMessage], any Error>?
        var nextToParse = 0
        /// Hands the oldest fetch to a parse stage and starts the next fetch.
        func advance() {
            guard let fetched = fetching else { return }
            parsing = Task { await parse(try await fetched.value, folderId: folderId) }
            nextToParse += 1
            if nextToParse < batches.count {
                let next = batches[nextToParse]
                fetching = Task { try await imap.fetchMessages(next, items: items) }
            } else {
                fetching = nil
            }
        }
        advance()
        var checkpoint = state
        defer {
            fetching?.cancel()
            parsing?.cancel()
        }
        for index in batches.indices {
            do {
                guard let current = parsing else { break }
                let fetched = try await current.value
                advance()
                if !newestFirst {
                    checkpoint.lastSyncedUID = max(checkpoint.lastSyncedUID ?? 0, batches[index].ranges.last?.upperBound ?? 0)
                }
                let stored = try await store(fetched, folder: folder, checkpoint: checkpoint, rethreaded: &rethreaded)
                report.fetched += fetched.count
                report.newEmails += stored
            } catch {
                // Let the fetches in flight finish before the connection is handed back.
                if let parsing { _ = try? await parsing.value }
                if let fetching { _ = try? await fetching.value }
                parsing = nil
                fetching = nil
                throw error
            }
        }
    }

    /// Threads a parsed batch's new messages and stores it with the checkpoint.
    private func store(
        _ parsed: [FetchedMessage], folder: Folder, checkpoint: FolderSyncState, rethreaded: inout Bool
    ) async throws -> [Email] {
        var fetched = parsed
        // Two different messages with one Message-ID are two emails (`EmailIdentity`).
        let stored = try await syncStore.emailIdentities(accountId: account.id, messageIds: fetched.map(\.incoming.email.messageId))
        let ids = EmailIdentity.assignIDs(
            accountId: account.id, fetched, messageId: \.incoming.email.messageId, fingerprint: \.contentFingerprint, stored: stored)
        for index in fetched.indices { fetched[index].assign(emailId: ids[index]) }
        var seen = Set<String>()
        let unique = fetched.filter { seen.insert($0.emailId).inserted }
        let existing = try await syncStore.existingEmailIds(among: unique.map(\.emailId))
        let newOnes = unique.filter { !existing.contains($0.emailId) }

        var plan = SyncThreading.Plan(threadIds: [:], changes: [])
        if !newOnes.isEmpty {
            let headerThreaded = newOnes.filter { $0.gmailThreadID == nil }
            var mentioned = Set<String>()
            for message in headerThreaded {
                mentioned.insert(message.incoming.email.messageId)
                mentioned.formUnion(message.parsed.references)
                if let parent = message.parsed.inReplyTo { mentioned.insert(parent) }
            }
            let stored = try await syncStore.threadingFacts(accountId: account.id, mentioning: mentioned)
            plan = SyncThreading.plan(
                accountId: account.id,
                new: newOnes.map { SyncThreading.NewMessage(message: $0.threadable, gmailThreadID: $0.gmailThreadID) },
                stored: stored)
        }
        var incoming: [IncomingEmail] = []
        for message in fetched {
            var item = message.incoming
            item.email.threadId = plan.threadIds[message.emailId] ?? item.email.threadId
            incoming.append(item)
        }
        if !plan.changes.isEmpty { rethreaded = true }
        let knownFlags = fetched.filter { existing.contains($0.emailId) }.map(\.serverFlags)
        return try await syncStore.storeSyncBatch(SyncBatch(
            folderId: folder.id, emails: incoming, threadChanges: plan.changes, flags: knownFlags, checkpoint: checkpoint))
    }

    /// Parses messages `options.parallelParsing` at a time, keeping their order.
    private func parse(_ messages: [IMAPMessage], folderId: String) async -> [FetchedMessage] {
        let parser = self.parser
        let accountId = account.id
        let now = self.now
        let lanes = min(options.parallelParsing, max(1, messages.count))
        return await withTaskGroup(of: [(Int, FetchedMessage)].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var parsedLane: [(Int, FetchedMessage)] = []
                    for index in stride(from: lane, to: messages.count, by: lanes) {
                        let message = messages[index]
                        let raw = message.rawMessage.map { [UInt8]($0) } ?? []
                        let parsed = parser.parse(raw)
                        parsedLane.append((index, FetchedMessage(
                            message: message, raw: raw, parsed: parsed, accountId: accountId, folderId: folderId, now: now)))
                        // Parsing is CPU work on the shared pool: let other tasks in between messages.
                        await Task.yield()
                    }
                    return parsedLane
                }
            }
            var results: [(Int, FetchedMessage)] = []
            for await part in group { results += part }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
