import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// The demo's story, step by step: real servers on loopback, the account, the daemon, new
/// mail, the rules that decide what notifies, the buttons on a notification, and what
/// VaultMail recorded. Everything it starts is kept in `world`, which the caller shuts down.
@MainActor
struct DemoScript {
    let world: DemoWorld
    let say: Narrator
    /// The display dunst should draw on; nil prints notifications instead.
    let display: String?
    let mailbox = SampleMailbox()
    let user = "ada"

    func run() async throws {
        let vaultmailPath = try VaultMailTool.besideDemo()
        let (dovecot, smtp) = try await startMailServers()
        let (bus, desk) = try await startDesktopSession()
        let tool = try await addAccount(vaultmailPath, dovecot: dovecot, smtp: smtp, bus: bus)
        try await firstSync(tool, desk: desk)
        try await ordinaryNotification(tool, dovecot: dovecot, desk: desk)
        try await setRules(tool)
        try await rulesAtWork(tool, dovecot: dovecot, smtp: smtp, desk: desk)
        say.step(8, "What VaultMail did")
        say.say("The conversations, newest first (● unread), as the local store has them:")
        try await vaultmail(tool, ["threads"])
        say.say("Every notification decision the engine made, newest first:")
        try await vaultmail(tool, ["notify", "log"])
        try await webApp(tool)
        if let count = await desk.dunstCount() {
            say.say("And dunst's own count of what it showed:")
            say.command("dunstctl count", output: count)
            if isatty(STDIN_FILENO) == 1 {
                say.blank()
                say.write("Press Enter to stop the demo and clean up (dunst closes with it).")
                await Self.waitForEnter()
            }
        }
    }

    /// Waits for a line on standard input, or a signal.
    static func waitForEnter() async {
        while InterruptSignal.caught == nil, !Task.isCancelled {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) > 0 {
                _ = readLine()
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: 1. Mail servers

    private func startMailServers() async throws -> (DovecotServer, SMTPTestServer) {
        say.step(1, "Mail servers on 127.0.0.1")
        let password = UUID().uuidString
        let dovecot = try await DovecotServer.start(users: [user: password])
        world.dovecot = dovecot
        say.done("Dovecot, a real IMAP server, on 127.0.0.1:\(dovecot.imapPort) (STARTTLS), with one user, \(user)")
        let smtp = try await SMTPTestServer.start(user: user, password: password, certificates: dovecot.certificates)
        world.smtp = smtp
        say.done("an SMTP server (Python's aiosmtpd) on 127.0.0.1:\(smtp.port) (STARTTLS, same user); it keeps what it receives")
        say.say("Both present certificates from a certificate authority made for this run only.")
        try writePassword(password)

        // Uploaded as another mail client would: IMAP APPEND, with each message's date and flags.
        let now = Date()
        let imap = try await IMAPConnection.connect(
            to: IMAPEndpoint(host: dovecot.host, port: dovecot.imapPort, security: .starttls, caFile: dovecot.caFile))
        try await imap.login(user: user, password: Secret(password))
        for message in mailbox.existing.sorted(by: { $0.age > $1.age }) {
            try await imap.append(message.rfc5322(to: SampleMailbox.owner, now: now), to: "INBOX",
                                  flags: message.isRead ? [.seen] : [], internalDate: now.addingTimeInterval(-message.age))
        }
        await imap.logout()
        let read = mailbox.existing.filter(\.isRead).count
        say.done("\(mailbox.existing.count) messages of the last nine days uploaded to \(user)'s INBOX over IMAP (APPEND),")
        say.say("  \(read) of them already read:")
        let status = try dovecot.doveadm(["mailbox", "status", "-u", user, "messages unseen", "INBOX"])
        say.command("doveadm mailbox status -u \(user) 'messages unseen' INBOX", output: status)
        return (dovecot, smtp)
    }

    /// The password, in a file only we can read, printed by the account's password command:
    /// it is never on a command line or in VaultMail's database.
    private func writePassword(_ password: String) throws {
        let file = passwordFile.path
        guard FileManager.default.createFile(atPath: file, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw DemoFailure("cannot write \(file)") }
    }

    private var passwordFile: URL { world.directory.appendingPathComponent("password") }
    private var home: URL { world.directory.appendingPathComponent("home") }

    // MARK: 2. The desktop

    private func startDesktopSession() async throws -> (DBusDaemon, NotificationDesk) {
        say.step(2, "A private desktop session")
        let bus = try await DBusDaemon.start()
        world.bus = bus
        say.done("a private D-Bus session bus (dbus-daemon), so nothing reaches your own desktop's bus")
        let (desk, note) = try await NotificationDesk.start(
            on: bus, display: display, configDirectory: world.directory.appendingPathComponent("config"))
        world.desk = desk
        if let note { say.warn(note) }
        say.done("a notification server on that bus: \(desk.description)")
        return (bus, desk)
    }

    // MARK: 3. The account

    private func addAccount(_ vaultmailPath: String, dovecot: DovecotServer, smtp: SMTPTestServer, bus: DBusDaemon) async throws
        -> VaultMailTool
    {
        say.step(3, "Adding the account")
        var environment = bus.environment()
        environment["VAULTMAIL_HOME"] = home.path
        let tool = VaultMailTool(path: vaultmailPath, environment: environment)
        say.say("""
            VaultMail keeps its data in VAULTMAIL_HOME, here a fresh directory:
            \(home.path)
            The password is never stored: VaultMail keeps the command that prints it.
            """)
        try await vaultmail(tool, accountArguments(dovecot: dovecot, smtp: smtp))
        try await vaultmail(tool, ["account", "list"])
        return tool
    }

    private func accountArguments(dovecot: DovecotServer, smtp: SMTPTestServer) -> [String] {
        [
            "account", "add", "work", "--email", SampleMailbox.ownerAddress,
            "--imap", "127.0.0.1:\(dovecot.imapPort)", "--smtp", "127.0.0.1:\(smtp.port)",
            "--security", "starttls", "--ca-file", URL(fileURLWithPath: dovecot.caFile).standardizedFileURL.path, "--user", user,
            "--password-command", "cat \(passwordFile.path)",
        ]
    }

    // MARK: 4. The daemon's first sync

    private func firstSync(_ tool: VaultMailTool, desk: NotificationDesk) async throws {
        say.step(4, "Starting the daemon")
        say.say("The daemon syncs every account, keeps an IMAP IDLE connection open on each inbox, and")
        say.say("decides which new mail deserves a notification. It logs to standard error:")
        say.write("   $ vaultmail daemon &")
        try await startDaemon(tool)
        let notified = try await decisions(tool).filter { $0.outcome == "notified" }
        if desk.received.isEmpty, notified.isEmpty {
            say.done("the first sync raised no notification: mail already in the mailbox when VaultMail")
            say.say("  first looks is not news.")
        } else {
            say.warn("the first sync raised \(max(desk.received.count, notified.count)) notification(s)")
        }
        say.say("The inbox as VaultMail stored it (● unread; two conversations, threaded):")
        try await vaultmail(tool, ["threads", "--limit", "8"])
        let juggling = try await email(tool, subject: "Juggling club tonight?")
        say.say("Ask the engine about one of them:")
        try await vaultmail(tool, ["notify", "why", Self.short(juggling.id)])
    }

    /// Starts the daemon and waits for its first sync, showing its log.
    @discardableResult
    private func startDaemon(_ tool: VaultMailTool) async throws -> DaemonProcess {
        let daemon = try DaemonProcess(tool: tool)
        world.daemon = daemon
        try await daemon.waitForLog("first sync done")
        for line in daemon.newLogLines() { say.daemonLog(line) }
        return daemon
    }

    // MARK: 5. An ordinary notification, and its Mark Read button

    private func ordinaryNotification(_ tool: VaultMailTool, dovecot: DovecotServer, desk: NotificationDesk) async throws {
        say.step(5, "New mail")
        let shown = try await deliver(mailbox.lunch, tool: tool, dovecot: dovecot, desk: desk)
        guard let shown, desk.isRecording else {
            if !desk.isRecording {
                say.say("(dunst shows it on your screen; its buttons are yours to press. With printed")
                say.say(" notifications the demo presses Mark Read here and shows the server change.)")
            }
            return
        }
        say.say("Pressing \"Mark Read\" on Alan's notification, as a click would:")
        try await desk.press("Mark Read", on: shown)
        try await desk.waitForClose(shown.serverId)
        say.done("the daemon closed the notification (CloseNotification \(shown.serverId))")
        let flags = try await waitForFlags(of: mailbox.lunch, on: dovecot, containing: "\\Seen")
        say.done("and marked the message read on the server — Dovecot says:")
        say.command("doveadm fetch -u \(user) flags mailbox INBOX header Message-ID '\(mailbox.lunch.messageId)'", output: flags)
        say.say("Every other mail client of Ada's now sees it read too.")
    }

    // MARK: 6. Rules

    private func setRules(_ tool: VaultMailTool) async throws {
        say.step(6, "Rules: a VIP, quiet hours, a muted conversation")
        try await vaultmail(tool, ["notify", "vip", "add", SampleMailbox.vip.address])
        try await vaultmail(tool, ["notify", "quiet-hours", MailFixtures.quietHoursAroundNow()])
        let offsite = try await thread(tool, subject: mailbox.offsite.subject)
        try await vaultmail(tool, ["notify", "mute", Self.short(offsite.id)])
        say.say("The running daemon takes these in from its next mail on; no restart needed.")
        try await vaultmail(tool, ["notify", "status"])
    }

    // MARK: 7. The rules at work, and a reply from the notification

    private func rulesAtWork(_ tool: VaultMailTool, dovecot: DovecotServer, smtp: SMTPTestServer, desk: NotificationDesk) async throws {
        say.step(7, "More mail, in quiet hours")
        let fromVIP = try await deliver(mailbox.fromVIP, tool: tool, dovecot: dovecot, desk: desk, note: "a VIP")
        say.blank()
        try await deliver(mailbox.duringQuietHours, tool: tool, dovecot: dovecot, desk: desk)
        say.blank()
        try await deliver(mailbox.inMutedThread, tool: tool, dovecot: dovecot, desk: desk, note: "in the muted conversation")
        guard let fromVIP, desk.isRecording else { return }
        say.blank()
        let text = "Yes, I'll send my comments by five. Ada"
        say.say("Typing a reply into Grace's notification and pressing Send: \"\(text)\"")
        try await desk.reply(text, to: fromVIP)
        let received = try await smtp.waitForMessages(count: 1, timeout: .seconds(60))
        let headers = Self.headers(of: received[0].raw, ["From", "To", "Subject", "In-Reply-To"])
        say.done("the daemon sent it through the SMTP server (STARTTLS, AUTH as \(user)), which received:")
        say.quote(headers.joined(separator: "\n"))
        if (try? await desk.waitForClose(fromVIP.serverId, timeout: .seconds(10))) != nil {
            say.done("and closed the notification (CloseNotification \(fromVIP.serverId))")
        }
    }

    // MARK: Delivering one message

    /// Delivers `message` as a mail server would, waits for the engine's decision, and shows
    /// the notification (if any) and the reason. Returns the notification when one was shown.
    @discardableResult
    private func deliver(
        _ message: SampleMessage, tool: VaultMailTool, dovecot: DovecotServer, desk: NotificationDesk, note: String? = nil
    ) async throws -> ShownNotification? {
        let known = desk.received.count
        let before = Set(try await decisions(tool).map(\.emailId))
        say.write("   ✉  \(message.name) <\(message.address)>\(note.map { " (\($0))" } ?? "") writes \"\(message.subject)\"")
        try dovecot.deliver(message.rfc5322(to: SampleMailbox.owner), to: user)
        let decision = try await waitForDecision(tool, subject: message.subject, excluding: before)
        var shown: ShownNotification?
        if decision.outcome == "notified" {
            if desk.isRecording {
                shown = try await desk.waitForNotification(subject: message.subject, after: known)
            } else {
                shown = ShownNotification(message: message)
            }
        }
        if let daemon = world.daemon {
            for line in daemon.newLogLines() { say.daemonLog(line) }
        }
        if let shown {
            say.notification(shown)
        } else {
            say.write("   🔕 no notification (rule: \(decision.rule))")
        }
        try await vaultmail(tool, ["notify", "why", Self.short(decision.emailId)])
        return shown
    }
}
