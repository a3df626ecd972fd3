import Foundation
import Testing
import VaultMailTesting

/// Issue 33, snooze: the state lives on the user's IMAP server (docs/snooze.md) and the daemon
/// brings conversations back at their time, once, against Dovecot, a second IMAP client and the
/// recording notification server.
@Suite("Snooze on the server, woken by the daemon (issue 33)", .serialized)
struct SnoozeEndToEndTests {
    struct Snoozed: Decodable {
        var threadId, subject: String
        var until: String?
        var someday: Bool
    }

    static func snoozed(_ world: EndToEndWorld) async throws -> [Snoozed] {
        let output = try await world.vaultmail(["snoozed", "--json"], errors: false)
        try #require(output.status == 0, "snoozed failed: \(output.text)")
        return try ToolJSON.decode([Snoozed].self, from: output.text)
    }

    /// An ISO 8601 time `seconds` from now, to the second.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func keywords(_ message: OtherIMAPClient.Message) -> [String] {
        message.flags.filter { $0.lowercased().hasPrefix("$snoozed") }
    }

    @Test("vaultmail snooze puts the conversation in the server's Snoozed mailbox with its wake-time keyword; bad times are refused; another client moving it back cancels it")
    func snoozeOnTheServer() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try world.deliver(EndToEndWorld.message("Snooze me"))
            try world.deliver(EndToEndWorld.message("Someday maybe"))
            let synced = try await world.vaultmail(["sync"])
            try #require(synced.status == 0, "sync failed: \(synced.text)")
            let threads = try await world.inboxThreads()
            let thread = try #require(threads.first { $0.subject == "Snooze me" })
            let someday = try #require(threads.first { $0.subject == "Someday maybe" })

            // Refused, saying what was wrong and what to give instead; nothing changes.
            let unreadable = try await world.vaultmail(["snooze", thread.id, "--until", "soonish"])
            #expect(unreadable.status == 2, "\(unreadable.text)")
            #expect(unreadable.text.contains("'soonish' is not a time VaultMail reads: give this-evening, tomorrow, next-week, someday"), "\(unreadable.text)")
            let past = try await world.vaultmail(["snooze", thread.id, "--until", "2020-01-01 09:00"])
            #expect(past.status == 2, "\(past.text)")
            #expect(past.text.contains("2020-01-01 09:00 has already passed"), "\(past.text)")
            #expect(try await world.otherClient.messages(in: "INBOX").count == 2)

            let wake = Date().addingTimeInterval(3 * 86400).rounded()
            let done = try await world.vaultmail(["snooze", thread.id, "--until", Self.iso(wake)])
            try #require(done.status == 0, "snooze failed: \(done.text)")
            #expect(done.text.contains("snooze: 1 conversation snoozed until"), "\(done.text)")
            let kept = try await world.vaultmail(["snooze", someday.id, "--until", "someday"])
            try #require(kept.status == 0, "snooze failed: \(kept.text)")

            // The server: out of the inbox, in Snoozed, each with its keyword another client can read.
            let inbox = try await world.otherClient.messages(in: "INBOX")
            #expect(inbox.isEmpty, "\(inbox.map(\.subject))")
            let onServer = try await world.otherClient.messages(in: "Snoozed")
            let snoozedMessage = try #require(onServer.first { $0.subject == "Snooze me" })
            #expect(Self.keywords(snoozedMessage) == ["$SnoozedUntil-" + Self.keywordTime(wake)], "\(snoozedMessage.flags)")
            #expect(Self.keywords(try #require(onServer.first { $0.subject == "Someday maybe" })) == ["$SnoozedSomeday"])

            // The tool lists them, the timed one first.
            let listed = try await Self.snoozed(world)
            #expect(listed.map(\.subject) == ["Snooze me", "Someday maybe"])
            #expect(listed.first?.until == Self.iso(wake))
            #expect(listed.last?.someday == true && listed.last?.until == nil)
            let folderList = try await world.vaultmail(["threads", "--folder", "snoozed", "--json"])
            #expect(folderList.text.contains("Snooze me"), "\(folderList.text)")

            // Another client moves it back to the inbox: it is no longer snoozed here either.
            try await world.otherClient.move(subject: "Snooze me", from: "Snoozed", to: "INBOX")
            let again = try await world.vaultmail(["sync"])
            try #require(again.status == 0, "sync failed: \(again.text)")
            #expect(try await Self.snoozed(world).map(\.subject) == ["Someday maybe"])
            #expect(try await world.inboxThreads().contains { $0.subject == "Snooze me" })

            // Unsnooze: back in the inbox, the keyword gone.
            let back = try await world.vaultmail(["unsnooze", someday.id])
            try #require(back.status == 0, "unsnooze failed: \(back.text)")
            let returned = try #require(try await world.otherClient.messages(in: "INBOX").first { $0.subject == "Someday maybe" })
            #expect(Self.keywords(returned).isEmpty, "\(returned.flags)")
            #expect(try await Self.snoozed(world).isEmpty)
            let refused = try await world.vaultmail(["unsnooze", someday.id])
            #expect(refused.status == 1 && refused.text.contains("That conversation isn't snoozed."), "\(refused.text)")
        }
    }

    @Test("The daemon wakes a snoozed conversation at its time, unread at the top of the inbox with a notification; one overdue across a restart wakes once; one deleted elsewhere never comes back")
    func daemonWakes() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            for subject in ["Overdue after restart", "Wakes on time", "Deleted elsewhere"] {
                try world.deliver(EndToEndWorld.message(subject))
                try await world.waitForNotification(mentioning: subject)
            }
            let threads = try await world.inboxThreads()
            func id(_ subject: String) throws -> String { try #require(threads.first { $0.subject == subject }).id }
            let read = try await world.vaultmail(["read", try id("Overdue after restart"), try id("Wakes on time")])
            try #require(read.status == 0, "read failed: \(read.text)")

            // Snoozed while the daemon is stopped; its time passes before the daemon starts again.
            _ = try await world.stopDaemon()
            // Far enough ahead that the snooze command (a new process, slow on a loaded machine)
            // still finds it in the future.
            let soon = Date().addingTimeInterval(10).rounded()
            let snoozed = try await world.vaultmail(["snooze", try id("Overdue after restart"), "--until", Self.iso(soon)])
            try #require(snoozed.status == 0, "snooze failed: \(snoozed.text)")
            try await world.eventually("the wake time passing") { Date() > soon }
            try await world.startDaemon()
            try await Self.waitForAnnouncement(2, of: "Overdue after restart", in: world)

            // Snoozed beside the running daemon; one of them deleted by another client meanwhile.
            // Room for two commands, a delete and a delivery on a loaded 2-core machine before it.
            let later = Date().addingTimeInterval(30).rounded()
            for subject in ["Wakes on time", "Deleted elsewhere"] {
                let done = try await world.vaultmail(["snooze", try id(subject), "--until", Self.iso(later)])
                try #require(done.status == 0, "snooze failed: \(done.text)")
            }
            try await world.otherClient.delete(subject: "Deleted elsewhere", in: "Snoozed")
            try world.deliver(EndToEndWorld.message("Arrived meanwhile"))
            try await world.waitForNotification(mentioning: "Arrived meanwhile")
            #expect(Date() < later, "the test took too long to set up to prove waking on time")
            try await Self.waitForAnnouncement(2, of: "Wakes on time", in: world)
            #expect(Date() >= later, "woken before its time")

            // On the server: unread in the inbox, no keyword; nothing left in Snoozed.
            let inbox = try await world.otherClient.messages(in: "INBOX")
            for subject in ["Overdue after restart", "Wakes on time"] {
                let message = try #require(inbox.first { $0.subject == subject }, "\(subject) is back in the inbox")
                #expect(!message.flags.contains("\\Seen"), "\(subject): \(message.flags)")
                #expect(Self.keywords(message).isEmpty, "\(subject): \(message.flags)")
            }
            #expect(!inbox.contains { $0.subject == "Deleted elsewhere" })
            #expect(try await world.otherClient.messages(in: "Snoozed").isEmpty)
            // The same conversation, at the top of the inbox: above mail that arrived while it slept.
            let order = try await world.inboxThreads()
            #expect(order.first?.subject == "Wakes on time", "\(order.map(\.subject))")
            #expect(order.first?.id == (try id("Wakes on time")))

            // notify why names the snooze.
            let decision = try await world.decision(about: "Wakes on time")
            #expect(decision.outcome == "notified" && decision.rule == "snooze-ended", "\(decision)")
            let why = try await world.vaultmail(["notify", "why", decision.emailId])
            #expect(why.text.contains("snoozed until"), "\(why.text)")
            #expect(why.text.contains("came back"), "\(why.text)")

            // Exactly once: after the next new mail has been announced, each was announced twice
            // (on arrival and when it came back), the deleted one once.
            try world.deliver(EndToEndWorld.message("Later mail"))
            try await world.waitForNotification(mentioning: "Later mail")
            func announced(_ subject: String) -> Int {
                world.notifications.events.filter {
                    $0["method"] as? String == "Notify" && (($0["summary"] as? String ?? "") + ($0["body"] as? String ?? "")).contains(subject)
                }.count
            }
            #expect(announced("Overdue after restart") == 2)
            #expect(announced("Wakes on time") == 2)
            #expect(announced("Deleted elsewhere") == 1)
        }
    }

    /// Waits until the notification server was asked `count` times in all to show mail with `subject`.
    static func waitForAnnouncement(_ count: Int, of subject: String, in world: EndToEndWorld) async throws {
        try await world.notifications.waitForEvent(count: count, timeout: .seconds(60)) { event in
            event["event"] as? String == "call" && event["method"] as? String == "Notify"
                && ((event["body"] as? String ?? "") + (event["summary"] as? String ?? "")).contains(subject)
        }
    }

    static func keywordTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}

extension Date {
    /// To the whole second, as the tool's times are.
    func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.up)) }
}
