import Foundation
import Testing
import VaultMailCore
import VaultMailSync
import VaultMailTesting

/// Edge cases of conversation threading (AC-F-06: emails grouped into threads by
/// References / In-Reply-To), each checked through the public API only.
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
        ConversationThreader(accountId: Self.account).threadId(forRoot: "<\(root)@x>")
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

        var oneByOne = ConversationThreader(accountId: Self.account)
        _ = oneByOne.add([b])
        _ = oneByOne.add([a])
        #expect(Self.byEmail(oneByOne.allAssignments) == batch)
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
        var threader = ConversationThreader(accountId: Self.account)
        let first = threader.add([Self.message("reply", day: 1, inReplyTo: "original", references: ["original"])])
        #expect(first.assignments.map(\.emailId) == ["e-reply"])
        #expect(first.assignments.first?.threadId == threadId("original"))
        #expect(first.assignments.first?.parentMessageId == nil)

        let second = threader.add([Self.message("original", day: 0)])
        let changed = Self.byEmail(second.assignments)
        #expect(Set(changed.keys) == ["e-original", "e-reply"])
        #expect(changed["e-reply"]?.parentMessageId == "<original@x>")
        #expect(changed["e-reply"]?.threadId == threadId("original"))
        #expect(second.merges.isEmpty)
    }

    @Test("AC-F-06: a late message that connects two threads reports the merge and the emails that moved")
    func lateMessageMergesThreads() throws {
        var threader = ConversationThreader(accountId: Self.account)
        // Two conversations that only a missing message P links: E answers Q, B answers P.
        _ = threader.add([Self.message("e", day: 1, inReplyTo: "q", references: ["q"])])
        _ = threader.add([Self.message("b", day: 3, inReplyTo: "p", references: ["p"])])
        #expect(threader.assignment(forEmailId: "e-e")?.threadId == threadId("q"))
        #expect(threader.assignment(forEmailId: "e-b")?.threadId == threadId("p"))

        // P arrives: it answers Q.
        let update = threader.add([Self.message("p", day: 2, inReplyTo: "q", references: ["q"])])
        #expect(update.merges == [ThreadMerge(from: threadId("p"), into: threadId("q"))])
        let changed = Self.byEmail(update.assignments)
        #expect(Set(changed.keys) == ["e-p", "e-b"], "E did not change; P is new; B moved")
        #expect(changed["e-b"]?.threadId == threadId("q"))
        #expect(changed["e-b"]?.parentMessageId == "<p@x>")
        #expect(Set(threader.allAssignments.map(\.threadId)) == [threadId("q")])
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

    @Test("AC-F-06: threading one message at a time in any order ends where threading all at once does")
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
        let batch = Self.byEmail(ConversationThreader.thread(messages, accountId: Self.account))
        var random = SplitMix64(seed: 20_240_101)
        for _ in 0..<25 {
            var threader = ConversationThreader(accountId: Self.account)
            for message in messages.shuffled(using: &random) { _ = threader.add([message]) }
            #expect(Self.byEmail(threader.allAssignments) == batch)
        }
    }
}
