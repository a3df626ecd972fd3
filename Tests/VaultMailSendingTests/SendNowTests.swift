import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Issue 18: a send-now uploads no draft to Drafts first; a draft already there is still
/// removed after the send. Over the real store with the recording IMAP double.
@Suite("Send now without a draft upload (issue 18)")
struct SendNowTests {
    @Test("A reply sent now through the use case (saveForSending, queueForSending, executeSend): no APPEND to Drafts, Sent gets it, Drafts is still cleaned")
    func notificationReply() async throws {
        let fake = try await FakeSending.make(undoDelay: 600)
        let compose: any ComposeEmailUseCase = fake.compose
        var reply = DraftContent(accountId: fake.account.id)
        reply.to = ["grace@example.com"]
        reply.subject = "Re: Lunch"
        reply.body = "Yes!"
        reply.inReplyTo = "<lunch@example.com>"
        reply.references = "<lunch@example.com>"
        let id = try await compose.saveForSending(reply, attachments: [])
        try await compose.queueForSending(emailId: id)
        try await compose.executeSend(emailId: id)
        #expect(await fake.remote.calls == ["append sent", "remove drafts"])
        #expect(await fake.transport.sent.count == 1)
        let entry = try #require(try await fake.entry(id))
        #expect(entry.state == .sent)
        #expect(entry.remoteDraft == nil)
        #expect(entry.email.inReplyTo == "<lunch@example.com>")
        #expect(try await fake.folderTypes(id) == [.sent])
    }

    @Test("saveDraft still copies to Drafts at once; a composer copy still waiting for a pause is dropped when the message is saved for sending")
    func pendingCopyDropped() async throws {
        // The pause is waited on a clock the test moves: the copy waits however slow the machine.
        let pause = ManualClock()
        let fake = try await FakeSending.make(sleeper: pause)
        var content = DraftContent(accountId: fake.account.id)
        content.to = ["grace@example.com"]
        content.subject = "Typing"
        let id = try await fake.compose.saveDraft(content, html: nil, attachments: [], serverCopy: .milliseconds(300))
        try await waitUntil("the Drafts copy waiting for the pause") { pause.sleepers == 1 }
        content.draftId = id
        content.subject = "Sent now"
        #expect(try await fake.compose.saveForSending(content, html: nil, attachments: nil) == id)
        try await waitUntil("the waiting copy dropped") { pause.sleepers == 0 }
        pause.advance(by: .seconds(1))
        #expect(await fake.remote.calls.isEmpty, "the waiting copy was not made")
        #expect(try await fake.state(id) == .draft)
        #expect(try await fake.entry(id)?.email.subject == "Sent now")
        try await fake.compose.queueForSending(emailId: id)
        try await fake.compose.executeSend(emailId: id)
        #expect(await fake.remote.calls == ["append sent", "remove drafts"])
    }

    @Test("A draft already in Drafts and then sent now: the new version is not uploaded, the copy is removed after the send")
    func draftOnServerRemoved() async throws {
        let fake = try await FakeSending.make()
        let id = try await fake.draft(subject: "First")
        #expect(await fake.remote.messages(in: .drafts).count == 1)
        var content = DraftContent(accountId: fake.account.id)
        content.draftId = id
        content.to = ["grace@example.com"]
        content.subject = "Final"
        _ = try await fake.compose.saveForSending(content, html: nil, attachments: nil)
        #expect(await fake.remote.messages(in: .drafts).count == 1, "the server keeps the first version until the send")
        try await fake.compose.queueForSending(emailId: id)
        try await fake.compose.executeSend(emailId: id)
        #expect(await fake.remote.calls == ["append drafts", "append sent", "remove drafts"])
        #expect(await fake.remote.messages(in: .drafts).isEmpty)
        #expect(await fake.remote.messages(in: .sent).count == 1)
    }

    @Test("Addresses are checked when a message is saved for sending")
    func addressesChecked() async throws {
        let fake = try await FakeSending.make()
        var content = DraftContent(accountId: fake.account.id)
        content.to = ["not an address"]
        await #expect(throws: ComposeError.self) {
            _ = try await fake.compose.saveForSending(content, html: nil, attachments: [])
        }
        #expect(await fake.remote.calls.isEmpty)
    }
}
