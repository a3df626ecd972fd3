import Foundation
import Testing
@testable import VaultMailApp
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

/// Suggested replies in the desktop notification (issue 16, AC-A-05): shown at once without
/// them, then again, silently, with them; never brought back once dealt with.
@MainActor
@Suite("ReplySuggestingNotificationCenter")
struct ReplySuggestingNotificationCenterTests {
    static func request(thread: String = "T-1") -> NotificationRequest {
        NotificationContentBuilder.request(for: MailFixtures.email(accountId: "acct-work", number: 1, threadId: thread, subject: "Lunch?"))
    }

    /// Suggestions that arrive only when the test lets them.
    actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var open = false
        private(set) var asked: [String] = []
        func wait(_ threadId: String) async {
            asked.append(threadId)
            if open { return }
            await withCheckedContinuation { waiting.append($0) }
        }
        func release() {
            open = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    func waitUntil(_ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { Issue.record("condition not met in 30 s"); return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("the notification is shown at once, then again in place with the replies, without a sound")
    func addsReplies() async throws {
        let base = MockNotificationCenter()
        let gate = Gate()
        let center = ReplySuggestingNotificationCenter(base: base) { threadId in
            await gate.wait(threadId)
            return ["Yes, noon works for me.", "Sorry, I can't make it."]
        }
        try await center.add(Self.request())
        #expect(base.addedRequests.count == 1, "shown before any reply is written")
        #expect(base.addedRequests[0].content.suggestedReplies.isEmpty)
        #expect(base.addedRequests[0].content.sound == .default)
        await gate.release()
        try await waitUntil { base.addedRequests.count == 2 }
        let updated = base.addedRequests[1]
        #expect(updated.identifier == Self.request().identifier)
        #expect(updated.content.suggestedReplies == ["Yes, noon works for me.", "Sorry, I can't make it."])
        #expect(updated.content.sound == .none)
        #expect(await gate.asked == ["T-1"])
        try await waitUntil { center.writing == 0 }
    }

    @Test("a notification dealt with before its replies are written is not shown again")
    func dealtWith() async throws {
        let base = MockNotificationCenter()
        let gate = Gate()
        let center = ReplySuggestingNotificationCenter(base: base) { threadId in
            await gate.wait(threadId)
            return ["Yes, noon works for me."]
        }
        let request = Self.request()
        try await center.add(request)
        try await waitUntil { await gate.asked.count == 1 }
        await center.removeDeliveredNotifications(withIdentifiers: [request.identifier])
        await gate.release()
        try await waitUntil { center.writing == 0 }
        #expect(base.addedRequests.count == 1)
        #expect(await center.deliveredNotifications().isEmpty)
    }

    @Test("no replies (no writing model): the notification stays as it was")
    func noReplies() async throws {
        let base = MockNotificationCenter()
        let asked = Gate()
        let center = ReplySuggestingNotificationCenter(base: base) { threadId in
            await asked.release()
            await asked.wait(threadId)
            return []
        }
        try await center.add(Self.request())
        try await waitUntil { center.writing == 0 }
        #expect(await asked.asked.count == 1)
        #expect(base.addedRequests.count == 1)
    }

    @Test("only replies the model wrote become buttons; without a model there are none")
    func modelRepliesOnly() async throws {
        let emails = MockEmailRepository()
        let accounts = InMemoryAccountRepository([MailFixtures.account(name: "work", email: "me@example.com")])
        var email = MailFixtures.email(accountId: "acct-work", number: 1, threadId: "T-9", from: "grace@example.com", subject: "Lunch?")
        email.bodyPlain = "Can you meet for lunch at noon tomorrow?"
        let inbox = MailFixtures.standardFolders(accountId: "acct-work").filter { $0.folderType == .inbox }
        try await emails.saveFolders(inbox)
        _ = try await emails.saveEmails([MailFixtures.incoming(email, in: inbox)])
        let none = SmartReplyUseCase(emails: emails, accounts: accounts, generator: nil, embedder: nil, semanticIndex: nil, replyHistory: nil)
        #expect(await ReplySuggestingNotificationCenter.modelReplies(none, threadId: "T-9").isEmpty)
        let writer = ScriptedTextGenerator(fallback: " noon works for me.")
        let written = SmartReplyUseCase(emails: emails, accounts: accounts, generator: writer, embedder: nil, semanticIndex: nil,
                                        replyHistory: nil)
        let replies = await ReplySuggestingNotificationCenter.modelReplies(written, threadId: "T-9")
        #expect(replies.count == ReplySuggestingNotificationCenter.maximumSuggestions)
    }
}
