import Foundation
import VaultMailCore

/// Groups a set of an account's emails into conversations by Message-ID, References and
/// In-Reply-To, and places each email under its parent. The sync threads each batch of new
/// mail together with the stored conversations it mentions (`SyncThreading`), so nothing is
/// held between batches.
///
/// **Conversations** are JWZ's containers (https://www.jwz.org/doc/threading.html): every
/// msg-id a message carries (its own, its References, its In-Reply-To) names a container,
/// whether or not the account has that message. A container without a message is a *ghost*;
/// messages that share a container, ghost or not, are one conversation, so replies to a
/// message never received still stay together. Duplicates of a Message-ID share one
/// container and the first copy's headers count. No subject grouping (as notmuch).
///
/// **Parents** are chosen among the messages the account has, with notmuch 0.37's rules
/// (its `_resolve_thread_relationships`), which keep junk and mangled ids (`<yes>`, list
/// archives rewriting In-Reply-To) from derailing the tree where JWZ's ghost chain follows
/// them:
/// 1. oldest first, a message whose In-Reply-To (`ParentPolicy.inReplyToFirst`; else its last
///    reference) is present goes under it;
/// 2. every other message, which would be top-level, goes under the deepest present message it
///    references (depths as step 1 left them; ties to the smallest id), except one: the last
///    of them, normally the oldest message, stays top-level when nothing else is;
/// 3. a loop (A refs B, B refs A; a message referencing its own descendant) is never made:
///    a message caught in one becomes top-level, a reference that would close one is skipped.
/// A message whose parent is missing therefore hangs from its nearest present ancestor, or is
/// top-level beside its siblings: JWZ's pruned ghosts.
///
/// The result depends only on which messages are present, never on arrival order. The thread
/// id is derived from the account id and the root the conversation's oldest message names
/// (the first id of its References, else its In-Reply-To, else its own Message-ID), so a reply
/// that arrives before the message it answers already carries its conversation's final id.
public struct ConversationThreader: Sendable {
    /// Which header names a message's own parent.
    public enum ParentPolicy: Sendable {
        /// In-Reply-To when present, else the last reference (notmuch, Thunderbird).
        case inReplyToFirst
        /// The last reference when present, else In-Reply-To (JWZ's paper).
        case referencesFirst
    }

    public let accountId: String
    public let parentPolicy: ParentPolicy

    /// Messages by Message-ID (the first copy of each).
    private var messages: [String: ThreadableMessage] = [:]
    /// Email ids per Message-ID (more than one when copies carry different email ids).
    private var emailIds: [String: [String]] = [:]
    /// Containers joined into conversations: a union-find over msg-ids, with the present
    /// messages of each conversation kept at its representative.
    private var unionParent: [String: String] = [:]
    private var unionSize: [String: Int] = [:]
    private var members: [String: [String]] = [:]
    private init(accountId: String, parentPolicy: ParentPolicy) {
        self.accountId = accountId
        self.parentPolicy = parentPolicy
    }

    /// The thread and parent of every message of `messages`, in no particular order; copies
    /// of one Message-ID under several email ids share them.
    public static func thread(
        _ messages: [ThreadableMessage], accountId: String, parentPolicy: ParentPolicy = .inReplyToFirst
    ) -> [ThreadAssignment] {
        var threader = ConversationThreader(accountId: accountId, parentPolicy: parentPolicy)
        return threader.assign(messages)
    }

    /// The thread id of a conversation whose root is `messageId`.
    public static func threadId(accountId: String, forRoot messageId: String) -> String {
        EmailThread.stableID(accountId: accountId, rootMessageId: messageId)
    }

    private mutating func assign(_ batch: [ThreadableMessage]) -> [ThreadAssignment] {
        // Copies: the oldest (then smallest email id) is the one whose headers count.
        let ordered = batch.sorted {
            ($0.date ?? .distantPast, $0.id) < ($1.date ?? .distantPast, $1.id)
        }
        var touched: [String] = []
        for message in ordered {
            let id = message.messageId
            var ids = emailIds[id, default: []]
            if !ids.contains(message.id) { ids.append(message.id) }
            emailIds[id] = ids
            touched.append(id)
            guard messages[id] == nil else { continue }
            messages[id] = message
            members[find(id), default: []].append(id)
            for other in message.references + [message.inReplyTo].compactMap({ $0 }) where other != id {
                union(id, other)
            }
        }
        var conversations: [String] = []
        var seen = Set<String>()
        for id in touched {
            let representative = find(id)
            if seen.insert(representative).inserted { conversations.append(representative) }
        }
        var assignments: [ThreadAssignment] = []
        for representative in conversations {
            for next in evaluate(members[representative, default: []]) {
                for emailId in emailIds[next.messageId, default: []] {
                    var assignment = next
                    assignment.emailId = emailId
                    assignments.append(assignment)
                }
            }
        }
        return assignments
    }

    // MARK: Conversations (union-find over msg-ids)

    private mutating func find(_ id: String) -> String {
        if unionParent[id] == nil {
            unionParent[id] = id
            unionSize[id] = 1
            return id
        }
        var root = id
        while let up = unionParent[root], up != root { root = up }
        var current = id
        while let up = unionParent[current], up != root {
            unionParent[current] = root
            current = up
        }
        return root
    }

    private mutating func union(_ a: String, _ b: String) {
        var rootA = find(a)
        var rootB = find(b)
        guard rootA != rootB else { return }
        if unionSize[rootA, default: 1] < unionSize[rootB, default: 1] { swap(&rootA, &rootB) }
        unionParent[rootB] = rootA
        unionSize[rootA, default: 1] += unionSize[rootB, default: 1]
        unionSize[rootB] = nil
        if let moved = members.removeValue(forKey: rootB) {
            members[rootA, default: []].append(contentsOf: moved)
        }
    }

    // MARK: Parents within one conversation

    /// The message a message names as its parent, per `parentPolicy` (never itself).
    private func declaredParent(_ message: ThreadableMessage) -> String? {
        let inReplyTo = message.inReplyTo.flatMap { $0 == message.messageId ? nil : $0 }
        let lastReference = message.references.last { $0 != message.messageId }
        switch parentPolicy {
        case .inReplyToFirst: return inReplyTo ?? lastReference
        case .referencesFirst: return lastReference ?? inReplyTo
        }
    }

    /// Thread id and parent of every message of one conversation (see the type's comment).
    private func evaluate(_ ids: [String]) -> [ThreadAssignment] {
        let sorted = ids.compactMap { messages[$0] }.sorted {
            let (left, right) = ($0.date ?? .distantPast, $1.date ?? .distantPast)
            return left != right ? left < right : Self.precedes($0.messageId, $1.messageId)
        }
        guard let oldest = sorted.first else { return [] }
        let present = Set(sorted.map(\.messageId))
        var parent: [String: String] = [:]
        var children: [String: [String]] = [:]
        func attach(_ child: String, to newParent: String) {
            parent[child] = newParent
            children[newParent, default: []].append(child)
        }

        // 1. In-Reply-To (or the last reference) when that message is present.
        var maybeTopLevel: [String] = []
        for message in sorted.dropFirst() {
            if let declared = declaredParent(message), present.contains(declared) {
                attach(message.messageId, to: declared)
            } else {
                maybeTopLevel.append(message.messageId)
            }
        }
        if maybeTopLevel.isEmpty || !(declaredParent(oldest).map(present.contains) ?? false) {
            maybeTopLevel.append(oldest.messageId)
        } else if let declared = declaredParent(oldest) {
            attach(oldest.messageId, to: declared)
        }

        // 3 (first half). Messages unreachable from the top are in a loop: cut each loop at
        // its oldest message, which becomes a candidate for the top.
        var depth: [String: Int] = [:]
        func label(from roots: [String]) {
            var queue = roots.filter { depth[$0] == nil }
            for root in queue { depth[root] = 0 }
            var index = 0
            while index < queue.count {
                let node = queue[index]
                index += 1
                for child in children[node, default: []] where depth[child] == nil {
                    depth[child] = (depth[node] ?? 0) + 1
                    queue.append(child)
                }
            }
        }
        label(from: maybeTopLevel)
        for message in sorted where depth[message.messageId] == nil {
            let id = message.messageId
            if let old = parent.removeValue(forKey: id) { children[old]?.removeAll { $0 == id } }
            maybeTopLevel.insert(id, at: max(maybeTopLevel.count - 1, 0))
            label(from: [id])
        }

        // 2. The rest go under their deepest present reference; the last stays on top when
        // nothing else is.
        var topLevel: [String] = []
        for (index, id) in maybeTopLevel.enumerated() {
            guard index < maybeTopLevel.count - 1 || !topLevel.isEmpty, let message = messages[id] else {
                topLevel.append(id)
                continue
            }
            var best: String?
            var bestDepth = 0
            for reference in references(of: message) where present.contains(reference) {
                guard !isAncestor(id, of: reference, parent: parent) else { continue }
                let referenceDepth = depth[reference] ?? 0
                if best == nil || referenceDepth > bestDepth {
                    best = reference
                    bestDepth = referenceDepth
                }
            }
            if let best { attach(id, to: best) } else { topLevel.append(id) }
        }

        let root = oldest.references.first { $0 != oldest.messageId }
            ?? oldest.inReplyTo.flatMap { $0 == oldest.messageId ? nil : $0 }
            ?? oldest.messageId
        let threadId = Self.threadId(accountId: accountId, forRoot: root)
        return sorted.map {
            ThreadAssignment(emailId: "", messageId: $0.messageId, threadId: threadId, parentMessageId: parent[$0.messageId])
        }
    }

    /// Every msg-id a message mentions but its own, each once, in byte order of the bare id
    /// (notmuch's order, which breaks ties between equally deep references).
    private func references(of message: ThreadableMessage) -> [String] {
        var all = Set(message.references)
        if let inReplyTo = message.inReplyTo { all.insert(inReplyTo) }
        all.remove(message.messageId)
        return all.sorted(by: Self.precedes)
    }

    /// Whether `candidate` lies on the path from `node` up to its top (or is `node`).
    private func isAncestor(_ candidate: String, of node: String, parent: [String: String]) -> Bool {
        var current: String? = node
        var steps = 0
        while let here = current, steps <= parent.count {
            if here == candidate { return true }
            current = parent[here]
            steps += 1
        }
        return false
    }

    /// Byte order of msg-ids without their angle brackets.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        MessageIDs.bare(a).utf8.lexicographicallyPrecedes(MessageIDs.bare(b).utf8)
    }
}
