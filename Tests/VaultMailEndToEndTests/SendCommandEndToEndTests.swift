import Foundation
import Testing
import VaultMailTesting

/// `vaultmail send`'s answers and forwards, Bcc, and `drafts`, through the built tool against
/// Dovecot and the SMTP test server (issue 13's command-line parity).
@Suite("vaultmail send and drafts end to end (issue 13)", .serialized)
struct SendCommandEndToEndTests {
    @Test("send --reply-to --reply-all Cc's the others; --forward carries the attachments of every message of the conversation (issue 29); --bcc names no one; drafts lists a draft")
    func answersAndForwards() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message(
                "Team sync", headers: ["Cc: Alan Turing <alan@example.org>, Ada <\(EndToEndWorld.address)>"], body: "Thursday?"))
            try world.deliver(EndToEndWorld.planReply())
            try world.deliver(WebAppInPlaceTests.minutes())  // the next message of the plan, with minutes.txt
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)
            let emailId = { (subject: String) async throws -> String in
                let thread = try #require(try await world.inboxThreads().first { $0.subject == subject })
                let shown = try await world.vaultmail(["show", thread.id, "--json"], errors: false)
                let json = try ToolJSON.object(shown.text)
                return try #require((json["emails"] as? [[String: Any]])?.last?["id"] as? String)
            }

            let replied = try await world.vaultmail(["send", "--account", "work", "--reply-to", try await emailId("Team sync"), "--reply-all",
                                                     "--bcc", "boss@example.com"], input: "Thursday works.\n")
            #expect(replied.status == 0, "\(replied.text)")
            let reply = try await world.smtp.waitForMessages(count: 1)[0]
            #expect(Set(reply.recipients) == ["grace@example.org", "alan@example.org", "boss@example.com"])
            let parsed = try PythonEmailParser.parse(reply.raw)
            #expect(parsed.subject == "Re: Team sync" && parsed.cc.map(\.email) == ["alan@example.org"] && !parsed.hasBcc)

            let forwarded = try await world.vaultmail(["send", "--account", "work", "--forward", try await emailId("Re: Quarterly plan"),
                                                       "--to", "alan@example.org"], input: "FYI\n")
            #expect(forwarded.status == 0, "\(forwarded.text)")
            let forward = try PythonEmailParser.parse(try await world.smtp.waitForMessages(count: 2)[1].raw)
            #expect(forward.subject == "Fwd: Re: Quarterly plan")
            // The latest message is Alan's minutes: the forward carries its file and the plan before it.
            #expect(forward.attachments.map(\.filename) == ["plan.pdf", "minutes.txt"])
            #expect(forward.text?.hasPrefix("FYI\n") == true && forward.text?.contains("From: Alan Turing <alan@example.org>") == true)

            #expect(try await world.vaultmail(["drafts"]).text.contains("No drafts."))
            let usage = try await world.vaultmail(["send", "--account", "work", "--to", "a@example.org", "--reply-all"], input: "x")
            #expect(usage.status == 2 && usage.text.contains("--reply-all"), "\(usage.text)")
        }
    }

    @Test("Issue 34: a send refused for good (554) says so and that nothing retries it; one whose fate is unknown says it may have gone and is never resent")
    func refusedAndUnknownSends() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.smtp.setDataReply("554 5.7.1 Message refused as spam")
            let refused = try await world.vaultmail(["send", "--account", "work", "--to", "alan@example.org", "--subject", "Refused"], input: "Hi\n")
            #expect(refused.status != 0)
            #expect(refused.text.contains("Not sent:") && refused.text.contains("554") && refused.text.contains("won't try again by itself")
                && refused.text.contains("vaultmail outbox --retry"), "\(refused.text)")
            #expect(!refused.text.contains("retries it") && !refused.text.contains("retried automatically"), "\(refused.text)")
            let outbox = try await world.vaultmail(["outbox"])
            #expect(outbox.text.contains("failed") && outbox.text.contains("Refused"), "\(outbox.text)")
            // The test server's record of what it refused (the soak reads it to tell its own 554 from a defect).
            #expect(world.smtp.refusals.map(\.subject) == ["Refused"] && world.smtp.refusals.first?.reply.hasPrefix("554") == true)

            try await world.smtp.hangUpAfterData()
            let unknown = try await world.vaultmail(["send", "--account", "work", "--to", "alan@example.org", "--subject", "Unknown fate"], input: "Hi\n")
            #expect(unknown.status != 0)
            #expect(unknown.text.contains("Maybe sent:") && unknown.text.contains("may have been delivered")
                && unknown.text.contains("won't send it again by itself") && unknown.text.contains("vaultmail outbox --retry"), "\(unknown.text)")
            #expect(!unknown.text.contains("retries it"), "\(unknown.text)")
            #expect(try await world.smtp.waitForMessages(count: 1).count == 1, "the server kept it once")

            // Nothing sends either again by itself: a daemon started now leaves both in the Outbox, failed.
            try await world.smtp.setDataReply(nil)
            try await world.startDaemon()
            let listed = try await world.vaultmail(["outbox"])
            #expect(listed.text.components(separatedBy: "failed").count - 1 == 2, "\(listed.text)")
            try await world.smtp.settle(timeout: .seconds(3)) { $0.messages.count > 1 }
            #expect(world.smtp.messages.count == 1, "never sent again by itself")
        }
    }

    @Test("Issue 33: send --at: bad times refused with what to do; a scheduled message is listed with its time and cancelled to a draft; the daemon sends at the time once, also when killed (SIGKILL) just before it and started after it, and when killed right after sending")
    func sendLater() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            func send(_ subject: String, at: String) async throws -> EndToEndWorld.Output {
                try await world.vaultmail(["send", "--account", "work", "--to", "alan@example.org", "--subject", subject, "--at", at], input: "Hi\n")
            }
            let past = try await send("Past", at: "2020-01-01 09:00")
            #expect(past.status != 0 && past.text.contains("has passed"), "\(past.text)")
            let unreadable = try await send("Unreadable", at: "soonish")
            #expect(unreadable.status != 0 && unreadable.text.contains("2026-12-01 09:00"), "\(unreadable.text)")
            #expect(try await world.vaultmail(["outbox"]).text.contains("The outbox is empty."))

            // Cancelled before its time: a draft again, never sent.
            let cancelled = try await send("Cancelled", at: SnoozeEndToEndTests.iso(Date().addingTimeInterval(3600).rounded()))
            #expect(cancelled.status == 0 && cancelled.text.contains("Scheduled") && cancelled.text.contains("outbox --cancel"), "\(cancelled.text)")
            let listed = try await world.vaultmail(["outbox"])
            let line = try #require(listed.text.split(separator: "\n").first { $0.contains("Cancelled") }, "\(listed.text)")
            #expect(line.hasPrefix("queued") && line.contains(" at "), "\(line)")
            let short = try #require(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first)
            let cancel = try await world.vaultmail(["outbox", "--cancel", String(short)])
            #expect(cancel.status == 0, "\(cancel.text)")
            #expect(try await world.vaultmail(["drafts"]).text.contains("Cancelled"))

            // Killed just before its time, started again after it: sent once.
            try await world.startDaemon()
            let soon = Date().addingTimeInterval(10).rounded()
            let scheduled = try await send("Killed before its time", at: SnoozeEndToEndTests.iso(soon))
            #expect(scheduled.status == 0, "\(scheduled.text)")
            try await world.eventually("two seconds before its time") { Date() >= soon.addingTimeInterval(-2) }
            try await world.killDaemon()
            #expect(world.smtp.messages.isEmpty, "sent before its time")
            try await world.eventually("its time") { Date() > soon }
            try await world.startDaemon()
            let arrived = try await world.smtp.waitForMessages(count: 1)
            #expect(String(decoding: try #require(arrived.first).raw, as: UTF8.self).contains("Subject: Killed before its time"))
            // Killed right after it went, started again: nothing is sent twice; it is filed in Sent.
            try await world.killDaemon()
            try await world.startDaemon()
            try await world.eventually("the copy in Sent") {
                try await world.otherClient.messages(in: "Sent").contains { $0.subject == "Killed before its time" }
            }
            try await world.smtp.settle(timeout: .seconds(3)) { $0.messages.count > 1 }
            #expect(world.smtp.messages.count == 1, "sent once")
            #expect(try await world.otherClient.messages(in: "Sent").filter { $0.subject == "Killed before its time" }.count == 1)
            #expect(try await world.vaultmail(["outbox"]).text.contains("The outbox is empty."))
        }
    }
}
