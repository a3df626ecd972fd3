import Foundation
import GRDB
import VaultMailCore

extension Database {
    /// Recomputes the aggregates of these threads from their emails: latest date, counts,
    /// unread, starred, attachments, snippet, participants, subject and category. A thread
    /// left with no email is deleted.
    ///
    /// Once per write, for every thread it touched: the emails of up to 500 threads are read
    /// with one query, in thread order, and each thread's row is written once.
    func refreshThreads(_ ids: some Sequence<String>) throws {
        let ids = Array(Set(ids))
        guard !ids.isEmpty else { return }
        let update = try cachedStatement(sql: """
            UPDATE thread SET subject = ?, latestDate = ?, messageCount = ?, unreadCount = ?,
                isStarred = ?, hasAttachments = ?, snippet = ?, participants = ?, aiCategory = ?
            WHERE id = ?
            """)
        let delete = try cachedStatement(sql: "DELETE FROM thread WHERE id = ?")
        for chunk in ids.chunked(500) {
            var aggregates: [ThreadAggregate] = []
            let rows = try Row.fetchCursor(self, sql: """
                SELECT threadId, fromAddress, fromName, isRead, isStarred, hasAttachments, dateReceived, snippet,
                       aiCategory, subject, isDraft, sendState
                FROM email WHERE threadId IN (\(placeholders(chunk.count))) ORDER BY threadId, dateReceived, rowid
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let threadId: String = row["threadId"]
                if aggregates.last?.id != threadId {
                    aggregates.append(ThreadAggregate(id: threadId, accountId: "", subject: row["subject"]))
                }
                aggregates[aggregates.count - 1].add(row)
            }
            // Conversations that came back from Snoozed sit where they came back (issue 33; the
            // table is there from migration v16 on, and an older migration refreshes threads too).
            let returned = try !tableExists("snoozeReturn") ? [] : Row.fetchAll(self, sql: """
                SELECT e.threadId, MAX(r.returnedAt) AS at FROM snoozeReturn r JOIN email e ON e.id = r.emailId
                WHERE e.threadId IN (\(placeholders(chunk.count))) GROUP BY e.threadId
                """, arguments: StatementArguments(chunk))
            let returnedAt = Dictionary(returned.map { ($0["threadId"] as String, $0["at"] as Int64) }, uniquingKeysWith: max)
            for index in aggregates.indices { aggregates[index].cameBack(at: returnedAt[aggregates[index].id]) }
            var emptied = Set(chunk)
            for aggregate in aggregates {
                emptied.remove(aggregate.id)
                try update.execute(arguments: aggregate.columnValues + [aggregate.id])
            }
            for id in emptied {
                try delete.execute(arguments: [id])
            }
        }
    }

    /// The types of the folders each email is linked to.
    func folderTypes(forEmailIds ids: [String]) throws -> [String: Set<FolderType>] {
        var result: [String: Set<FolderType>] = [:]
        for chunk in ids.chunked(500) {
            let rows = try Row.fetchCursor(self, sql: """
                SELECT ef.emailId, f.folderType FROM emailFolder ef JOIN folder f ON f.id = ef.folderId
                WHERE ef.emailId IN (\(placeholders(chunk.count)))
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                if let type = FolderType(rawValue: row["folderType"]) {
                    result[row["emailId"], default: []].insert(type)
                }
            }
        }
        return result
    }

    /// Emails read from rows, with their folder types filled.
    func hydratedEmails(sql: String, arguments: StatementArguments) throws -> [Email] {
        var emails = try Row.fetchAll(self, sql: sql, arguments: arguments).map(Email.init(row:))
        let types = try folderTypes(forEmailIds: emails.map(\.id))
        for index in emails.indices {
            emails[index].folderTypes = types[emails[index].id] ?? []
        }
        return emails
    }

    /// The emails with these ids (those that exist), with their folder types.
    func emails(ids: [String]) throws -> [Email] {
        var emails: [Email] = []
        for chunk in ids.chunked(500) {
            emails += try hydratedEmails(
                sql: "SELECT \(Email.columns) FROM email WHERE id IN (\(placeholders(chunk.count)))",
                arguments: StatementArguments(chunk))
        }
        return emails
    }

    /// Links the email to a folder, its UID there unknown until the next sync.
    func link(emailId: String, folderId: String) throws {
        try execute(sql: "INSERT OR IGNORE INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, NULL)",
                    arguments: [emailId, folderId])
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements (SQLite limits bound variables).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

/// A thread's aggregates, accumulated from its emails oldest first (by `dateReceived` in
/// milliseconds, then in the order they are stored: rowid, issue 29). Drafts do not count (issue 29): while the thread holds a message
/// sent or received, its count, date, snippet, senders and states are its messages' only; a
/// thread of drafts alone shows its drafts'.
struct ThreadAggregate {
    /// What the messages (or the drafts) of a thread add up to.
    struct Part {
        var count = 0
        var latestDate: Int64 = 0
        var unread = 0
        var starred = false
        var attachments = false
        /// The latest email's snippet and category.
        var snippet: String?
        var category: String?
        /// Each sender once (by lower-cased address) in order of first email, with the first
        /// non-empty name any of their emails gives.
        var participants: [Participant] = []
        var participantIndex: [String: Int] = [:]
    }

    let id: String
    let accountId: String
    /// The first email's subject.
    let subject: String
    /// Messages sent and received.
    var messages = Part()
    var drafts = Part()
    /// What the thread shows: its messages, or its drafts when it holds nothing else.
    var shown: Part { messages.count > 0 ? messages : drafts }

    init(id: String, accountId: String, subject: String) {
        self.id = id
        self.accountId = accountId
        self.subject = subject
    }

    /// The aggregates of the thread of these emails, which are all of its emails (at least one),
    /// in the order they are stored.
    init(emails: [Email]) {
        let sorted = emails.enumerated().sorted { a, b in
            let (x, y) = (a.element.dateReceived.millis, b.element.dateReceived.millis)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        self.init(id: sorted[0].threadId, accountId: sorted[0].accountId, subject: sorted[0].subject)
        for email in sorted {
            add(isRead: email.isRead, isStarred: email.isStarred, hasAttachments: email.hasAttachments,
                date: email.dateReceived.millis, snippet: email.snippet, category: email.aiCategory,
                fromAddress: email.fromAddress, fromName: email.fromName, isDraft: email.isUnsentDraft)
        }
    }

    mutating func add(_ row: Row) {
        add(isRead: row["isRead"], isStarred: row["isStarred"], hasAttachments: row["hasAttachments"],
            date: row["dateReceived"], snippet: row["snippet"], category: row["aiCategory"],
            fromAddress: row["fromAddress"], fromName: row["fromName"],
            isDraft: Email.isUnsentDraft(isDraft: row["isDraft"], sendState: SendState(rawValue: row["sendState"] ?? "") ?? .none))
    }

    mutating func add(
        isRead: Bool, isStarred: Bool, hasAttachments: Bool, date: Int64, snippet: String?, category: String?,
        fromAddress address: String, fromName: String?, isDraft: Bool = false
    ) {
        if isDraft {
            drafts.add(isRead: isRead, isStarred: isStarred, hasAttachments: hasAttachments, date: date, snippet: snippet,
                       category: category, fromAddress: address, fromName: fromName)
        } else {
            messages.add(isRead: isRead, isStarred: isStarred, hasAttachments: hasAttachments, date: date, snippet: snippet,
                         category: category, fromAddress: address, fromName: fromName)
        }
    }

    /// Its messages came back from Snoozed at `millis` (issue 33): its latest date is at least that.
    mutating func cameBack(at millis: Int64?) {
        guard let millis, messages.count > 0 else { return }
        messages.latestDate = max(messages.latestDate, millis)
    }

    /// subject, latestDate, messageCount, unreadCount, isStarred, hasAttachments, snippet,
    /// participants, aiCategory.
    var columnValues: StatementArguments {
        let part = shown
        return [subject, part.latestDate, part.count, part.unread, part.starred, part.attachments, part.snippet,
                Participant.encodeStored(part.participants), part.category]
    }
}

extension ThreadAggregate.Part {
    mutating func add(
        isRead: Bool, isStarred: Bool, hasAttachments: Bool, date: Int64, snippet: String?, category: String?,
        fromAddress address: String, fromName: String?
    ) {
        count += 1
        if !isRead { unread += 1 }
        starred = starred || isStarred
        attachments = attachments || hasAttachments
        latestDate = date
        self.snippet = snippet
        self.category = category
        let key = address.lowercased()
        if let index = participantIndex[key] {
            if let name = fromName, !name.isEmpty, participants[index].name?.isEmpty ?? true {
                participants[index].name = name
            }
        } else {
            participantIndex[key] = participants.count
            participants.append(Participant(name: fromName, email: address))
        }
    }
}
