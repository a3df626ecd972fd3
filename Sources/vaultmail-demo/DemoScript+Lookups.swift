import Foundation
import VaultMailTesting

/// What the demo asks `vaultmail` and Dovecot, and waits for.
extension DemoScript {
    /// Runs `vaultmail ARGUMENTS`, showing the command and what it printed.
    @discardableResult
    func vaultmail(_ tool: VaultMailTool, _ arguments: [String]) async throws -> String {
        say.write("   $ vaultmail " + VaultMailTool.display(arguments))
        let output = try await tool.run(arguments)
        say.quote(output)
        return output
    }

    /// The engine's decisions, newest first (`vaultmail notify log --json`).
    func decisions(_ tool: VaultMailTool) async throws -> [VaultMailJSON.Decision] {
        let arguments = ["notify", "log", "--json", "--limit", "200"]
        let output = try await tool.run(arguments)
        return try VaultMailJSON.decode([VaultMailJSON.Decision].self, from: output, command: arguments.joined(separator: " "))
    }

    /// Waits until the engine has decided about a new email with `subject`.
    func waitForDecision(_ tool: VaultMailTool, subject: String, excluding known: Set<String>,
                                 timeout: Duration = .seconds(60)) async throws -> VaultMailJSON.Decision {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = try await decisions(tool).first(where: { $0.subject == subject && !known.contains($0.emailId) }) {
                return found
            }
            guard ContinuousClock.now < deadline else {
                let log = world.daemon?.logLines.suffix(20).joined(separator: "\n") ?? ""
                throw DemoFailure("the daemon made no decision about \"\(subject)\" within \(timeout); its log ends:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func thread(_ tool: VaultMailTool, subject: String) async throws -> VaultMailJSON.Thread {
        let arguments = ["threads", "--json", "--limit", "100"]
        let page = try VaultMailJSON.decode(VaultMailJSON.ThreadPage.self, from: try await tool.run(arguments),
                                            command: arguments.joined(separator: " "))
        guard let found = page.threads.first(where: { Self.baseSubject($0.subject) == Self.baseSubject(subject) }) else {
            throw DemoFailure("`vaultmail threads` lists no conversation \"\(subject)\"; it has: \(page.threads.map(\.subject))")
        }
        return found
    }

    func email(_ tool: VaultMailTool, subject: String) async throws -> VaultMailJSON.Email {
        let thread = try await thread(tool, subject: subject)
        let arguments = ["show", thread.id, "--json"]
        let conversation = try VaultMailJSON.decode(VaultMailJSON.Conversation.self, from: try await tool.run(arguments),
                                                    command: arguments.joined(separator: " "))
        guard let first = conversation.emails.first else { throw DemoFailure("`vaultmail show \(thread.id)` shows no email") }
        return first
    }

    /// Waits until Dovecot's flags for `message` contain `flag`, and returns `doveadm`'s answer.
    func waitForFlags(of message: SampleMessage, on dovecot: DovecotServer, containing flag: String,
                              timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let flags = try dovecot.doveadm(["fetch", "-u", user, "flags", "mailbox", "INBOX", "header", "Message-ID", message.messageId])
            if flags.contains(flag) { return flags }
            guard ContinuousClock.now < deadline else {
                throw DemoFailure("Dovecot's flags for \"\(message.subject)\" still lack \(flag) after \(timeout): \(flags)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The subject without "Re:" prefixes (a thread is named after its first message).
    static func baseSubject(_ subject: String) -> String {
        var text = subject.trimmingCharacters(in: .whitespaces)
        while text.lowercased().hasPrefix("re:") { text = String(text.dropFirst(3)).trimmingCharacters(in: .whitespaces) }
        return text
    }

    /// The short id `vaultmail` lists (any unique prefix is accepted).
    static func short(_ id: String) -> String { String(id.prefix(10)) }

    /// `names` headers of a raw message, as "Name: value" lines, in that order.
    static func headers(of raw: Data, _ names: [String]) -> [String] {
        let text = String(decoding: raw, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? text
        // Unfold continuation lines first.
        let lines = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
            .components(separatedBy: "\r\n")
        return names.compactMap { name in
            lines.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        }
    }
}
