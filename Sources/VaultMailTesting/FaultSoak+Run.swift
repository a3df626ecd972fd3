import Foundation
import VaultMailCore

extension FaultSoak {
    /// What the tool was asked to do to one of its messages, and whether it said it did.
    enum Action: String, CaseIterable {
        case read, unread, star, unstar, archive, delete
    }

    /// Where a `Tool …` message should be, and with which flags, after what the tool reported done.
    struct Expected {
        var subject: String
        var seen = false
        var flagged = false
        var place = "inbox"
        /// A tool run on it was killed: what happened is not known, so nothing is checked.
        var unknown = false
    }

    /// One `vaultmail send`.
    struct Send {
        var subject: String
        var status: Int32?
        var text: String
        var killed = false
    }

    /// One soak: the schedule and what was recorded.
    final class Run: @unchecked Sendable {
        // @unchecked: used by one task only.
        let soak: FaultSoak
        let world: World
        /// The activities' choices (which also depend on what has synced, so on timing).
        var random: SplitMix64
        /// The faults' schedule alone: the same seed, the same faults in the same order.
        var schedule: SplitMix64
        var counter = 0
        var expected: [String: Expected] = [:]  // by Message-ID, without angle brackets
        var others: [String] = []
        var sends: [Send] = []
        var faults: [Fault: Int] = [:]
        var activity: [String: Int] = [:]
        var toolProblems: [String] = []

        init(soak: FaultSoak, world: World) {
            self.soak = soak
            self.world = world
            random = SplitMix64(seed: soak.seed ^ 0x5EED_AC71_0000_0000)
            schedule = SplitMix64(seed: soak.seed)
        }

        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        func milliseconds(_ range: ClosedRange<Int>) -> Duration { .milliseconds(range.lowerBound + pick(range.count)) }
        func count(_ what: String) { activity[what, default: 0] += 1 }

        func go() async throws -> Report {
            let start = ContinuousClock.now
            for _ in 0..<6 { try deliver(tool: true) }
            for _ in 0..<4 { try deliver(tool: false) }
            let added = try await world.vaultmail([
                "account", "add", "work", "--email", "\(user)@localhost", "--imap", "127.0.0.1:\(world.dovecot.imapsPort)",
                "--smtp", "127.0.0.1:\(world.smtp.tlsPort)", "--security", "tls", "--ca-file", world.dovecot.caFile, "--user", user,
                "--password-command", "echo \(password)",
            ])
            guard added.status == 0 else { throw Failure(description: "account add failed: \(added.text)") }
            try world.startDaemon()
            try await world.daemon!.waitForOutput("IDLE on the inbox", timeout: .seconds(90))

            for step in 0..<soak.faults {
                let fault = Fault.allCases[Int(schedule.next() % UInt64(Fault.allCases.count))]
                faults[fault, default: 0] += 1
                soak.log("step \(step + 1)/\(soak.faults): \(fault.rawValue)")
                try await inject(fault)
            }
            soak.log("faults off; settling")
            let invariants = try await settleAndCheck()
            return Report(seed: soak.seed, faults: faults, invariants: invariants, activity: activity,
                          seconds: (ContinuousClock.now - start) / .seconds(1))
        }

        // MARK: Faults

        func inject(_ fault: Fault) async throws {
            switch fault {
            case .killDaemon:
                try await someActivity()
                try await world.killDaemon()
                try await someActivity()
            case .killTool:
                try await killedToolAction()
            case .stopDaemon:
                world.daemon?.signal(SIGSTOP)
                try await someActivity()
                try await Task.sleep(for: milliseconds(100...1500))
                world.daemon?.signal(SIGCONT)
            case .killDovecot:
                world.dovecot.kill()
                try await someActivity()
                try await Task.sleep(for: milliseconds(0...1000))
                try await world.dovecot.restart()
            case .smtpTemporary:
                try await world.smtp.setDataReply("451 4.3.0 Try again later")
                try await send()
                try await world.smtp.setDataReply(nil)
            case .smtpPermanent:
                try await world.smtp.setDataReply("554 5.7.1 Refused by the soak's policy")
                try await send()
                try await world.smtp.setDataReply(nil)
            case .smtpGone:
                world.smtp.stop()
                try await send()
                try await world.smtp.restart()
            case .diskFull:
                try world.disk.fill()
                try await toolAction()
                try await someActivity()
                world.disk.free()
            }
            try await someActivity()
        }

        /// One or two of: mail arriving, the other client at work, the tool acting, a send.
        func someActivity() async throws {
            for _ in 0..<(1 + pick(2)) {
                switch pick(5) {
                case 0: try deliver(tool: true)
                case 1: try deliver(tool: false)
                case 2: try otherClient()
                case 3: try await toolAction()
                default: try await send()
                }
            }
        }

        // MARK: Activities

        func deliver(tool: Bool) throws {
            counter += 1
            let subject = "\(tool ? "Tool" : "Other") \(counter) (soak \(soak.seed))"
            let id = "soak-\(soak.seed)-\(counter)@example.org"
            let message = TestMessage(from: "Grace Hopper <grace@example.org>", to: "Ada <\(user)@localhost>", subject: subject,
                                      timeZone: .gmt, messageId: "<\(id)>", body: "Message \(counter) of the soak.").data
            let mailbox = !tool && pick(3) == 0 ? "Lists" : "INBOX"
            if mailbox == "Lists" { _ = try? world.dovecot.doveadm(["mailbox", "create", "-u", user, "Lists"]) }
            // While Dovecot is down its delivery agent cannot look the user up: nothing arrives then.
            guard (try? world.dovecot.deliver(message, to: user, mailbox: mailbox)) != nil else { return }
            if tool { expected[id] = Expected(subject: subject) } else { others.append(id) }
            count("messages delivered")
        }

        /// doveadm as the other client: a flag set or cleared, a move, an expunge.
        func otherClient() throws {
            guard !others.isEmpty else { return }
            let id = others[pick(others.count)]
            let query = ["mailbox", "*", "header", "Message-ID", id]
            _ = try? world.dovecot.doveadm(["mailbox", "create", "-u", user, "Lists"])
            // While Dovecot is down the other client cannot change anything either.
            switch pick(5) {
            case 0: guard (try? world.dovecot.doveadm(["flags", "add", "-u", user, "\\Flagged"] + query)) != nil else { return }
            case 1: guard (try? world.dovecot.doveadm(["flags", "remove", "-u", user, "\\Flagged"] + query)) != nil else { return }
            case 2: guard (try? world.dovecot.doveadm(["flags", "add", "-u", user, "\\Seen"] + query)) != nil else { return }
            case 3: guard (try? world.dovecot.doveadm(["move", "-u", user, "Lists"] + query)) != nil else { return }
            default:
                guard (try? world.dovecot.doveadm(["expunge", "-u", user] + query)) != nil else { return }
                others.removeAll { $0 == id }
            }
            count("other client's changes")
        }

        /// A `Tool …` message the tool may act on: in the inbox, its state known, synced.
        func toolTarget() throws -> (id: String, thread: String)? {
            let candidates = expected.filter { !$0.value.unknown && $0.value.place == "inbox" }.keys.sorted()
            guard !candidates.isEmpty else { return nil }
            let id = candidates[pick(candidates.count)]
            guard let thread = try world.sql("SELECT threadId FROM email WHERE messageId IN ('\(id)', '<\(id)>') LIMIT 1").first?.first else {
                return nil
            }
            return (id, thread)
        }

        func toolAction() async throws {
            guard let (id, thread) = try toolTarget() else { return }
            let action = Action.allCases[pick(Action.allCases.count)]
            let result = try await world.vaultmail([action.rawValue, thread])
            count("tool actions")
            if result.signalled { toolProblems.append("`\(action.rawValue)` ended by a signal nobody sent: \(result.text)") }
            if result.text.contains("Fatal error") { toolProblems.append("`\(action.rawValue)` crashed: \(result.text)") }
            guard result.status == 0 else {
                count("tool actions reported failed")
                if result.status != 1 || result.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    toolProblems.append("`\(action.rawValue)` exited \(result.status) without saying why plainly: \(result.text)")
                }
                return
            }
            switch action {
            case .read: expected[id]?.seen = true
            case .unread: expected[id]?.seen = false
            case .star: expected[id]?.flagged = true
            case .unstar: expected[id]?.flagged = false
            case .archive: expected[id]?.place = "archive"
            case .delete: expected[id]?.place = "trash"
            }
        }

        /// A tool action SIGKILLed after a random moment: what it did is not known.
        func killedToolAction() async throws {
            guard let (id, thread) = try toolTarget() else { return try await someActivity() }
            let action = Action.allCases[pick(Action.allCases.count)]
            let process = try ChildProcess(world.tool, [action.rawValue, thread], environment: world.environment)
            try await Task.sleep(for: milliseconds(0...400))
            process.signal(SIGKILL)
            _ = ChildProcess.waitForExit(process.processIdentifier, seconds: 10)
            expected[id]?.unknown = true
            count("tool actions killed")
        }

        func send() async throws {
            counter += 1
            let subject = "Send \(counter) (soak \(soak.seed))"
            let killed = pick(4) == 0
            if killed {
                let process = try ChildProcess(world.tool, ["send", "--account", "work", "--to", "alan@example.org", "--subject", subject],
                                               environment: world.environment)
                try process.send("Sent by the soak.")
                try process.closeInput()
                try await Task.sleep(for: milliseconds(0...600))
                process.signal(SIGKILL)
                _ = ChildProcess.waitForExit(process.processIdentifier, seconds: 10)
                sends.append(Send(subject: subject, status: nil, text: "", killed: true))
                count("sends killed")
                return
            }
            let result = try await world.vaultmail(["send", "--account", "work", "--to", "alan@example.org", "--subject", subject],
                                                   input: "Sent by the soak.\n")
            if result.signalled || result.text.contains("Fatal error") { toolProblems.append("`send` crashed: \(result.text)") }
            sends.append(Send(subject: subject, status: result.status, text: result.text))
            count(result.status == 0 ? "sends reported sent or queued" : "sends reported not sent")
        }
    }
}

extension FaultSoak.Run {
    /// What a send's answer promises: exactly one arrival, none, or at most one.
    enum Promise { case once, never, atMostOnce }

    func promise(_ send: FaultSoak.Send) -> Promise {
        if send.killed || send.text.contains("Maybe sent") { return .atMostOnce }
        if send.status == 0 || send.text.contains("sends it by itself") { return .once }
        if send.text.contains("Not sent:") { return .never }
        return .atMostOnce
    }

    /// Faults off: the servers up, the daemon running; then waits (up to five minutes) until
    /// the invariants that take time hold, and checks them all.
    func settleAndCheck() async throws -> [FaultSoak.Invariant] {
        world.disk.free()
        try await world.smtp.setDataReply(nil)
        if !world.smtp.isRunning { try await world.smtp.restart() }
        if !world.dovecot.isRunning { try await world.dovecot.restart() }
        if let daemon = world.daemon {
            daemon.signal(SIGCONT)
            if !daemon.isRunning {
                world.endedDaemons.append((false, daemon.exitStatus, daemon.allOutput))
                try world.startDaemon()
            }
        }
        var invariants: [FaultSoak.Invariant] = []
        let start = ContinuousClock.now
        let deadline = start + .seconds(300)
        while true {
            // For 90 s a queued send must arrive (the daemon's first retry is 30 s away); after
            // that one still queued is waiting for a later retry, not lost.
            invariants = try check(acceptQueued: ContinuousClock.now > start + .seconds(90))
            let waitingFor = invariants.filter { !$0.holds && $0.name.hasPrefix("~") }
            if waitingFor.isEmpty || ContinuousClock.now > deadline { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        return invariants.map { FaultSoak.Invariant(name: $0.name.hasPrefix("~") ? String($0.name.dropFirst()) : $0.name, violations: $0.violations) }
    }

    /// The invariants as they are now; the names of those that may need time start with "~".
    /// `acceptQueued`: a send still queued for its next retry counts as kept, not lost.
    func check(acceptQueued: Bool) throws -> [FaultSoak.Invariant] {
        let server = try world.serverMessages()
        let folders = Dictionary(try world.sql("SELECT id, path FROM folder").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        let rows = try world.sql("""
            SELECT ef.folderId, IFNULL(ef.uid, -1), e.isRead, e.isStarred, e.messageId, e.isDraft = 0 AND e.sendState = 'none'
            FROM emailFolder ef JOIN email e ON e.id = ef.emailId
            """)
        struct Key: Hashable { var mailbox: String; var uid: Int }
        var stored: [Key: [(read: Bool, starred: Bool, messageId: String)]] = [:]
        var pending: [String] = []
        for row in rows {
            let mailbox = folders[row[0]] ?? "?"
            let uid = Int(row[1]) ?? -1
            // Drafts and outgoing mail kept here have no UID until the server has them.
            if uid < 0 && row[5] == "1" { pending.append("\(row[4]) in \(mailbox) without a UID") }
            stored[Key(mailbox: mailbox, uid: uid), default: []].append((row[2] == "1", row[3] == "1", row[4]))
        }
        let storedMailboxes = Set(folders.values)

        var everyOnce: [String] = []
        for message in server {
            guard storedMailboxes.contains(message.mailbox) else {
                everyOnce.append("\(message.messageId): mailbox \(message.mailbox) is not in the store")
                continue
            }
            let copies = stored[Key(mailbox: message.mailbox, uid: message.uid)] ?? []
            if copies.count != 1 {
                everyOnce.append("\(message.messageId) (\(message.mailbox) UID \(message.uid)): \(copies.count) copies in the store")
            } else if copies[0].read != message.flags.contains("\\Seen") || copies[0].starred != message.flags.contains("\\Flagged") {
                everyOnce.append("\(message.messageId) (\(message.mailbox) UID \(message.uid)): the store says read=\(copies[0].read) starred=\(copies[0].starred), the server \(message.flags.sorted())")
            }
        }
        let onServer = Set(server.map { Key(mailbox: $0.mailbox, uid: $0.uid) })
        let expunged = stored.keys.filter { $0.uid >= 0 && !onServer.contains($0) }
            .map { "\(stored[$0]!.map(\.messageId)) in \($0.mailbox) UID \($0.uid): not on the server" }

        // What the tool said it did is on the server (and what it said failed did not happen).
        var actions: [String] = []
        for (id, expectation) in expected where !expectation.unknown {
            let copies = server.filter { $0.messageId == "<\(id)>" || $0.messageId == id }
            let place = { (mailbox: String) -> String in
                let lower = mailbox.lowercased()
                return lower == "inbox" ? "inbox" : lower.contains("archive") ? "archive" : lower.contains("trash") || lower.contains("deleted") ? "trash" : mailbox
            }
            if expectation.place == "trash" {
                if copies.contains(where: { place($0.mailbox) != "trash" }) {
                    actions.append("\(expectation.subject): deleted, yet in \(copies.map(\.mailbox))")
                }
                continue
            }
            guard copies.count == 1, let copy = copies.first else {
                actions.append("\(expectation.subject): expected once in \(expectation.place), on the server \(copies.map(\.mailbox))")
                continue
            }
            if place(copy.mailbox) != expectation.place || copy.flags.contains("\\Seen") != expectation.seen
                || copy.flags.contains("\\Flagged") != expectation.flagged {
                actions.append("\(expectation.subject): expected \(expectation.place) seen=\(expectation.seen) flagged=\(expectation.flagged), the server has \(copy.mailbox) \(copy.flags.sorted())")
            }
        }

        // Sends: each accepted one arrived exactly once and is in Sent once; a refused one never.
        let received = world.smtp.messages.map { String(decoding: $0.raw, as: UTF8.self) }
        var sendViolations: [String] = []
        var waiting = 0
        var endings: [String: Int] = [:]
        for send in sends {
            let arrivals = received.filter { $0.contains("Subject: \(send.subject)\r\n") || $0.contains("Subject: \(send.subject)\n") }
            let ok: Bool
            switch promise(send) {
            case .once where arrivals.isEmpty:
                // Not lost while it still waits in the Outbox for the daemon's next retry: after
                // several 4xx or outages that retry is up to 30 minutes away (RetryBackoff).
                let row = try world.sql("""
                    SELECT e.sendState, IFNULL(replace(o.lastError, char(10), ' '), '') FROM email e
                    LEFT JOIN outgoing o ON o.emailId = e.id WHERE e.subject = '\(send.subject)'
                    """).first
                let state = row?.first ?? "(not in the store)"
                let reason = row.map { $0.count > 1 ? $0[1] : "" } ?? ""
                let refused = world.smtp.refusals.contains { $0.subject == send.subject && $0.reply.hasPrefix("5") }
                if acceptQueued && state == "queued" {
                    ok = true
                    waiting += 1
                } else if let ending = FaultSoak.rightEnding(ofQueuedSend: state, reason: reason, refusedForGood: refused) {
                    ok = true
                    endings[ending, default: 0] += 1
                } else {
                    ok = false
                    sendViolations.append("\(send.subject): \(state) in the store, \(refused ? "refused" : "never refused") by the server; kept reason: \(reason.prefix(300))")
                }
            case .once: ok = arrivals.count == 1
            case .never: ok = arrivals.isEmpty
            case .atMostOnce: ok = arrivals.count <= 1
            }
            if !ok { sendViolations.append("\(send.subject): arrived \(arrivals.count)× after \(send.killed ? "a SIGKILL" : "exit \(send.status ?? -1): \(send.text.prefix(200))")") }
            if let arrived = arrivals.first, let messageId = Self.header("Message-ID", in: arrived) {
                let inSent = server.filter { $0.messageId == messageId && $0.mailbox.lowercased().contains("sent") }.count
                if inSent != 1 { sendViolations.append("\(send.subject): \(inSent) copies in Sent") }
            }
        }

        // No notification twice.
        var announced: [String: Int] = [:]
        for call in world.notifications.calls("Notify") {
            let text = (call["summary"] as? String ?? "") + " " + (call["body"] as? String ?? "")
            for subject in expected.values.map(\.subject) where text.contains(subject) { announced[subject, default: 0] += 1 }
        }
        activity["notifications of soak mail"] = announced.values.reduce(0, +)
        activity["sends still queued for their next retry"] = waiting
        for ending in FaultSoak.queuedSendEndings { activity[ending] = endings[ending, default: 0] }
        activity["sends arrived"] = sends.filter { send in received.contains { $0.contains("Subject: \(send.subject)") } }.count
        let twice = announced.filter { $0.value > 1 }.map { "\($0.key): \($0.value) notifications" }.sorted()

        // No crash but the injected kills.
        var crashes = toolProblems
        for ended in world.endedDaemons where !ended.killed {
            crashes.append("the daemon exited by itself (status \(ended.status ?? -1)): \(ended.output.suffix(400))")
        }
        if let daemon = world.daemon, !daemon.isRunning {
            crashes.append("the daemon is not running (status \(daemon.exitStatus)): \(daemon.allOutput.suffix(400))")
        }
        let integrity = try world.sql("PRAGMA integrity_check").map { $0.joined() }

        return [
            .init(name: "~every server message in the store exactly once, with the server's flags", violations: everyOnce),
            .init(name: "~nothing the server expunged is in the store", violations: expunged),
            .init(name: "~no change left without its UID", violations: pending),
            .init(name: "~every tool action reported done is on the server; none reported failed was done", violations: actions),
            .init(name: "~every send accepted arrived exactly once and is in Sent once (or still waits in the Outbox); none refused arrived",
                  violations: sendViolations),
            .init(name: "no notification twice", violations: twice),
            .init(name: "no crash but the injected kills", violations: crashes),
            .init(name: "PRAGMA integrity_check ok", violations: integrity == ["ok"] ? [] : integrity),
        ]
    }

    /// The value of header `name` in a raw message (first occurrence, unfolded).
    static func header(_ name: String, in raw: String) -> String? {
        let prefix = name.lowercased() + ":"
        for line in raw.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) {
            if line.isEmpty { return nil }
            if line.lowercased().hasPrefix(prefix) { return line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
