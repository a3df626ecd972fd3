import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 28's contract for writing mail: the same reply, reply-all and forward, and the same
/// over-size message, through the `vaultmail` tool and through the web app in Chromium, with
/// the same outcome on the real SMTP server (both doors ask Core's `Compose`).
@Suite("Contract: answers, forwards and the size limit, the same through the tool and the web app (issue 28)", .serialized)
struct ComposeContractTests {
    static let originalId = "<team-sync@example.org>"

    /// What the SMTP server received, as far as it must be the same whichever door it left by.
    struct Outcome: Equatable, CustomStringConvertible {
        var envelope: Set<String>
        var subject: String?
        var to: [String]
        var cc: [String]
        var inReplyTo: String?
        var references: [String]
        var text: String

        init(_ received: SMTPTestServer.ReceivedMessage) throws {
            let message = try PythonEmailParser.parse(received.raw)
            envelope = Set(received.recipients)
            subject = message.subject
            to = message.to.map(\.email)
            cc = message.cc.map(\.email)
            inReplyTo = message.inReplyTo
            references = (message.references ?? "").split(separator: " ").map(String.init)
            text = (message.text ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        }

        var description: String {
            "\(subject ?? "-") to \(to) cc \(cc) (envelope \(envelope.sorted())), In-Reply-To \(inReplyTo ?? "-"), References \(references): \(text.debugDescription)"
        }
    }

    /// The three answers, with the text typed for each and, for the forward, its recipient.
    static let answers: [(kind: String, typed: String, to: String?)] = [
        ("reply", "Thursday works for me.", nil),
        ("reply-all", "Thursday works for all of us.", nil),
        ("forward", "For your calendar.", "alan@example.org"),
    ]

    @Test("Reply, reply all and forward of one message: the tool and the web app send the same recipients, subject, threading headers, attribution and quote")
    func answersAreTheSame() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message(
                "Team sync", messageId: Self.originalId,
                headers: ["Cc: Alan Turing <alan@example.org>, Ada <\(EndToEndWorld.address)>, linus@example.net", "References: <kickoff@example.org>"],
                body: "Shall we meet on Thursday?\n\n> Agenda as last week."))
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Team sync" })
            let shown = try ToolJSON.object(try await world.vaultmail(["show", thread.id, "--json"], errors: false).text)
            let emailId = try #require((shown["emails"] as? [[String: Any]])?.first?["id"] as? String)

            // Through the tool.
            var tool: [Outcome] = []
            for (index, answer) in Self.answers.enumerated() {
                let options = answer.kind == "forward" ? ["--forward", emailId, "--to", answer.to ?? ""]
                    : ["--reply-to", emailId] + (answer.kind == "reply-all" ? ["--reply-all"] : [])
                let sent = try await world.vaultmail(["send", "--account", "work"] + options, input: answer.typed + "\n")
                #expect(sent.status == 0, "\(answer.kind): \(sent.text)")
                tool.append(try Outcome(try await world.smtp.waitForMessages(count: index + 1)[index]))
            }

            // Through the web app: the answer links of that message, the text typed above the quote.
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            var web: [Outcome] = []
            for (index, answer) in Self.answers.enumerated() {
                try await world.openRow(browser, containing: "Team sync")
                try await browser.js("""
                    Array.from(document.querySelectorAll('a[data-compose-message="' + arguments[0] + '"]'))
                        .find(a => new URL(a.href).searchParams.get('email') === arguments[1]).click()
                    """, [answer.kind, emailId])
                try await WebAppComposeTests.waitForComposerInPlace(browser)
                if let to = answer.to {
                    try await browser.click("#to")
                    try await browser.keys([to, ","])
                }
                try await WebAppComposeTests.writeAndSend(browser, answer.typed)
                web.append(try Outcome(try await world.smtp.waitForMessages(count: Self.answers.count + index + 1)[Self.answers.count + index]))
            }

            for (index, answer) in Self.answers.enumerated() {
                #expect(tool[index] == web[index], "\(answer.kind):\n tool: \(tool[index])\n web:  \(web[index])")
            }
            // And what they are.
            let attribution = "Grace Hopper <grace@example.org> wrote:\n> Shall we meet on Thursday?\n>\n>> Agenda as last week.\n"
            let (reply, all, forward) = (tool[0], tool[1], tool[2])
            #expect(reply.envelope == ["grace@example.org"] && reply.to == ["grace@example.org"] && reply.cc.isEmpty)
            #expect(reply.subject == "Re: Team sync")
            #expect(reply.inReplyTo == Self.originalId && reply.references == ["<kickoff@example.org>", Self.originalId])
            #expect(reply.text.hasPrefix("Thursday works for me.\n\nOn ") && reply.text.hasSuffix(attribution), "\(reply.text)")
            #expect(all.envelope == ["grace@example.org", "alan@example.org", "linus@example.net"], "never the user: \(all.envelope)")
            #expect(all.to == ["grace@example.org"] && all.cc == ["alan@example.org", "linus@example.net"])
            #expect(all.subject == "Re: Team sync" && all.inReplyTo == Self.originalId)
            #expect(all.text.hasPrefix("Thursday works for all of us.\n\nOn ") && all.text.hasSuffix(attribution), "\(all.text)")
            #expect(forward.envelope == ["alan@example.org"] && forward.subject == "Fwd: Team sync" && forward.inReplyTo == nil)
            #expect(forward.text.hasPrefix("For your calendar.\n\n---------- Forwarded message ----------\nFrom: Grace Hopper <grace@example.org>\n"),
                    "\(forward.text)")
            #expect(forward.text.contains("Subject: Team sync\n") && forward.text.contains("Shall we meet on Thursday?"))
        }
    }

    /// Bytes that pass the composer's own check as the file is added (a third more in base64
    /// stays under 64 MiB) but make the message larger than the server's SIZE once encoded.
    static let bigFile = 49_800_000
    /// The SMTP test server's SIZE (aiosmtpd's data_size_limit).
    static let serverLimit = 64 << 20

    @Test("Size limit: a message larger than the server accepts is refused by the tool and by the web app in the same words, and nothing is sent")
    func sizeLimit() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            let advice = "the server accepts at most \(ByteSize.string(Self.serverLimit)). Remove an attachment or share it another way."

            // The tool: refused before anything is saved, with the limit and what to do.
            let file = world.home.appendingPathComponent("big.bin")
            try Data(count: Self.bigFile).write(to: file)
            let refused = try await world.vaultmail(
                ["send", "--account", "work", "--to", "alan@example.org", "--subject", "Big file", "--attach", file.path], input: "Here it is.\n")
            #expect(refused.status == 1, "\(refused.text)")
            #expect(refused.text.contains("error: not sent: with its attachments the message is about "), "\(refused.text)")
            #expect(refused.text.contains(advice), "\(refused.text)")
            #expect(try await world.vaultmail(["drafts"]).text.contains("No drafts."))
            try FileManager.default.removeItem(at: file)

            // The web app: the composer takes the file, Send is refused with the same words.
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await WebAppComposeTests.newMessage(browser, to: "alan@example.org", subject: "Big file", body: "Here it is.")
            try await browser.js("""
                const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array(arguments[0])], 'big.bin', { type: 'application/octet-stream' }));
                const input = document.querySelector('#attach'); input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true }));
                """, [Self.bigFile])
            try await browser.wait("return document.querySelector('#attachment-list').textContent.includes('big.bin')", timeout: 120)
            try await browser.keys(["CTRL+ENTER"])
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Not sent: with its attachments')", timeout: 60)
            let toast = try await browser.string("return document.querySelector('#toasts').textContent")
            #expect(toast.contains(advice), "\(toast)")
            #expect(try await browser.string("return location.pathname") == "/compose", "the message stays in the composer")
            try await Task.sleep(for: .seconds(2))
            #expect(world.smtp.messages.isEmpty, "the SMTP server received \(world.smtp.messages.count) messages")
        }
    }
}
