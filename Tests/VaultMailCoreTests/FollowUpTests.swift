import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 33: "remind me if nobody answers in N days" on mail the user sent.
@MainActor
@Suite("Follow-up reminders (issue 33)")
struct FollowUpTests {
    let account = MailFixtures.account(name: "work", email: "ada@example.com")
    let emails = MockEmailRepository()
    let clock = FixedClock(MailFixtures.referenceDate)
    let settings = SettingsStore(storage: InMemorySettingsStorage())

    var service: FollowUp { FollowUp(settings: settings, emails: emails, accounts: InMemoryAccountRepository([account]), clock: clock) }

    /// A conversation with the user's message, sent at the clock's now.
    func sentConversation(_ thread: String) async throws -> Email {
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let sent = MailFixtures.email(accountId: account.id, number: 1, threadId: thread, from: "ada@example.com", subject: "Quote for the roof",
                                      date: clock.now, isRead: true)
        return try #require(try await emails.saveEmails([MailFixtures.incoming(sent, in: [folders.of(.sent)])]).first)
    }

    func answer(_ thread: String, minutesAfter: Double) async throws {
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let reply = MailFixtures.email(accountId: account.id, number: 2, threadId: thread, from: "roofer@example.net",
                                       date: clock.now.addingTimeInterval(minutesAfter * 60))
        _ = try await emails.saveEmails([MailFixtures.incoming(reply, in: [folders.of(.inbox)])])
    }

    @Test("Times are read as 3d, 1w, 12h, 30m (or in words); anything else is refused saying how to write it")
    func delays() throws {
        #expect(try FollowUp.delay(from: "3d") == 3 * 86_400)
        #expect(try FollowUp.delay(from: "1 week") == 7 * 86_400)
        #expect(try FollowUp.delay(from: "12h") == 12 * 3600)
        #expect(try FollowUp.delay(from: "30m") == 1800)
        for bad in ["", "3", "soon", "-2d", "0d", "3y"] {
            #expect(throws: FollowUpError.unreadableDelay(bad)) { try FollowUp.delay(from: bad) }
        }
        #expect(FollowUpError.unreadableDelay("soon").description.contains("3d"))
    }

    @Test("A reminder counts from the user's message; unanswered when due, it is given once and taken off")
    func remindsOnce() async throws {
        let sent = try await sentConversation("roof")
        let reminder = try await service.remind(threadId: "roof", after: "3d")
        #expect(reminder.emailId == sent.id && reminder.due == clock.now.addingTimeInterval(3 * 86_400))
        #expect(try await service.due().isEmpty, "not yet")
        clock.advance(by: 3 * 86_400 + 1)
        let due = try await service.due()
        #expect(due.map(\.reminder.threadId) == ["roof"] && due.first?.email.id == sent.id)
        #expect(try await service.due().isEmpty, "once")
        #expect(await service.reminders().isEmpty)
    }

    @Test("An answer before the time ends the reminder without a word")
    func answered() async throws {
        _ = try await sentConversation("roof")
        try await service.remind(threadId: "roof", after: "1d")
        try await answer("roof", minutesAfter: 60)
        clock.advance(by: 2 * 86_400)
        #expect(try await service.due().isEmpty)
        #expect(await service.reminders().isEmpty)
    }

    @Test("Refused: a conversation the user did not write in, one that is gone; cancelling one that has none")
    func refusals() async throws {
        let folders = MailFixtures.standardFolders(accountId: account.id)
        _ = try await emails.saveEmails([MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: 5, threadId: "news"), in: [folders.of(.inbox)])])
        await #expect(throws: FollowUpError.nothingSent) { try await service.remind(threadId: "news", after: "1d") }
        await #expect(throws: FollowUpError.noSuchConversation("gone")) { try await service.remind(threadId: "gone", after: "1d") }
        await #expect(throws: FollowUpError.notSet) { try await service.cancel(threadId: "news") }
        _ = try await sentConversation("roof")
        try await service.remind(threadId: "roof", after: "1d")
        try await service.cancel(threadId: "roof")
        #expect(await service.reminders().isEmpty)
    }
}
