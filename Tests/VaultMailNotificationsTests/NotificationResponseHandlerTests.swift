import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

@MainActor
@Suite("NotificationResponseHandler (NOTIF-06)")
struct NotificationResponseHandlerTests {
    /// An engine with one notified email in thread T-456 (two unread emails in it).
    func notified() async throws -> (EngineFixture, Email, String) {
        let engine = try await EngineFixture()
        _ = try await engine.email(1, minutesAgo: 30, thread: "T-456")
        let email = try await engine.email(2, thread: "T-456", from: "sender@example.com", subject: "Dinner")
        await engine.process([email])
        return (engine, email, NotificationRequest.identifier(forEmailId: email.id))
    }

    @Test("AC-N-16: Mark Read marks the whole thread read (through Conversations, server first), removes its notification, updates the badge")
    func markRead() async throws {
        let (engine, _, identifier) = try await notified()
        #expect(engine.center.currentBadgeCount == 2)
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionMarkRead)
        #expect(engine.handler.lastOutcome == .markedRead(threadId: "T-456"))
        #expect(try await engine.repository.getThread(id: "T-456")?.unreadCount == 0)
        #expect(await engine.repository.calls.contains("markThreadsRead"))
        #expect(engine.center.removedIdentifiers == [identifier])
        #expect(engine.center.currentBadgeCount == 0)
    }

    @Test("AC-N-17: Archive calls archiveThread(id:), removes the notification, updates the badge")
    func archive() async throws {
        let (engine, _, identifier) = try await notified()
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionArchive)
        #expect(engine.handler.lastOutcome == .archived(threadId: "T-456"))
        #expect(await engine.repository.calls.contains("archiveThread"))
        #expect(engine.center.removedIdentifiers == [identifier])
        #expect(engine.center.currentBadgeCount == 0)
    }

    @Test("AC-N-18: Delete calls deleteThread(id:), removes the notification, updates the badge")
    func delete() async throws {
        let (engine, _, identifier) = try await notified()
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionDelete)
        #expect(engine.handler.lastOutcome == .deleted(threadId: "T-456"))
        #expect(await engine.repository.calls.contains("deleteThread"))
        #expect(engine.center.removedIdentifiers == [identifier])
        #expect(engine.center.currentBadgeCount == 0)
    }

    @Test("AC-N-19, issue 28: an inline reply is the reply Compose writes for the tool and the web composer (recipient, Re:, threading, signature, attribution, quote), queued and sent now; the notification removed")
    func reply() async throws {
        let engine = try await EngineFixture()
        engine.settings.setSignature("Ada", for: "acct-work")
        var original = MailFixtures.email(accountId: "acct-work", number: 789, threadId: "T-456", from: "sender@example.com",
                                          subject: "Dinner", date: engine.clock.now.addingTimeInterval(-30))
        original.references = "<root@example.com> <mid@example.com>"
        original.bodyPlain = "Dinner at eight?\n\n> Friday suits me."
        original = try await engine.repository.saveEmails([MailFixtures.incoming(original, in: [engine.folders.of(.inbox)])])[0]
        await engine.process([original])
        try await engine.center.respond(to: "email-\(original.id)", action: AppConstants.notificationActionReply, text: "Thanks, I'll be there!")
        let draft = try #require(await engine.compose.drafts.first)
        #expect(draft == RecordingComposeEmail.Draft(
            draftId: nil, accountId: "acct-work", threadId: "T-456", toAddresses: ["Sender <sender@example.com>"], ccAddresses: [],
            bccAddresses: [], subject: "Re: Dinner",
            bodyPlain: "Thanks, I'll be there!\n\n-- \nAda\n\nOn Thu, 15 Jan 2026 at 11:59, Sender <sender@example.com> wrote:\n"
                + "> Dinner at eight?\n>\n>> Friday suits me.\n",
            inReplyTo: "<msg-789@example.com>", references: "<root@example.com> <mid@example.com> <msg-789@example.com>", attachmentCount: 0))
        let expected = try await engine.composition.answer(.reply, emailId: original.id, typed: "Thanks, I'll be there!")
        #expect(draft.bodyPlain == expected.body && draft.toAddresses == expected.to, "the same reply as every door's")
        #expect(await engine.compose.queued == ["draft-1"])
        #expect(await engine.compose.sent == ["draft-1"])
        #expect(engine.handler.lastOutcome == .replied(draftId: "draft-1"))
        #expect(engine.center.removedIdentifiers == ["email-\(original.id)"])
    }

    @Test("E-17: replying to \"Re: …\" (any case) does not double the prefix; no references gives just the Message-ID")
    func replySubject() async throws {
        let engine = try await EngineFixture()
        for (number, subject) in [(1, "Re: Lunch"), (2, "RE: Lunch")] {
            let email = try await engine.email(number, thread: "T-\(number)", subject: subject)
            await engine.process([email])
            try await engine.center.respond(to: NotificationRequest.identifier(forEmailId: email.id), action: AppConstants.notificationActionReply, text: "ok")
            let draft = try #require(await engine.compose.drafts.last)
            #expect(draft.subject == subject)
            #expect(draft.references == email.messageId)
        }
    }

    @Test("A reply to an email deleted since its notification says so and sends nothing")
    func replyToGoneEmail() async throws {
        let (engine, email, identifier) = try await notified()
        try await engine.repository.deleteThread(id: "T-456")
        try await engine.repository.deleteThread(id: "T-456")
        #expect(try await engine.repository.getEmail(id: email.id) == nil)
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionReply, text: "ok")
        #expect(engine.handler.lastOutcome == .failed(action: "reply", message: "the email being answered no longer exists; nothing was sent"))
        #expect(await engine.compose.drafts.isEmpty)
        #expect(engine.center.removedIdentifiers.isEmpty)
    }

    @Test("AC-N-20: tapping the notification opens the conversation through Conversations (notification withdrawn, read on the server) and sets pendingThreadNavigation")
    func tap() async throws {
        let (engine, _, identifier) = try await notified()
        try await engine.center.respond(to: identifier, action: NotificationResponse.defaultActionIdentifier)
        #expect(engine.coordinator.pendingThreadNavigation == "T-456")
        #expect(engine.handler.lastOutcome == .openedThread(threadId: "T-456"))
        #expect(engine.center.removedIdentifiers == [identifier])
        try await waitUntil("the thread marked read on open") { try await engine.repository.getThread(id: "T-456")?.unreadCount == 0 }
        #expect(await engine.repository.calls.contains("setEmailsRead"))
        try await waitUntil("the badge counted again") { engine.center.currentBadgeCount == 0 }
        engine.coordinator.pendingThreadNavigation = nil
        #expect(engine.coordinator.pendingThreadNavigation == nil)
    }

    @Test("AC-N-20, E-18: a conversation opened from a notification that the server refuses to mark read is reported")
    func tapMarkReadFails() async throws {
        let (engine, _, identifier) = try await notified()
        let reported = Reported()
        engine.handler.onOutcome = { reported.outcomes.append($0) }
        await engine.repository.failing("setEmailsRead", error: RepositoryError.storage("imap.example.com:993 unreachable"))
        try await engine.center.respond(to: identifier, action: NotificationResponse.defaultActionIdentifier)
        #expect(engine.handler.lastOutcome == .openedThread(threadId: "T-456"))
        try await waitUntil("the failure reported") { reported.outcomes.count == 2 }
        #expect(reported.outcomes.contains(.openedThread(threadId: "T-456")))
        let failure = reported.outcomes.first { if case .failed = $0 { true } else { false } }
        guard case .failed(let action, let message)? = failure else { Issue.record("expected a failure"); return }
        #expect(action == "mark read")
        #expect(message.contains("still unread on the server"))
        #expect(message.contains("unreachable"))
        #expect(try await engine.repository.getThread(id: "T-456")?.unreadCount == 2)
    }

    @Test("AC-N-20: with mark-read-on-open off, a tap opens the conversation and leaves it unread")
    func tapWithoutMarkingRead() async throws {
        let (engine, _, identifier) = try await notified()
        engine.settings.markReadOnOpen = false
        try await engine.center.respond(to: identifier, action: NotificationResponse.defaultActionIdentifier)
        #expect(engine.handler.lastOutcome == .openedThread(threadId: "T-456"))
        #expect(engine.center.removedIdentifiers == [identifier])
        #expect(await !engine.repository.calls.contains("setEmailsRead"))
        #expect(try await engine.repository.getThread(id: "T-456")?.unreadCount == 2)
    }

    @Test("Tapping a notification whose thread is gone says so, navigates nowhere, and clears it")
    func tapGoneThread() async throws {
        let (engine, _, identifier) = try await notified()
        try await engine.repository.deleteThread(id: "T-456")
        try await engine.repository.deleteThread(id: "T-456")
        try await engine.center.respond(to: identifier, action: NotificationResponse.defaultActionIdentifier)
        #expect(engine.coordinator.pendingThreadNavigation == nil)
        guard case .failed(_, let message) = engine.handler.lastOutcome else { Issue.record("expected a failure"); return }
        #expect(message.contains("no longer exists"))
        #expect(engine.center.removedIdentifiers == [identifier])
    }

    @Test("NOTIF-06f: foreground presentation is banner+badge+sound, nothing for the thread on screen")
    func foreground() async throws {
        let (engine, _, _) = try await notified()
        let notification = try #require(await engine.center.deliveredNotifications().first)
        #expect(engine.handler.willPresent(notification) == [.banner, .badge, .sound])
        await engine.coordinator.threadOpened("T-456")
        #expect(engine.handler.willPresent(notification) == [])
    }

    @Test("E-18: Delete on an already-deleted thread is reported, changes nothing, keeps the notification")
    func deleteAlreadyDeleted() async throws {
        let (engine, _, identifier) = try await notified()
        await engine.repository.failing("deleteThread", error: RepositoryError.threadNotFound(id: "T-456"))
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionDelete)
        guard case .failed(let action, let message) = engine.handler.lastOutcome else { Issue.record("expected a failure"); return }
        #expect(action == "delete")
        #expect(message.contains("T-456"))
        #expect(engine.center.removedIdentifiers.isEmpty)
        #expect(try await engine.repository.getThread(id: "T-456")?.unreadCount == 2)
    }

    @Test("E-18: an archive that fails (network down) is reported and leaves mail and notification as they were")
    func archiveFails() async throws {
        let (engine, _, identifier) = try await notified()
        await engine.repository.failing("archiveThread", error: RepositoryError.storage("imap.example.com:993 unreachable"))
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionArchive)
        guard case .failed(_, let message) = engine.handler.lastOutcome else { Issue.record("expected a failure"); return }
        #expect(message.contains("unreachable"))
        #expect(engine.center.removedIdentifiers.isEmpty)
        #expect(try await engine.repository.getEmails(threadId: "T-456").allSatisfy { $0.folderTypes == [.inbox] })
    }

    @Test("A reply whose sending fails stays queued, is reported, and keeps the notification")
    func replySendFails() async throws {
        let (engine, _, identifier) = try await notified()
        await engine.compose.setFailures(send: true)
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionReply, text: "hi")
        guard case .failed(_, let message) = engine.handler.lastOutcome else { Issue.record("expected a failure"); return }
        #expect(message.contains("outbox"))
        #expect(await engine.compose.queued == ["draft-1"])
        #expect(engine.center.removedIdentifiers.isEmpty)
    }

    @Test("Reply without text (no inline reply in the centre) asks to compose and opens the thread")
    func replyWithoutText() async throws {
        let (engine, email, identifier) = try await notified()
        try await engine.center.respond(to: identifier, action: AppConstants.notificationActionReply, text: nil)
        #expect(engine.handler.lastOutcome == .composeRequested(emailId: email.id))
        #expect(engine.coordinator.pendingThreadNavigation == "T-456")
        #expect(await engine.compose.drafts.isEmpty)
    }

    @Test("An unknown action is reported, not a crash")
    func unknownAction() async throws {
        let (engine, _, identifier) = try await notified()
        try await engine.center.respond(to: identifier, action: "SNOOZE")
        #expect(engine.handler.lastOutcome == .failed(action: "SNOOZE", message: "unknown notification action 'SNOOZE'"))
    }
}

/// What the handler told its front end.
@MainActor
private final class Reported {
    var outcomes: [NotificationActionOutcome] = []
}
