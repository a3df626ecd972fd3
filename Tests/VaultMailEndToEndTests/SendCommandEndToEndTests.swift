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
}
