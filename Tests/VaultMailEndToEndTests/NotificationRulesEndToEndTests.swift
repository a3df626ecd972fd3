import Foundation
import Testing
import VaultMailTesting

/// Which mail notifies, decided by the running daemon under rules set with the command line
/// beside it, and explained by `vaultmail notify why`.
@Suite("vaultmail notify rules end to end (issue 7)", .serialized)
struct NotificationRulesEndToEndTests {
    @Test("A VIP during quiet hours notifies; ordinary, spam and muted-thread mail does not; `notify why` names each rule")
    func rules() async throws {
        try await EndToEndWorld.with { world in
            let original = "<muted-root@example.org>"
            try world.deliver(EndToEndWorld.message("Weekly lunch plans", from: "Linus <linus@example.org>", messageId: original))
            try await world.addAccount()
            try await world.startDaemon()
            let lunch = try #require(try await world.inboxThreads().first { $0.subject == "Weekly lunch plans" })

            // Rules set beside the running daemon apply to its next mail.
            #expect(try await world.vaultmail(["notify", "vip", "add", "Boss@Example.org"]).status == 0)
            let quiet = try await world.vaultmail(["notify", "quiet-hours", MailFixtures.quietHoursAroundNow()])
            #expect(quiet.status == 0, "\(quiet.text)")
            #expect(try await world.vaultmail(["notify", "mute", String(lunch.id.prefix(12))]).status == 0)

            try world.deliver(EndToEndWorld.message("Ordinary at night", from: "Bob <bob@example.org>"))
            try world.deliver(EndToEndWorld.message("Urgent from the boss", from: "The Boss <boss@example.org>"))
            try await world.waitForNotification(mentioning: "Urgent from the boss")
            #expect(try await world.decision(about: "Urgent from the boss").rule == "vip")
            #expect(try await world.decision(about: "Ordinary at night").rule == "quiet-hours")

            #expect(try await world.vaultmail(["notify", "quiet-hours", "off"]).status == 0)
            try world.deliver(EndToEndWorld.message("Cheap pills", from: "Spammer <spam@example.net>", headers: ["X-Spam-Flag: YES"]))
            try world.deliver(EndToEndWorld.message("Re: Weekly lunch plans", from: "Linus <linus@example.org>",
                                                    headers: ["In-Reply-To: \(original)", "References: \(original)"]))
            try world.deliver(EndToEndWorld.message("Plain daytime mail", from: "Bob <bob@example.org>"))
            try await world.waitForNotification(mentioning: "Plain daytime mail")
            let spam = try await world.decision(about: "Cheap pills")
            let muted = try await world.decision(about: "Re: Weekly lunch plans")
            #expect(spam.rule == "spam" && spam.outcome == "suppressed")
            #expect(muted.rule == "muted-thread" && muted.outcome == "suppressed")
            #expect(muted.threadId == lunch.id, "the reply joined the muted conversation")

            let notified = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(notified.count == 2, "only the VIP and the daytime mail notified: \(notified)")
            #expect(!notified.contains { $0.contains("Cheap pills") || $0.contains("Ordinary at night") || $0.contains("Weekly lunch") })

            let whySpam = try await world.vaultmail(["notify", "why", String(spam.emailId.prefix(12))])
            #expect(whySpam.status == 0)
            #expect(whySpam.text.contains("Not notified") && whySpam.text.contains("it is spam"), "\(whySpam.text)")
            let whyMuted = try await world.vaultmail(["notify", "why", muted.emailId])
            #expect(whyMuted.text.contains("the conversation is muted"), "\(whyMuted.text)")
            let whyVIP = try await world.vaultmail(["notify", "why", try await world.decision(about: "Urgent from the boss").emailId])
            #expect(whyVIP.text.contains("Notified") && whyVIP.text.contains("VIP"), "\(whyVIP.text)")
            let whyQuiet = try await world.vaultmail(["notify", "why", try await world.decision(about: "Ordinary at night").emailId])
            #expect(whyQuiet.text.contains("quiet hours"), "\(whyQuiet.text)")
        }
    }

    @Test("Issue 34: mail that arrives already read (\\Seen on the server) is never announced, even from a VIP; `notify why` says why")
    func alreadyReadIsNotNews() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            #expect(try await world.vaultmail(["notify", "vip", "add", "boss@example.org"]).status == 0)
            try await world.otherClient.appendRead(EndToEndWorld.message("Read on the phone", from: "The Boss <boss@example.org>"))
            try world.deliver(EndToEndWorld.message("Unread news", from: "Bob <bob@example.org>"))
            try await world.waitForNotification(mentioning: "Unread news")
            let read = try await world.decision(about: "Read on the phone")
            #expect(read.rule == "already-read" && read.outcome == "suppressed", "\(read)")
            let notified = world.notifications.calls("Notify").compactMap { $0["body"] as? String }
            #expect(!notified.contains { $0.contains("Read on the phone") }, "\(notified)")
            let why = try await world.vaultmail(["notify", "why", read.emailId])
            #expect(why.status == 0 && why.text.contains("Not notified") && why.text.contains("already read when it arrived"), "\(why.text)")
        }
    }

    @Test("Issue 33: in quiet hours a forged VIP address stays quiet and the one the server authenticated breaks through; `notify why` says which; `notify show sender` hides subjects")
    func authenticatedVIPs() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            #expect(try await world.vaultmail(["notify", "vip", "add", "boss@example.org"]).status == 0)
            let named = try await world.vaultmail(["notify", "authserv", "work", "mx.test"])
            #expect(named.status == 0 && named.text.contains("mx.test"), "\(named.text)")
            #expect(try await world.vaultmail(["notify", "authserv", "work", "mx test"]).status != 0, "a name with a space is refused")
            #expect(try await world.vaultmail(["notify", "quiet-hours", MailFixtures.quietHoursAroundNow()]).status == 0)
            // What a receiving server writes; the forger's own claim of a pass below it counts for nothing.
            try world.deliver(EndToEndWorld.message("Forged boss", from: "The Boss <boss@example.org>", headers: [
                "Authentication-Results: mx.test; spf=fail smtp.mailfrom=example.org; dkim=none; dmarc=fail header.from=example.org",
                "Authentication-Results: example.org; dkim=pass header.d=example.org"]))
            try world.deliver(EndToEndWorld.message("Real boss", from: "The Boss <boss@example.org>", headers: [
                "Authentication-Results: mx.test; spf=pass smtp.mailfrom=example.org; dkim=pass header.d=example.org"]))
            try await world.waitForNotification(mentioning: "Real boss")
            let forged = try await world.decision(about: "Forged boss")
            #expect(forged.rule == "quiet-hours" && forged.outcome == "suppressed", "\(forged)")
            let whyForged = try await world.vaultmail(["notify", "why", forged.emailId])
            #expect(whyForged.text.contains("not authenticated by mx.test"), "\(whyForged.text)")
            let whyReal = try await world.vaultmail(["notify", "why", try await world.decision(about: "Real boss").emailId])
            #expect(whyReal.text.contains("authenticated by mx.test: dkim=pass header.d=example.org"), "\(whyReal.text)")

            #expect(try await world.vaultmail(["notify", "quiet-hours", "off"]).status == 0)
            #expect(try await world.vaultmail(["notify", "show", "sender"]).status == 0)
            try world.deliver(EndToEndWorld.message("Salary review", from: "Payroll Office <payroll@example.org>"))
            let shown = try await world.waitForNotification(mentioning: "Payroll Office")
            #expect(!((shown["body"] as? String ?? "") + (shown["summary"] as? String ?? "")).contains("Salary"), "\(shown)")
            let status = try await world.vaultmail(["notify", "status"])
            #expect(status.text.contains("Sender only") && status.text.contains("mx.test"), "\(status.text)")
        }
    }

    @Test("Issue 33: when quiet hours end the daemon posts one digest of the mail they held back; a restarted daemon does not post it again")
    func quietHoursDigest() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            // From an hour ago to two minute marks from now: they end within one to two minutes.
            let parts = Calendar.current.dateComponents([.hour, .minute], from: Date())
            let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
            let clock = { (m: Int) in String(format: "%02d:%02d", ((m % 1440) + 1440) % 1440 / 60, ((m % 1440) + 1440) % 1440 % 60) }
            let quiet = try await world.vaultmail(["notify", "quiet-hours", "\(clock(minute - 60))-\(clock(minute + 2))"])
            #expect(quiet.status == 0, "\(quiet.text)")
            try world.deliver(EndToEndWorld.message("Night one", from: "Ada <ada@example.org>"))
            try world.deliver(EndToEndWorld.message("Night two", from: "Bob <bob@example.org>"))
            #expect(try await world.decision(about: "Night one").rule == "quiet-hours")
            #expect(try await world.decision(about: "Night two").rule == "quiet-hours")

            let digest = try await world.waitForNotification(mentioning: "2 new emails", timeout: .seconds(300))
            #expect(digest["summary"] as? String == "While your quiet hours lasted", "\(digest)")
            let body = digest["body"] as? String ?? ""
            #expect(body.contains("Ada: Night one") && body.contains("Bob: Night two"), "\(body)")

            #expect(try await world.stopDaemon().status == 0)
            try await world.startDaemon()
            try world.deliver(EndToEndWorld.message("Morning mail", from: "Cleo <cleo@example.org>"))
            try await world.waitForNotification(mentioning: "Morning mail")
            let digests = world.notifications.calls("Notify").filter { $0["summary"] as? String == "While your quiet hours lasted" }
            #expect(digests.count == 1, "one digest per quiet period, across the restart")
        }
    }

    @Test("Issue 33: a follow-up reminder set with the tool reminds once through a daemon restart when nobody answered, and never when someone did")
    func followUpReminders() async throws {
        try await EndToEndWorld.with { world in
            let me = "Ada <\(EndToEndWorld.address)>"
            let quoteId = "<quote-\(UUID().uuidString)@example.org>", lunchId = "<lunch-\(UUID().uuidString)@example.org>"
            try await world.otherClient.appendRead(EndToEndWorld.message("Quote for the roof", from: me, messageId: quoteId), to: "Sent")
            try await world.otherClient.appendRead(EndToEndWorld.message("Lunch on Friday", from: me, messageId: lunchId), to: "Sent")
            try await world.addAccount()
            try await world.startDaemon()
            let sent = try await world.inboxThreads(folder: "sent")
            let quote = try #require(sent.first { $0.subject == "Quote for the roof" }), lunch = try #require(sent.first { $0.subject == "Lunch on Friday" })
            let bad = try await world.vaultmail(["remind", quote.id, "--in", "soon"])
            #expect(bad.status == 2 && bad.text.contains("3d"), "\(bad.text)")
            for thread in [quote, lunch] {
                let set = try await world.vaultmail(["remind", thread.id, "--in", "1m"])
                #expect(set.status == 0 && set.text.contains("the daemon reminds you"), "\(set.text)")
            }
            #expect(try await world.vaultmail(["reminders"]).text.contains("Lunch on Friday"))
            try world.deliver(EndToEndWorld.message("Re: Lunch on Friday", from: "Grace Hopper <grace@example.org>",
                                                    headers: ["In-Reply-To: \(lunchId)", "References: \(lunchId)"]))
            try await world.waitForNotification(mentioning: "Re: Lunch on Friday")
            #expect(try await world.stopDaemon().status == 0)
            try await world.startDaemon()
            let reminded = try await world.waitForNotification(mentioning: "Quote for the roof", timeout: .seconds(180))
            #expect(reminded["summary"] as? String == "No answer yet", "\(reminded)")
            let left = try await world.vaultmail(["reminders"]).text
            #expect(left.contains("No follow-up reminders."), "\(left)")
            let lunches = world.notifications.calls("Notify").filter { $0["summary"] as? String == "No answer yet" && ($0["body"] as? String ?? "").contains("Lunch") }
            #expect(lunches.isEmpty, "the answered one reminds of nothing")
        }
    }

    @Test("First sync of a 500-message mailbox raises no notification; 15 new in one go raise 10 banners")
    func firstSyncAndBatchLimit() async throws {
        try await EndToEndWorld.with { world in
            let backlog = try Self.messages(count: 500, prefix: "Backlog")
            defer { try? FileManager.default.removeItem(at: backlog) }
            try await world.otherClient.append(directory: backlog)
            try await world.addAccount()
            let daemon = try await world.startDaemon()
            #expect(world.notifications.calls("Notify").isEmpty, "the first sync never notifies")
            let first = try await world.decisions()
            #expect(first.count == 500 && first.allSatisfy { $0.rule == "first-launch" }, "every one decided, none notified")
            #expect(try await world.vaultmail(["threads", "--limit", "1"]).status == 0)

            // Stopped while the 15 arrive, the daemon finds them in one IDLE round.
            let fresh = try Self.messages(count: 15, prefix: "Fresh")
            defer { try? FileManager.default.removeItem(at: fresh) }
            daemon.signal(SIGSTOP)
            do {
                try await world.otherClient.append(directory: fresh)
            } catch {
                daemon.signal(SIGCONT)
                throw error
            }
            daemon.signal(SIGCONT)
            try await world.eventually("15 decisions about the fresh mail") {
                try await world.decisions().filter { $0.subject.hasPrefix("Fresh") }.count == 15
            }
            let fresh15 = try await world.decisions().filter { $0.subject.hasPrefix("Fresh") }
            #expect(fresh15.filter { $0.outcome == "notified" }.count == 10)
            #expect(fresh15.filter { $0.rule == "batch-limit" }.count == 5)
            _ = try await world.notifications.waitForCall("Notify", count: 10)
            #expect(world.notifications.calls("Notify").count == 10)
            try await world.waitForBadge(515)
        }
    }

    /// `count` distinct conversations, dated now, as files in a new directory.
    static func messages(count: Int, prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-e2e-mail-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for index in 0..<count {
            let message = EndToEndWorld.message("\(prefix) \(index)", from: "Sender \(index) <sender\(index)@example.org>")
            try message.write(to: directory.appendingPathComponent(String(format: "%05d.eml", index)))
        }
        return directory
    }
}
