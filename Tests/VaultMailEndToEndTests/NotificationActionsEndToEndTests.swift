import Foundation
import Testing
import VaultMailTesting

/// What the user does from a notification reaches the mail server, and what they do
/// elsewhere reaches the notification.
@Suite("vaultmail notification actions end to end (issue 7)", .serialized)
struct NotificationActionsEndToEndTests {
    @Test("Mark Read, Archive and Delete change the server mailbox, withdraw the notification and update the badge")
    func actions() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Old unread"))
            try await world.addAccount()
            try await world.startDaemon()
            var ids: [String: Int] = [:]
            for subject in ["Read me", "Archive me", "Delete me"] {
                try world.deliver(EndToEndWorld.message(subject))
                ids[subject] = try #require(try await world.waitForNotification(mentioning: subject)["id"] as? Int)
            }
            try await world.waitForBadge(4)

            for (subject, action, badge) in [("Read me", "MARK_READ_ACTION", 3), ("Archive me", "ARCHIVE_ACTION", 2), ("Delete me", "DELETE_ACTION", 1)] {
                let id = try #require(ids[subject])
                try await world.notifications.emitAction(id: UInt32(id), key: action)
                try await world.notifications.waitForEvent { event in
                    event["method"] as? String == "CloseNotification" && event["id"] as? Int == id
                }
                try await world.waitForBadge(badge)
            }

            let inbox = try await world.otherClient.messages(in: "INBOX")
            #expect(inbox.first { $0.subject == "Read me" }?.flags.contains("\\Seen") == true)
            #expect(!inbox.contains { $0.subject == "Archive me" || $0.subject == "Delete me" })
            #expect(try await world.otherClient.messages(in: "Archive").map(\.subject) == ["Archive me"])
            #expect(try await world.otherClient.messages(in: "Trash").map(\.subject) == ["Delete me"])
            #expect(inbox.first { $0.subject == "Old unread" }?.flags.contains("\\Seen") == false, "other mail is untouched")
        }
    }

    @Test("An inline reply reaches the SMTP server as the tool's reply does (recipient, Re:, threading headers, attribution, quote) and lands in Sent")
    func inlineReply() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            let messageId = "<question-\(UUID().uuidString)@example.org>"
            try world.deliver(EndToEndWorld.message("Lunch tomorrow?", messageId: messageId, headers: ["References: <plans@example.org>"],
                                                    body: "Lunch tomorrow?\n\n> Noon or one?"))
            let id = try #require(try await world.waitForNotification(mentioning: "Lunch tomorrow?")["id"] as? Int)

            try await world.notifications.emitReply(id: UInt32(id), text: "Yes, noon works.")
            let sent = try #require(try await world.smtp.waitForMessages(count: 1, timeout: .seconds(90)).first)
            let inline = try ComposeContractTests.Outcome(sent)
            #expect(sent.mailFrom == EndToEndWorld.address)
            #expect(inline.envelope == ["grace@example.org"] && inline.to == ["grace@example.org"] && inline.cc.isEmpty)
            #expect(inline.subject == "Re: Lunch tomorrow?")
            #expect(inline.inReplyTo == messageId && inline.references == ["<plans@example.org>", messageId])
            #expect(inline.text.hasPrefix("Yes, noon works.\n\nOn ")
                    && inline.text.hasSuffix("Grace Hopper <grace@example.org> wrote:\n> Lunch tomorrow?\n>\n>> Noon or one?\n"), "\(inline.text)")

            try await world.eventually("the reply in Sent") {
                try await world.otherClient.messages(in: "Sent").contains { $0.subject == "Re: Lunch tomorrow?" && $0.inReplyTo == messageId }
            }
            try await world.notifications.waitForEvent { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id }

            // The same reply through the tool: the same message.
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Lunch tomorrow?" })
            let shown = try ToolJSON.object(try await world.vaultmail(["show", thread.id, "--json"], errors: false).text)
            let emailId = try #require((shown["emails"] as? [[String: Any]])?.first?["id"] as? String)
            let tool = try await world.vaultmail(["send", "--account", "work", "--reply-to", emailId], input: "Yes, noon works.\n")
            #expect(tool.status == 0, "\(tool.text)")
            #expect(try ComposeContractTests.Outcome(try await world.smtp.waitForMessages(count: 2)[1]) == inline)
        }
    }

    @Test("Mail read, archived or deleted in another IMAP client withdraws its notification and updates the badge within one IDLE round")
    func changedElsewhere() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            var ids: [String: Int] = [:]
            for subject in ["Seen on the phone", "Archived on the web", "Deleted on the web", "Still unread"] {
                try world.deliver(EndToEndWorld.message(subject))
                ids[subject] = try #require(try await world.waitForNotification(mentioning: subject)["id"] as? Int)
            }
            try await world.waitForBadge(4)

            let changes: [(String, () async throws -> Void)] = [
                ("Seen on the phone", { try await world.otherClient.markRead(subject: "Seen on the phone") }),
                ("Archived on the web", { try await world.otherClient.move(subject: "Archived on the web", to: "Archive") }),
                ("Deleted on the web", { try await world.otherClient.delete(subject: "Deleted on the web") }),
            ]
            for (index, (subject, change)) in changes.enumerated() {
                try await change()
                let id = try #require(ids[subject])
                try await world.notifications.waitForEvent(timeout: .seconds(30)) {
                    $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id
                }
                try await world.waitForBadge(3 - index, timeout: .seconds(30))
            }
            #expect(world.notifications.calls("CloseNotification").count == 3, "the unread one stays")
        }
    }

    @Test("A click opens the conversation as every door does (read on the server, notification withdrawn) and runs the open command; Archive while the server is away is done here at once and on the server once it is back (issue 29)")
    func openAndFailedAction() async throws {
        try await EndToEndWorld.with { world in
            let opened = world.home.deletingLastPathComponent().appendingPathComponent("\(world.home.lastPathComponent)-opened")
            defer { try? FileManager.default.removeItem(at: opened) }
            try await world.addAccount()
            try await world.startDaemon(["--open-command", "printf '%s' \"$1\" > '\(opened.path)'", "--reconnect-max-seconds", "2"])
            try world.deliver(EndToEndWorld.message("Click me"))
            let id = try #require(try await world.waitForNotification(mentioning: "Click me")["id"] as? Int)
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Click me" })

            try await world.notifications.emitAction(id: UInt32(id), key: "default")
            try await world.eventually("the open command ran") { (try? String(contentsOf: opened, encoding: .utf8)) == thread.id }
            try await world.notifications.waitForEvent { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id }
            try await world.eventually("opened: read on the server") {
                try await world.otherClient.messages(in: "INBOX").first { $0.subject == "Click me" }?.flags.contains("\\Seen") == true
            }

            try world.deliver(EndToEndWorld.message("Archive me"))
            let archive = try #require(try await world.waitForNotification(mentioning: "Archive me")["id"] as? Int)
            try await world.dovecot.stop()
            try await world.notifications.emitAction(id: UInt32(archive), key: "ARCHIVE_ACTION")
            // Done here at once (Core's PendingChanges, as in the tool and the web app): the
            // notification goes, the conversation leaves the inbox; the server has not seen it yet.
            try await world.notifications.waitForEvent(timeout: .seconds(90)) {
                $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == archive
            }
            #expect(try await !world.inboxThreads().contains { $0.subject == "Archive me" }, "archived here at once")
            #expect(!world.notifications.calls("Notify").contains { ($0["summary"] as? String)?.contains("could not archive") == true })

            try await world.dovecot.restart()
            try await world.eventually("archived on the server once it is back", timeout: .seconds(90)) {
                try await world.otherClient.messages(in: "Archive").map(\.subject) == ["Archive me"]
            }
            #expect(try await world.otherClient.messages(in: "INBOX").map(\.subject) == ["Click me"])
        }
    }

    @Test("AC-N-20 / E-12 / NOTIF-06e: after a daemon restart, a click on a notification the earlier daemon posted opens its conversation")
    func clickAfterRestart() async throws {
        try await EndToEndWorld.with { world in
            let opened = world.home.deletingLastPathComponent().appendingPathComponent("\(world.home.lastPathComponent)-opened")
            defer { try? FileManager.default.removeItem(at: opened) }
            let options = ["--open-command", "printf '%s' \"$1\" > '\(opened.path)'"]
            try await world.addAccount()
            try await world.startDaemon(options)
            try world.deliver(EndToEndWorld.message("Before the restart"))
            let id = try #require(try await world.waitForNotification(mentioning: "Before the restart")["id"] as? Int)
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Before the restart" })
            #expect(try await world.stopDaemon().status == 0)

            // A new daemon: the notification is still on screen, its id from the process before.
            try await world.startDaemon(options)
            try await world.notifications.emitAction(id: UInt32(id), key: "default")
            try await world.eventually("the open command ran for its conversation") { (try? String(contentsOf: opened, encoding: .utf8)) == thread.id }
            try await world.notifications.waitForEvent { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id }
            try await world.eventually("opened: read on the server") {
                try await world.otherClient.messages(in: "INBOX").first { $0.subject == "Before the restart" }?.flags.contains("\\Seen") == true
            }
            try await world.waitForBadge(0)
        }
    }
}
