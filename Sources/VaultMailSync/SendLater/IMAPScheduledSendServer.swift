import Foundation
import VaultMailCore
import VaultMailIMAP

/// `ScheduledSendServer` over IMAP (docs/sending.md "Send later"): scheduled messages are the
/// messages of the account's Drafts folder carrying a `$SendAt-…` keyword (`SendAtKeyword`);
/// claiming one is the CONDSTORE claim snooze's wake uses (`IMAPKeywordClaim`). Each call runs
/// on the account's pooled connection, in turn with its syncs and actions.
public struct IMAPScheduledSendServer: ScheduledSendServer {
    private let connections: IMAPConnectionPool
    private let parser: any MessageParser
    /// Drafts UID → Message-ID, so the list reads only flags once a message was seen.
    private let messageIds = MessageIdMemory()

    static let keywordClaim = IMAPKeywordClaim(isTimeKeyword: SendAtKeyword.isKeyword)

    public init(connections: IMAPConnectionPool, parser: any MessageParser) {
        self.connections = connections
        self.parser = parser
    }

    public func scheduled(account: Account) async throws -> [ScheduledDraft] {
        let parser = self.parser, memory = messageIds
        return try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            guard let drafts = try await Self.folderPath(.drafts, on: imap) else { return [] }
            let status = try await imap.examine(drafts)
            guard status.exists > 0 else { return [] }
            let timed = try await imap.fetchFlags(.all).compactMap { message -> (IMAPMessageFlags, Date)? in
                guard !message.isDeleted, let date = SendAtKeyword.date(in: message.flags.map(\.name)) else { return nil }
                return (message, date)
            }
            var found: [ScheduledDraft] = []
            for (message, date) in timed {
                let key = "\(account.id)\u{1F}\(drafts)\u{1F}\(status.uidValidity)\u{1F}\(message.uid)"
                var messageId = await memory.get(key)
                if messageId == nil, let raw = try await imap.fetchMessages(UIDSet([message.uid]), items: [.rawMessage]).first?.rawMessage {
                    messageId = parser.parse([UInt8](raw)).stableMessageId
                    await memory.set(key, messageId)
                }
                guard let messageId else { continue }
                found.append(ScheduledDraft(
                    messageId: messageId, sendAt: date,
                    location: RemoteMessageLocation(folderPath: drafts, uidValidity: status.uidValidity, uid: message.uid),
                    isClaimed: message.flags.contains { IMAPKeywordClaim.isClaimKeyword($0.name) }))
            }
            return found.sorted { ($0.sendAt, $0.location.uid) < ($1.sendAt, $1.location.uid) }
        }
    }

    public func content(of draft: ScheduledDraft, account: Account) async throws -> ScheduledDraftContent? {
        let parser = self.parser
        return try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            let status = try await imap.examine(draft.location.folderPath)
            guard status.uidValidity == draft.location.uidValidity,
                  let message = try await imap.fetchMessages(UIDSet([draft.location.uid]), items: [.flags, .rawMessage]).first,
                  let raw = message.rawMessage,
                  SendAtKeyword.date(in: (message.flags ?? []).map(\.name)) != nil else { return nil }
            let copy = [UInt8](raw)
            return ScheduledDraftContent(raw: SendAtKeyword.forSending(copy), parsed: parser.parse(copy))
        }
    }

    public func claim(
        messageId: String, account: Account, now: Date, lease: TimeInterval, requireDue: Bool, key: String
    ) async throws -> ScheduledSendClaim {
        try await look(messageId: messageId, account: account, now: now, claiming: lease, requireDue: requireDue, key: key)
    }

    public func standing(messageId: String, account: Account, now: Date) async throws -> ScheduledSendClaim {
        try await look(messageId: messageId, account: account, now: now, claiming: nil, requireDue: false, key: nil)
    }

    /// Finds the copy of `messageId` and, with a `lease`, claims it with the keyword `key`.
    private func look(
        messageId: String, account: Account, now: Date, claiming lease: TimeInterval?, requireDue: Bool, key: String?
    ) async throws -> ScheduledSendClaim {
        try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            guard let drafts = try await Self.folderPath(.drafts, on: imap) else {
                return .gone(inSent: try await Self.isInSent(messageId, on: imap))
            }
            _ = try await imap.select(drafts)
            let copies = try await Self.copies(of: messageId, on: imap)
            guard !copies.isEmpty else { return .gone(inSent: try await Self.isInSent(messageId, on: imap)) }
            let timed = copies.compactMap { copy in SendAtKeyword.date(in: copy.flags.map(\.name)).map { (copy, $0) } }
            // The earliest time counts; other copies (an older version) are removed when it is filed.
            guard let earliest = timed.min(by: { $0.1 < $1.1 }) else { return .unscheduled }
            let (copy, time) = earliest
            // Another store's claim whose lease is not over; this store's own (a failed attempt,
            // a run that stopped before sending) is taken again at once, its time then being the
            // lease's, not the send time.
            let own = key.map { mine in copy.flags.contains { $0.name.caseInsensitiveCompare(mine) == .orderedSame } } ?? false
            let claimed = copy.flags.contains { IMAPKeywordClaim.isClaimKeyword($0.name) && !own }
            if claimed, time > now { return .taken(until: time) }
            if requireDue, time > now, !own { return .notDue(time) }
            guard let lease else { return .won }
            guard await imap.capabilities.condstore, copy.modSeq != nil else { return .unclaimable }
            // From this machine's clock too: a `now` in the past must not give a lease already over.
            let until = max(now, Date()).addingTimeInterval(lease)
            let won = try await Self.keywordClaim.claim([copy], lease: SendAtKeyword.keyword(for: until), keyword: key, on: imap)
            guard !won.isEmpty else {
                let after = try await Self.copies(of: messageId, on: imap)
                guard let date = SendAtKeyword.date(in: after.flatMap(\.flags).map(\.name)) else {
                    return after.isEmpty ? .gone(inSent: try await Self.isInSent(messageId, on: imap)) : .unscheduled
                }
                return .taken(until: date)
            }
            // A claimer that died after the server took the message and after its copy in Sent
            // (but before removing the draft): it went; the draft is removed, not sent again.
            if try await Self.isInSent(messageId, on: imap) {
                _ = try await imap.select(drafts)
                let left = try await Self.copies(of: messageId, on: imap).map(\.uid)
                if !left.isEmpty { _ = try await imap.deleteMessages(uids: UIDSet(left)) }
                return .gone(inSent: true)
            }
            return .won
        }
    }

    public func unschedule(messageId: String, account: Account) async throws {
        try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            guard let drafts = try await Self.folderPath(.drafts, on: imap) else { return }
            _ = try await imap.select(drafts)
            for copy in try await Self.copies(of: messageId, on: imap) {
                let timed = copy.flags.filter(Self.keywordClaim.isTimeOrClaim)
                if !timed.isEmpty { try await imap.storeFlags(timed, .remove, uids: UIDSet([copy.uid])) }
            }
        }
    }

    // MARK: Helpers

    /// The selected mailbox's messages with this Message-ID, not deleted, with their flags.
    private static func copies(of messageId: String, on imap: IMAPConnection) async throws -> [IMAPMessageFlags] {
        let uids = try await imap.searchUIDs(header: "Message-ID", containing: messageId)
        guard !uids.isEmpty else { return [] }
        return try await imap.fetchFlags(UIDSet(uids)).filter { !$0.isDeleted }
    }

    private static func isInSent(_ messageId: String, on imap: IMAPConnection) async throws -> Bool {
        guard let sent = try await folderPath(.sent, on: imap) else { return false }
        _ = try await imap.examine(sent)
        return !(try await imap.searchUIDs(header: "Message-ID", containing: messageId)).isEmpty
    }

    /// The path of the account's folder of `role` (special-use attributes, then well-known names).
    private static func folderPath(_ role: FolderType, on imap: IMAPConnection) async throws -> String? {
        let folders = try await imap.listFolders()
        return FolderTypeMapping.folderTypes(for: folders).filter { $0.value == role }.keys.sorted().first
    }
}

/// Message-IDs of Drafts messages already read, by account, folder, UIDVALIDITY and UID.
private actor MessageIdMemory {
    private var known: [String: String] = [:]
    func get(_ key: String) -> String? { known[key] }
    func set(_ key: String, _ value: String?) { known[key] = value }
}
