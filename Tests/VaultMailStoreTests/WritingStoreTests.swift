import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Conversation summaries and the user's past replies (issue 16) on the production migrator.
@Suite("Writing: stored summaries and reply history (issue 16)")
struct WritingStoreTests {
    let store: StoreFixture
    let summaries: GRDBThreadSummaryRepository
    let history: GRDBReplyHistory

    init() async throws {
        store = try await StoreFixture(accounts: ["work", "home"])
        summaries = GRDBThreadSummaryRepository(database: store.database)
        history = GRDBReplyHistory(database: store.database)
    }

    func summary(_ threadId: String, text: String = "Anna: We agreed.", kind: ThreadSummaryKind = .extractive,
                 modelId: String? = nil, count: Int = 1) -> ThreadSummary {
        ThreadSummary(threadId: threadId, text: text, kind: kind, modelId: modelId, messageCount: count,
                      latestEmailId: "e-\(count)", createdAt: MailFixtures.referenceDate)
    }

    @Test("v9-summaries: a summary is stored, read back exactly and replaced; none for a thread that does not exist")
    func roundTrip() async throws {
        let email = try #require(try await store.add([1]).first)
        #expect(try await summaries.summary(threadId: email.threadId) == nil)
        let first = summary(email.threadId)
        try await summaries.save(first)
        #expect(try await summaries.summary(threadId: email.threadId) == first)
        let second = summary(email.threadId, text: "Bob will send the budget by Friday. Ada reviews it.", kind: .model,
                             modelId: "smollm2-135m-instruct", count: 2)
        try await summaries.save(second)
        #expect(try await summaries.summary(threadId: email.threadId) == second)
        try await summaries.save(summary("no-such-thread"))
        #expect(try await summaries.summary(threadId: "no-such-thread") == nil)
        #expect(try store.database.rowCounts()["threadSummary"] == 1)
    }

    @Test("A summary goes with its conversation's account (AC-SEC-03)")
    func removedWithAccount() async throws {
        let work = try #require(try await store.add([1]).first)
        let home = try #require(try await store.add([2], account: "acct-home").first)
        try await summaries.save(summary(work.threadId))
        try await summaries.save(summary(home.threadId))
        try await store.accounts.removeAccount(id: "acct-work")
        #expect(try await summaries.summary(threadId: work.threadId) == nil)
        #expect(try await summaries.summary(threadId: home.threadId) != nil)
    }

    @Test("Reply history: the user's own sent replies by In-Reply-To, the first one sent; others', drafts, queued mail and mere references are not replies")
    func replies() async throws {
        let asked = try await store.add([1, 2, 3]) { $0.fromAddress = "anna@example.org" }
        func reply(_ number: Int, to: Int, from: String = "Work@Example.com", minutes: Double, _ change: @escaping (inout Email) -> Void = { _ in }) -> (inout Email) -> Void {
            { email in
                email.fromAddress = from
                email.inReplyTo = "<msg-\(to)@example.com>"
                email.dateReceived = MailFixtures.referenceDate.addingTimeInterval(minutes * 60)
                change(&email)
            }
        }
        try await store.add([10], in: [.sent], configure: reply(10, to: 1, minutes: 100))
        try await store.add([11], in: [.sent], configure: reply(11, to: 1, minutes: 200))
        try await store.add([12], configure: reply(12, to: 2, from: "bob@example.org", minutes: 100))
        try await store.add([13], in: [.drafts], configure: reply(13, to: 2, minutes: 100) { $0.isDraft = true; $0.sendState = .draft })
        try await store.add([14], configure: reply(14, to: 2, minutes: 110) { $0.sendState = .queued })
        try await store.add([15], in: [.sent], configure: reply(15, to: 99, minutes: 100) { $0.references = "<msg-3@example.com> <msg-99@example.com>" })
        try await store.add([16], in: [.sent], configure: reply(16, to: 2, minutes: 120) { $0.sendState = .sent })

        let found = try await history.replies(toEmailIds: asked.map(\.id) + ["no-such-email"])
        #expect(Set(found.keys) == [asked[0].id, asked[1].id])
        #expect(found[asked[0].id]?.messageId == "<msg-10@example.com>", "the first reply sent")
        #expect(found[asked[1].id]?.messageId == "<msg-16@example.com>")
        #expect(found[asked[0].id]?.bodyPlain == "Body of message 10")
        #expect(try await history.replies(toEmailIds: []).isEmpty)
    }
}
