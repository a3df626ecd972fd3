import Foundation
import VaultMailCore

/// Decides the conversation of newly fetched mail against what the store holds.
///
/// With Gmail's X-GM-THRID (offered with X-GM-EXT-1) the server's conversation id is the
/// thread: `gmailThreadId(accountId:gmailThreadID:)`. Otherwise `ConversationThreader` runs
/// over the new messages together with every stored conversation they touch (by Message-ID,
/// References or In-Reply-To), so a reply stored before its parent, or two conversations a
/// late message joins, end up as one thread: stored emails whose thread changes are reported
/// as `ThreadChange`s for the store.
enum SyncThreading {
    struct Plan: Sendable, Equatable {
        /// Email id → thread id for every new message.
        var threadIds: [String: String]
        /// Stored emails that move to another thread.
        var changes: [ThreadChange]
    }

    /// A new message: its threading facts and Gmail's thread id when the server gave one.
    struct NewMessage: Sendable {
        var message: ThreadableMessage
        var gmailThreadID: UInt64?
    }

    /// The thread id for Gmail's X-GM-THRID of an account.
    static func gmailThreadId(accountId: String, gmailThreadID: UInt64) -> String {
        StableID.make(accountId, "\u{1F}gmthrid\u{1F}", String(gmailThreadID, radix: 16))
    }

    static func plan(accountId: String, new: [NewMessage], stored: [ThreadingFacts]) -> Plan {
        var threadIds: [String: String] = [:]
        var headerThreaded: [ThreadableMessage] = []
        for item in new {
            if let gmail = item.gmailThreadID {
                threadIds[item.message.id] = gmailThreadId(accountId: accountId, gmailThreadID: gmail)
            } else {
                headerThreaded.append(item.message)
            }
        }
        guard !headerThreaded.isEmpty else { return Plan(threadIds: threadIds, changes: []) }
        let storedMessages = stored.map {
            ThreadableMessage(id: $0.emailId, messageId: $0.messageId, inReplyTo: $0.inReplyTo, references: $0.references, date: $0.date)
        }
        let newIds = Set(headerThreaded.map(\.id))
        let currentThread = Dictionary(stored.map { ($0.emailId, $0.threadId) }, uniquingKeysWith: { first, _ in first })
        var changes: [ThreadChange] = []
        for assignment in ConversationThreader.thread(storedMessages + headerThreaded, accountId: accountId) {
            if newIds.contains(assignment.emailId) {
                threadIds[assignment.emailId] = assignment.threadId
            } else if let current = currentThread[assignment.emailId], current != assignment.threadId {
                changes.append(ThreadChange(emailId: assignment.emailId, threadId: assignment.threadId))
            }
        }
        return Plan(threadIds: threadIds, changes: changes.sorted { $0.emailId < $1.emailId })
    }
}
