import ArgumentParser
import Foundation
import Logging
import Synchronization
import VaultMailApp

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync accounts now (all when none is named).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account names.") var accounts: [String] = []

    @MainActor
    func run() async throws {
        let terminal = isatty(STDOUT_FILENO) == 1
        let summary = try await global.session().sync(accounts) { line in
            if terminal {
                FileHandle.standardOutput.write(Data("\r\u{1B}[K\(line)".utf8))
            }
        }
        if terminal { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        emit(summary)
    }
}

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Sync with IMAP IDLE, notify, act on notifications — until SIGTERM or SIGINT.",
        discussion: "One daemon per home. Logs go to standard error (the journal under systemd).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Seconds between background syncs of every folder.") var syncInterval = 300
    @Option(help: ArgumentHelp("Run on a notification click with /bin/sh; $1 is the thread id (default: a terminal showing it).",
                               valueName: "command"))
    var openCommand: String?
    @Option(help: .hidden) var idleRenewSeconds = 540
    @Option(help: .hidden) var outageGraceSeconds = 300
    @Option(help: .hidden) var reconnectMaxSeconds = 300
    @Option(help: "The web app's port on 127.0.0.1 (0 picks a free one).") var webPort = MailDaemon.Options.defaultWebPort
    @Flag(help: "Serve no web app.") var noWeb = false

    func validate() throws {
        guard syncInterval >= 10 else { throw ValidationError("--sync-interval must be at least 10 seconds") }
        guard (0...65535).contains(webPort) else { throw ValidationError("--web-port must be between 0 and 65535 (0 picks a free one)") }
    }

    @MainActor
    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        var options = MailDaemon.Options()
        options.syncInterval = .seconds(syncInterval)
        options.idle.renewInterval = .seconds(idleRenewSeconds)
        options.outageGrace = TimeInterval(outageGraceSeconds)
        if let openCommand { options.openCommand = openCommand }
        options.idle.maximumBackoff = .seconds(max(1, reconnectMaxSeconds))
        options.webPort = noWeb ? nil : webPort
        let daemon = try await MailDaemon.start(home: VaultMailHome(explicit: global.home), options: options,
                                                logger: Logger(label: "vaultmail"))
        try await daemon.run()
    }
}

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a message; the body is read from standard input.",
        discussion: "A message larger than the outgoing server accepts (its SMTP SIZE) is refused before it is saved. When the server cannot be reached the message waits in the outbox and the daemon sends it later.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The account to send from.") var account: String
    @Option(help: "A recipient (repeat for more).") var to: [String] = []
    @Option(help: "A copy recipient (repeat for more).") var cc: [String] = []
    @Option(help: "A blind copy recipient, named in no header (repeat for more).") var bcc: [String] = []
    @Option(help: "The subject.") var subject: String?
    @Option(name: .customLong("reply-to"), help: ArgumentHelp("Answer this email: your text above the signature, the attribution line and its quoted text, as the web composer writes it; To, Re: subject, In-Reply-To and References follow.", valueName: "email-id"))
    var replyTo: String?
    @Flag(help: "With --reply-to: answer everyone on the email (Cc the others), never yourself.") var replyAll = false
    @Option(help: ArgumentHelp("Forward this email: its text below yours, the attachments of every message of its conversation up to it carried (what would pass the server's size limit is left out, and said).", valueName: "email-id"))
    var forward: String?
    @Option(help: ArgumentHelp("A file to attach (repeat for more).", valueName: "file")) var attach: [String] = []
    @Flag(help: "The body is Markdown: send it with an HTML alternative.") var markdown = false
    @Option(help: ArgumentHelp("Wait this many seconds before sending; Ctrl-C meanwhile keeps it as a draft.", valueName: "seconds"))
    var undoDelay = 0
    @Option(name: .customLong("at"), help: ArgumentHelp("Send later: save it and let the daemon send it at this time (2026-12-01 09:00 in your time zone, or ISO 8601 with an offset); `vaultmail outbox --cancel ID` keeps it as a draft until then.", valueName: "time"))
    var sendAt: String?
    @Flag(help: "Encrypt it (OpenPGP, to every recipient's key and yours); not sent when a recipient has no key. Without --encrypt or --no-encrypt it is encrypted when every recipient has a key or it answers encrypted mail (docs/crypto.md).")
    var encrypt = false
    @Flag(name: .customLong("no-encrypt"), help: "Send it unencrypted, even when it could be encrypted or answers encrypted mail.")
    var noEncrypt = false
    @Flag(help: "Sign it with the account's OpenPGP key even when it is not encrypted (encrypted mail is always signed).")
    var sign = false

    func validate() throws {
        if sendAt != nil && undoDelay > 0 { throw ValidationError("--at and --undo-delay exclude each other: a message sent later can be cancelled until its time") }
        if encrypt && noEncrypt { throw ValidationError("--encrypt and --no-encrypt exclude each other") }
        if replyAll && replyTo == nil { throw ValidationError("--reply-all answers the email of --reply-to: give one") }
        if replyTo != nil && forward != nil { throw ValidationError("--reply-to and --forward exclude each other") }
        guard (0...300).contains(undoDelay) else { throw ValidationError("--undo-delay is 0 to 300 seconds") }
    }

    @MainActor
    func run() async throws {
        let body = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        var outgoing = CommandSession.Outgoing(account: account, to: to, body: body)
        outgoing.cc = cc
        outgoing.bcc = bcc
        outgoing.subject = subject
        outgoing.replyTo = replyTo
        outgoing.replyAll = replyAll
        outgoing.forward = forward
        outgoing.attachments = attach
        outgoing.markdown = markdown
        outgoing.undoDelay = undoDelay
        outgoing.sendAt = sendAt
        outgoing.encrypt = encrypt ? true : noEncrypt ? false : nil
        outgoing.sign = sign
        if undoDelay > 0 {
            Interrupt.install()
            FileHandle.standardError.write(Data("Sending in \(undoDelay) s; Ctrl-C keeps it as a draft.\n".utf8))
        }
        emit(try await global.session().send(outgoing) {
            while !Task.isCancelled && !Interrupt.caught { try? await Task.sleep(for: .milliseconds(50)) }
        })
    }
}

/// Ctrl-C during `send --undo-delay`: recorded, so the wait ends and the message stays a draft.
enum Interrupt {
    private static let received = Atomic<Bool>(false)
    static func install() { signal(SIGINT) { _ in Interrupt.received.store(true, ordering: .relaxed) } }
    static var caught: Bool { received.load(ordering: .relaxed) }
}

struct DraftsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drafts", abstract: "List the drafts (continue one in the web app).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this account.") var account: String?
    @Flag(help: "JSON.") var json = false

    @MainActor
    func run() async throws {
        emit(try await global.session().drafts(account: account, json: json))
    }
}

struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open the web app in your browser, signed in.",
        discussion: "The daemon serves the app on 127.0.0.1 (see `vaultmail daemon --web-port`). The browser is handed a page only you can read, holding a one-time sign-in token.")
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Show this conversation (an id or a unique prefix).", valueName: "thread-id")) var thread: String?
    @Flag(help: "Print the sign-in page's path instead of starting a browser (open it within two minutes).") var noBrowser = false

    @MainActor
    func run() async throws {
        emit(try await global.session().openWeb(thread: thread, launchBrowser: !noBrowser))
    }
}

struct StorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage", abstract: "What VaultMail keeps on this machine, per account and in all, and the space left on its disk.",
        discussion: "The web app shows the same in Settings → Storage. See docs/storage.md.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Empty the cache of remote images first; they are fetched again when shown.") var clearImages = false
    @Flag(help: "Stable JSON (see docs/storage.md).") var json = false
    @MainActor func run() async throws { emit(try await global.session().storage(json: json, clearImages: clearImages)) }
}
