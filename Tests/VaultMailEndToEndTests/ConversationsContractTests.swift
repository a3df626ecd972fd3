import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 28's contract for reading mail: opening a conversation through the `vaultmail` tool
/// and through the web app in Chromium does the same (both ask Core's `Conversations`) —
/// the same reading order, marked read on the real IMAP server, and its desktop notification
/// withdrawn from the real notification server.
@Suite("Contract: opening a conversation is the same through the tool and the web app (issue 28)", .serialized)
struct ConversationsContractTests {
    /// A conversation of two messages, the answer delivered first (it arrives first), each
    /// naming `name` in its subject.
    static func conversation(_ name: String, in world: EndToEndWorld) throws {
        let root = "<\(name.lowercased())-1@example.org>"
        try world.deliver(EndToEndWorld.message("Re: \(name) plan", from: "Alan Turing <alan@example.org>",
                                                headers: ["In-Reply-To: \(root)", "References: \(root)"],
                                                body: "Looks good to me.", written: Date().addingTimeInterval(-60)))
        try world.deliver(EndToEndWorld.message("\(name) plan", from: "Grace Hopper <grace@example.org>", messageId: root,
                                                body: "Here is the plan.", written: Date().addingTimeInterval(-120)))
    }

    /// The subjects of `name`'s conversation all carry \Seen on the server.
    static func readOnServer(_ name: String, _ world: EndToEndWorld) async throws -> Bool {
        let messages = try await world.otherClient.messages(in: "INBOX").filter { $0.subject.contains("\(name) plan") }
        return messages.count == 2 && messages.allSatisfy { $0.flags.contains("\\Seen") }
    }

    @Test("Opening through the tool and through the web app: the same order, read on the server, the notification withdrawn")
    func openingIsTheSame() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            try Self.conversation("Tool", in: world)
            try Self.conversation("Web", in: world)
            var notified: [String: Int] = [:]
            for name in ["Tool", "Web"] {
                notified[name] = try #require(try await world.waitForNotification(mentioning: "\(name) plan")["id"] as? Int)
                for subject in ["\(name) plan", "Re: \(name) plan"] { _ = try await world.decision(about: subject) }
            }
            let (toolNotification, webNotification) = (notified["Tool"], notified["Web"])
            let threads = try await world.inboxThreads()
            let tool = try #require(threads.first { $0.subject.contains("Tool plan") })
            #expect(threads.contains { $0.subject.contains("Web plan") })

            // Through the tool.
            let shown = try await world.vaultmail(["show", tool.id])
            #expect(shown.status == 0, "\(shown.text)")
            // "●  From: Grace Hopper <grace@example.org>": the sender's name.
            let toolOrder = shown.text.split(separator: "\n").compactMap { line -> String? in
                guard let from = line.range(of: "From: ") else { return nil }
                return String(line[from.upperBound...].prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
            }
            try await world.eventually("the tool's conversation read on the server") { try await Self.readOnServer("Tool", world) }
            try await world.notifications.waitForEvent { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == toolNotification }

            // Through the web app.
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await world.openRow(browser, containing: "Web plan")
            try await world.eventually("the web app's conversation read on the server") { try await Self.readOnServer("Web", world) }
            try await world.notifications.waitForEvent { $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == webNotification }

            // The same conversation in the same order: the one the tool opened, as the web app
            // shows it (its two messages may have arrived in the same second: then the written
            // order decides, in both), and as `show --json` (a look-up) lists it.
            try await world.openRow(browser, containing: "Tool plan")
            let webOrder = try await browser.js(
                "return Array.from(document.querySelectorAll('#conversation .message .from')).map(f => f.textContent)") as? [String] ?? []
            #expect(toolOrder.count == 2 && toolOrder == webOrder, "tool: \(toolOrder), web: \(webOrder)")
            struct Shown: Decodable {
                struct Person: Decodable { var name: String? }
                struct Message: Decodable { var from: Person }
                var emails: [Message]
            }
            let looked = try ToolJSON.decode(Shown.self, from: try await world.vaultmail(["show", tool.id, "--json"], errors: false).text)
            #expect(looked.emails.map(\.from.name) == webOrder, "show --json: \(looked.emails.map(\.from.name))")
            try await world.waitForBadge(0)
        }
    }
}
