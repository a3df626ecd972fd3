import Foundation
import Testing
import VaultMailCore
@testable import VaultMailSync
import VaultMailTesting

/// Edge cases of conversation threading (AC-F-06: emails grouped into threads by
/// References / In-Reply-To), through the threader and the sync's batch-by-batch plan.
@Suite("Conversation threading")
struct ConversationThreaderTests {
    static let account = "acct-1"

    /// A message `<name@x>` sent `day` days after 1 Jan 2024, stored as email "e-name".
    static func message(_ name: String, day: Int, inReplyTo: String? = nil, references: [String] = []) -> ThreadableMessage {
        ThreadableMessage(
            id: "e-\(name)", messageId: "<\(name)@x>",
            inReplyTo: inReplyTo.map { "<\($0)@x>" }, references: references.map { "<\($0)@x>" },
            subject: name, date: Date(timeIntervalSince1970: 1_704_067_200 + Double(day) * 86_400)
        )
    }

    static func byEmail(_ assignments: [ThreadAssignment]) -> [String: ThreadAssignment] {
        Dictionary(assignments.map { ($0.emailId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func threadId(_ root: String) -> String {
        ConversationThreader.threadId(accountId: Self.account, forRoot: "<\(root)@x>")
    }

    @Test("AC-F-06: a reply, its reply and an unrelated message form two threads with the right parents")
    func basicTree() throws {
        let result = Self.byEmail(ConversationThreader.thread([
            Self.message("a", day: 0),
            Self.message("b", day: 1, inReplyTo: "a", references: ["a"]),
            Self.message("c", day: 2, inReplyTo: "b", references: ["a", "b"]),
            Self.message("z", day: 1),
        ], accountId: Self.account))
        #expect(result["e-a"]?.parentMessageId == nil)
        #expect(result["e-b"]?.parentMessageId == "<a@x>")
        #expect(result["e-c"]?.parentMessageId == "<b@x>")
        #expect(Set(["e-a", "e-b", "e-c"].compactMap { result[$0]?.threadId }) == [threadId("a")])
        #expect(result["e-z"]?.threadId == threadId("z"))
    }

    @Test("AC-F-06: replies to a message the account never received share its ghost's thread, each top-level")
    func ghostParent() throws {
        let result = Self.byEmail(ConversationThreader.thread([
            Self.message("r1", day: 1, inReplyTo: "lost", references: ["lost"]),
            Self.message("r2", day: 2, inReplyTo: "lost", references: ["lost"]),
            Self.message("r3", day: 3, inReplyTo: "gone", references: ["lost", "gone"]),
        ], accountId: Self.account))
        #expect(result.count == 3)
        #expect(Set(result.values.map(\.threadId)) == [threadId("lost")])
        // None of them references a message the account has: all three are tops, never
        // children of a ghost.
        #expect(result.values.allSatisfy { $0.parentMessageId == nil })
    }

    @Test("AC-F-06: a missing middle of the References chain is skipped to the nearest present ancestor")
    func missingMiddle() throws {
        let result = Self.byEmail(ConversationThreader.thread([
            Self.message("a", day: 0),
            Self.message("c", day: 2, inReplyTo: "b", references: ["a", "b"]),
        ], accountId: Self.account))
        #expect(result["e-c"]?.parentMessageId == "<a@x>")
        #expect(result["e-c"]?.threadId == result["e-a"]?.threadId)
    }

    @Test("AC-F-06: a message without References or In-Reply-To is a thread of its own")
    func noReferences() throws {
        let result = ConversationThreader.thread([Self.message("solo", day: 0)], accountId: Self.account)
        #expect(result.count == 1)
        #expect(result.first?.threadId == threadId("solo"))
        #expect(result.first?.parentMessageId == nil)
    }

    @Test("AC-F-06: A refs B and B refs A make one thread with one top, whatever the arrival order")
    func referenceLoop() throws {
        let a = Self.message("a", day: 0, inReplyTo: "b", references: ["b"])
        let b = Self.message("b", day: 1, inReplyTo: "a", references: ["a"])
        let batch = Self.byEmail(ConversationThreader.thread([a, b], accountId: Self.account))
        #expect(batch["e-a"]?.threadId == batch["e-b"]?.threadId)
        #expect(batch["e-a"]?.parentMessageId == nil, "the older message of the loop is the top")
        #expect(batch["e-b"]?.parentMessageId == "<a@x>")

        #expect(Self.byEmail(ConversationThreader.thread([b, a], accountId: Self.account)) == batch)
    }

    @Test("AC-F-06: a three-message loop (A→B→C→A) still has exactly one top")
    func longerLoop() throws {
        let result = Self.byEmail(ConversationThreader.thread([
            Self.message("a", day: 0, inReplyTo: "c", references: ["c"]),
            Self.message("b", day: 1, inReplyTo: "a", references: ["a"]),
            Self.message("c", day: 2, inReplyTo: "b", references: ["b"]),
        ], accountId: Self.account))
        #expect(result.values.filter { $0.parentMessageId == nil }.count == 1)
        #expect(Set(result.values.map(\.threadId)).count == 1)
    }

    @Test("AC-F-06: a message that references itself is not its own parent")
    func selfReference() throws {
        let result = ConversationThreader.thread(
            [Self.message("me", day: 0, inReplyTo: "me", references: ["me", "me"])], accountId: Self.account
        )
        #expect(result.count == 1)
        #expect(result.first?.parentMessageId == nil)
        #expect(result.first?.threadId == threadId("me"))
    }

    @Test("AC-F-06: In-Reply-To wins over a wrong References order; the References-first policy takes the last reference")
    func parentPriority() throws {
        let messages = [
            Self.message("root", day: 0),
            Self.message("child", day: 1, inReplyTo: "root", references: ["root"]),
            Self.message("grandchild", day: 2, inReplyTo: "child", references: ["child", "root"]),
        ]
        let inReplyToFirst = Self.byEmail(ConversationThreader.thread(messages, accountId: Self.account))
        #expect(inReplyToFirst["e-grandchild"]?.parentMessageId == "<child@x>")
        let referencesFirst = Self.byEmail(ConversationThreader.thread(messages, accountId: Self.account, parentPolicy: .referencesFirst))
        #expect(referencesFirst["e-grandchild"]?.parentMessageId == "<root@x>")
    }

    @Test("AC-F-06: a late parent re-parents its waiting reply and keeps the thread id")
    func lateParent() throws {
        let reply = Self.message("reply", day: 1, inReplyTo: "original", references: ["original"])
        let alone = Self.byEmail(ConversationThreader.thread([reply], accountId: Self.account))
        #expect(alone["e-reply"]?.threadId == threadId("original"))
        #expect(alone["e-reply"]?.parentMessageId == nil)

        let both = Self.byEmail(ConversationThreader.thread([reply, Self.message("original", day: 0)], accountId: Self.account))
        #expect(both["e-reply"]?.parentMessageId == "<original@x>")
        #expect(both["e-reply"]?.threadId == threadId("original"))
        #expect(both["e-original"]?.threadId == threadId("original"))
    }

    @Test("AC-F-06: a late message that connects two stored threads moves the emails of one into the other")
    func lateMessageMergesThreads() throws {
        // Two conversations that only a missing message P links: E answers Q, B answers P.
        let e = Self.message("e", day: 1, inReplyTo: "q", references: ["q"])
        let b = Self.message("b", day: 3, inReplyTo: "p", references: ["p"])
        let stored = [Self.facts(e, thread: threadId("q")), Self.facts(b, thread: threadId("p"))]
        // P arrives: it answers Q.
        let p = Self.message("p", day: 2, inReplyTo: "q", references: ["q"])
        let plan = SyncThreading.plan(accountId: Self.account, new: [.init(message: p, gmailThreadID: nil)], stored: stored)
        #expect(plan.threadIds == ["e-p": threadId("q")])
        #expect(plan.changes == [ThreadChange(emailId: "e-b", threadId: threadId("q"))], "E did not change; B moved")
    }

    @Test("AC-F-06: copies of one Message-ID under two email ids share thread and parent")
    func duplicates() throws {
        var copy = Self.message("b", day: 1, inReplyTo: "a", references: ["a"])
        copy.id = "e-b-copy"
        let result = Self.byEmail(ConversationThreader.thread([
            Self.message("a", day: 0), Self.message("b", day: 1, inReplyTo: "a", references: ["a"]), copy,
        ], accountId: Self.account))
        #expect(result.count == 3)
        #expect(result["e-b-copy"]?.threadId == result["e-b"]?.threadId)
        #expect(result["e-b-copy"]?.parentMessageId == "<a@x>")
    }

    @Test("AC-F-06: syncing messages in batches, in any order, ends in the threads of threading them all at once")
    func orderIndependence() throws {
        let messages = [
            Self.message("a", day: 0),
            Self.message("b", day: 1, inReplyTo: "a", references: ["a"]),
            Self.message("c", day: 2, inReplyTo: "b", references: ["a", "b"]),
            Self.message("d", day: 3, inReplyTo: "x", references: ["a", "x"]),
            Self.message("e", day: 4, inReplyTo: "c", references: ["yes", "c"]),
            Self.message("f", day: 5, references: ["a", "b", "c", "e"]),
            Self.message("g", day: 1),
            Self.message("h", day: 6, inReplyTo: "g", references: ["g"]),
        ]
        let batch = Self.byEmail(ConversationThreader.thread(messages, accountId: Self.account)).mapValues(\.threadId)
        var random = SplitMix64(seed: 20_240_101)
        for round in 0..<25 {
            // As the sync does it: each batch with the stored emails, whose threads may change.
            var store: [String: ThreadingFacts] = [:]
            let shuffled = messages.shuffled(using: &random)
            let size = 1 + round % 3
            for start in stride(from: 0, to: shuffled.count, by: size) {
                let new = shuffled[start..<min(start + size, shuffled.count)]
                let plan = SyncThreading.plan(accountId: Self.account, new: new.map { .init(message: $0, gmailThreadID: nil) },
                                              stored: Array(store.values))
                for change in plan.changes { store[change.emailId]?.threadId = change.threadId }
                for message in new { store[message.id] = Self.facts(message, thread: plan.threadIds[message.id] ?? "") }
            }
            #expect(store.mapValues(\.threadId) == batch, "batches of \(size)")
        }
    }

    static func facts(_ message: ThreadableMessage, thread: String) -> ThreadingFacts {
        ThreadingFacts(emailId: message.id, messageId: message.messageId, inReplyTo: message.inReplyTo,
                       references: message.references, date: message.date ?? Date(timeIntervalSince1970: 0), threadId: thread)
    }
}
