import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// `vaultmail-bench e2e`: the built `vaultmail daemon` beside mailnag (Debian `mailnag`), each
/// run as a user runs it, against one private Dovecot (plain IMAP on 127.0.0.1), one private
/// dbus-daemon and one recording notification server. See docs/e2e-benchmark.md. Figures:
/// - `append-to-notify-vaultmail` / `-mailnag`: median over 50 messages, APPEND by a second
///   IMAP connection → `Notify` received on the bus; the clock starts just before the APPEND
///   and stops at the recording server's CLOCK_MONOTONIC stamp of the call;
/// - `append-to-exists-floor`: a bare IDLE client on the same mailbox, the same APPENDs →
///   `* EXISTS` (Dovecot holds IDLE notifications for 500 ms: no client can be faster), and
///   each client's median time above it, message by message;
/// - `rss-daemon-5000` / `rss-mailnag-5000`: VmRSS once each has synced (checked) a 5,000-message
///   INBOX and sat quiet for a second, read and unread, with `#` lines saying where the daemon's
///   anonymous memory is (smaps); `rss-keyring`: the gnome-keyring mailnag needs.
/// `VAULTMAIL_BENCH_E2E=memory`: the memory figures only.
enum E2EBenchmarks {
    static let rounds = 50
    /// Time between a `Notify` and the next APPEND: each client is back in IDLE, and no two
    /// messages can share a notification.
    static let spacing: Duration = .seconds(1)
    /// `VAULTMAIL_BENCH_E2E_MESSAGES=<n>`: another size for the memory figures (100,000: no growth per message held).
    static let corpusSize = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_E2E_MESSAGES"].flatMap { Int($0) } ?? 5_000
    static let password = "bench password"
    static let latencyOurs = "latency-ours"
    static let latencyMailnag = "latency-mailnag"
    static let corpusRead = "corpus-read"
    static let corpusUnread = "corpus-unread"

    /// The shared pieces of one run.
    struct World {
        let tool: VaultMailTool
        let server: DovecotServer
        let bus: DBusDaemon
        let recorder: RecordingNotificationServer
        let scratch: URL
        let passwordFile: URL

        var endpoint: IMAPEndpoint { IMAPEndpoint(host: server.host, port: server.imapPort, security: .plain) }
    }

    /// One client's 50 arrivals: APPEND → Notify, and the same APPEND → `* EXISTS` on a bare IDLE.
    struct Latency {
        var notify: [Double] = []
        var floor: [Double] = []
        var lastSummary = ""
        var lastBody = ""
        /// Notify minus EXISTS, message by message.
        var overFloor: [Double] { zip(notify, floor).map { $0 - $1 } }
    }

    static func run() async throws {
        let started = ContinuousClock.now
        let tool = try await VaultMailTool.locate()
        let mailnagVersion = Mailnag.installedVersion()
        let corpus = try SyncBenchmarks.Corpus.load(repeatedTo: corpusSize)
        let users = [latencyOurs, latencyMailnag, corpusRead, corpusUnread]
        let server = try await DovecotServer.start(users: Dictionary(uniqueKeysWithValues: users.map { ($0, password) }))
        do {
            try await run(server: server, tool: tool, corpus: corpus, mailnagVersion: mailnagVersion)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
        print("# e2e: took \(Int((ContinuousClock.now - started).seconds.rounded())) s")
    }

    /// Everything after Dovecot's start; every process and directory it makes is gone when it returns or throws.
    static func run(server: DovecotServer, tool: VaultMailTool, corpus: SyncBenchmarks.Corpus, mailnagVersion: String?) async throws {
        try corpus.writeMaildir(home: server.directory.appendingPathComponent("home/\(corpusRead)"), seen: true)
        try corpus.writeMaildir(home: server.directory.appendingPathComponent("home/\(corpusUnread)"), seen: false)

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-e2e-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let passwordFile = scratch.appendingPathComponent("password")
        guard FileManager.default.createFile(atPath: passwordFile.path, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write \(passwordFile.path)")
        }
        let bus = try await DBusDaemon.start()
        defer { bus.stop() }
        let recorder = try await RecordingNotificationServer.start(on: bus)
        defer { recorder.stop() }
        let world = World(tool: tool, server: server, bus: bus, recorder: recorder, scratch: scratch, passwordFile: passwordFile)
        for user in [corpusRead, corpusUnread] { try await warm(world, user: user) }

        print("# e2e: \(tool.binary) (plain IMAP, password by --password-command) beside "
              + (mailnagVersion.map { "mailnag \($0) (plain IMAP upgraded to STARTTLS, IDLE on INBOX, libnotifyplugin only)" } ?? "no mailnag"))
        print("# e2e: Dovecot 2.3 Maildir on 127.0.0.1:\(server.imapPort), private dbus-daemon, recording notification server in Python;"
              + " client state in \(scratch.path)")
        print("# e2e: latency: \(rounds) messages (+1 warm-up) into an INBOX that starts empty, each by IMAP APPEND from a second connection,"
              + " \(spacing) after the previous Notify; unread messages accumulate (0…\(rounds))")
        print("# e2e: memory: notmuch lkml corpus (\(corpus.originals) messages) repeated to \(corpusSize)"
              + " (\(corpus.distinctMessages) distinct Message-IDs), written as Maildir files, once all read and once all unread")
        if mailnagVersion == nil {
            print("# e2e: mailnag is not installed (\(Mailnag.executable) missing): only VaultMail's figures follow; \(Mailnag.installHint)")
        }
        fflush(nil)

        var keyring: KeyringDaemon?
        defer { keyring?.stop() }
        if mailnagVersion != nil { keyring = try await KeyringDaemon.start(on: bus) }
        if ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_E2E"] != "memory" {
            try await latency(world, mailnag: mailnagVersion != nil)
        }
        // Resident memory with 5,000 messages, read and unread.
        for (user, suffix) in [(corpusRead, ""), (corpusUnread, "-unread")] {
            let daemon = try await vaultmailMemory(world, user: user, expected: corpus.distinctMessages)
            Measure.report("rss-daemon-\(corpusSize)\(suffix)", daemon.residentMiB, "MiB", n: corpusSize)
            print("#   vaultmail daemon: \(daemon.summary)")
            guard mailnagVersion != nil else { continue }
            let mailnag = try await mailnagMemory(world, user: user, unread: !suffix.isEmpty)
            Measure.report("rss-mailnag-\(corpusSize)\(suffix)", mailnag.memory.residentMiB, "MiB", n: corpusSize)
            print("#   mailnag: \(mailnag.memory.summary)\(mailnag.bubble.map { "; its bubble: \($0)" } ?? "")")
            Measure.report("rss-daemon-vs-mailnag-\(corpusSize)\(suffix)", daemon.residentMiB / mailnag.memory.residentMiB, "x",
                           n: corpusSize)
        }
        if let keyring {
            let memory = try ProcessStatus.memory(of: keyring.processIdentifier)
            Measure.report("rss-keyring", memory.residentMiB, "MiB", n: corpusSize)
            print("#   gnome-keyring-daemon (mailnag cannot run without a Secret Service; VaultMail's --password-command needs none): \(memory.summary)")
        }
    }

    // MARK: - APPEND → Notify

    /// APPEND → Notify, ours and mailnag's.
    static func latency(_ world: World, mailnag: Bool) async throws {
        let ours = try await vaultmailLatency(world)
        var theirs: Latency?
        if mailnag { theirs = try await mailnagLatency(world) }
        let floor = ours.floor + (theirs?.floor ?? [])
        Measure.report("append-to-exists-floor", Measure.median(floor), "ms", n: floor.count)
        Measure.report("append-to-notify-vaultmail", Measure.median(ours.notify), "ms", n: ours.notify.count)
        Measure.report("append-to-notify-vaultmail-over-floor", Measure.median(ours.overFloor), "ms", n: ours.notify.count)
        describe("vaultmail", ours)
        if let theirs {
            Measure.report("append-to-notify-mailnag", Measure.median(theirs.notify), "ms", n: theirs.notify.count)
            Measure.report("append-to-notify-mailnag-over-floor", Measure.median(theirs.overFloor), "ms", n: theirs.notify.count)
            describe("mailnag", theirs)
            Measure.report("append-to-notify-vaultmail-vs-mailnag", Measure.median(ours.notify) / Measure.median(theirs.notify), "x",
                           n: ours.notify.count)
        }
    }

    static func vaultmailLatency(_ world: World) async throws -> Latency {
        let environment = vaultmailEnvironment(world, home: "vaultmail-latency")
        try await world.tool.addAccount(name: "bench", user: latencyOurs, port: world.server.imapPort, passwordFile: world.passwordFile,
                                        syncWindowDays: 30, environment: environment)
        let daemon = try world.tool.startDaemon(environment: environment)
        defer { daemon.stop() }
        try await daemon.waitForOutput("first sync done", timeout: .seconds(300))
        try await ProcessStatus.waitUntilQuiet(daemon.processIdentifier, name: "vaultmail daemon")
        return try await appendToNotify(world, user: latencyOurs, client: daemon, label: "vaultmail")
    }

    static func mailnagLatency(_ world: World) async throws -> Latency {
        let mailnag = try await Mailnag.configure(
            home: world.scratch.appendingPathComponent("mailnag-latency"), bus: world.bus, host: world.server.host,
            port: world.server.imapPort, user: latencyMailnag, password: password)
        let process = try mailnag.start()
        defer { process.stop() }
        try await process.waitForOutput(Mailnag.checkLine, timeout: .seconds(300))
        try await ProcessStatus.waitUntilQuiet(process.processIdentifier, name: "mailnag")
        return try await appendToNotify(world, user: latencyMailnag, client: process, label: "mailnag")
    }

    /// One warm-up and `rounds` timed arrivals into `user`'s INBOX, watched by `client` and by
    /// a bare IDLE connection of our own.
    static func appendToNotify(_ world: World, user: String, client: ChildProcess, label: String) async throws -> Latency {
        let appender = try await IMAPConnection.connect(to: world.endpoint)
        try await appender.login(user: user, password: Secret(password))
        let bare = try await IMAPConnection.connect(to: world.endpoint)
        try await bare.login(user: user, password: Secret(password))
        _ = try await bare.select("INBOX")
        var latency = Latency()
        do {
            for round in 0...rounds {
                let (notify, exists, call) = try await arrival(world, appender: appender, bare: bare, number: round, label: label, client: client)
                if round > 0 {
                    latency.notify.append(notify)
                    latency.floor.append(exists)
                }
                latency.lastSummary = call["summary"] as? String ?? ""
                latency.lastBody = call["body"] as? String ?? ""
                try await Task.sleep(for: spacing)
            }
        } catch {
            await appender.logout()
            await bare.logout()
            throw error
        }
        await appender.logout()
        await bare.logout()
        return latency
    }

    /// One APPEND: milliseconds until `Notify` reaches the recording server, and until the bare IDLE sees `* EXISTS`.
    static func arrival(
        _ world: World, appender: IMAPConnection, bare: IMAPConnection, number: Int, label: String, client: ChildProcess
    ) async throws -> (notify: Double, exists: Double, call: [String: Any]) {
        let notifiesBefore = world.recorder.calls("Notify").count
        let idle = Task { () async throws -> Double? in
            while true {
                let result = try await bare.idle(timeout: .seconds(120))
                if result.events.contains(where: { if case .exists = $0 { true } else { false } }) { return MonotonicClock.seconds() }
                if result.ending != .events { return nil }
            }
        }
        defer { idle.cancel() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !bare.isIdling {
            guard ContinuousClock.now < deadline else { throw Failure(description: "the bare IDLE connection did not enter IDLE within 30 s") }
            try await Task.sleep(for: .milliseconds(1))
        }
        let started = MonotonicClock.seconds()
        _ = try await appender.append(message(number, label: label), to: "INBOX")
        let call: [String: Any]
        do {
            call = try await world.recorder.waitForCall("Notify", count: notifiesBefore + 1, timeout: .seconds(60))
        } catch {
            throw Failure(description: "\(label): no Notify within 60 s of APPEND #\(number): \(error)\n--- \(label)'s output (end) ---\n"
                          + client.allOutput.suffix(3000))
        }
        guard let arrived = call["at"] as? Double else {
            throw Failure(description: "the recording server's Notify event has no \"at\" time stamp: \(RecordingNotificationServer.scriptPath) is older than this benchmark")
        }
        guard let exists = try await idle.value else {
            throw Failure(description: "the bare IDLE connection ended without reporting APPEND #\(number)")
        }
        return ((arrived - started) * 1000, (exists - started) * 1000, call)
    }

    static func message(_ number: Int, label: String) -> Data {
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return Data("""
            From: Sender \(number) <sender\(number)@example.org>\r
            To: bench@localhost\r
            Subject: \(label) arrival \(number)\r
            Date: \(date.string(from: Date()))\r
            Message-ID: <\(label)-\(number)-\(UUID().uuidString)@bench.vaultmail>\r
            \r
            Arrival \(number) of the e2e benchmark.\r

            """.utf8)
    }

    static func describe(_ label: String, _ latency: Latency) {
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        let f = { (value: Double) in String(format: "%.0f", value) }
        print("#   \(label): APPEND → Notify min \(f(latency.notify.min() ?? .nan)) / p90 \(f(percentile(latency.notify, 0.9)))"
              + " / max \(f(latency.notify.max() ?? .nan)) ms; floor of these APPENDs median \(f(Measure.median(latency.floor))) ms;"
              + " last bubble: \"\(latency.lastSummary)\" / \"\(latency.lastBody.replacingOccurrences(of: "\n", with: " "))\"")
    }

    // MARK: - Resident memory

    /// The daemon's VmRSS once its first sync of `user`'s 5,000 messages is done and it has been quiet for a second.
    static func vaultmailMemory(_ world: World, user: String, expected: Int) async throws -> ProcessStatus.Memory {
        let environment = vaultmailEnvironment(world, home: "vaultmail-\(user)")
        try await world.tool.addAccount(name: "bench", user: user, port: world.server.imapPort, passwordFile: world.passwordFile,
                                        syncWindowDays: 3650, environment: environment)
        let daemon = try world.tool.startDaemon(environment: environment)
        defer { daemon.stop() }
        try await daemon.waitForOutput("first sync done", timeout: .seconds(600))
        guard daemon.errorOutput.contains("synced bench: \(expected) new") else {
            throw Failure(description: "the daemon's first sync of \(user) did not store \(expected) emails: \(daemon.allOutput.suffix(3000))")
        }
        try await ProcessStatus.waitUntilQuiet(daemon.processIdentifier, name: "vaultmail daemon")
        let memory = try ProcessStatus.memory(of: daemon.processIdentifier)
        if let heap = daemon.allOutput.split(separator: "\n").last(where: { $0.contains("memory given back") }) {
            print("#   vaultmail daemon's log: \(heap)")
        }
        print("#   vaultmail daemon's anonymous memory by kind of mapping (smaps):")
        try AnonymousMemory.of(daemon.processIdentifier).lines.forEach { print($0) }
        return memory
    }

    /// mailnag's VmRSS once its first check of `user`'s INBOX is done (with unread mail: its
    /// bubble has been shown) and it has been quiet for a second.
    static func mailnagMemory(_ world: World, user: String, unread: Bool) async throws -> (memory: ProcessStatus.Memory, bubble: String?) {
        let mailnag = try await Mailnag.configure(
            home: world.scratch.appendingPathComponent("mailnag-\(user)"), bus: world.bus, host: world.server.host,
            port: world.server.imapPort, user: user, password: password)
        let notifiesBefore = world.recorder.calls("Notify").count
        let process = try mailnag.start()
        defer { process.stop() }
        try await process.waitForOutput(Mailnag.checkLine, timeout: .seconds(300))
        var bubble: String?
        if unread {
            let call = try await world.recorder.waitForCall("Notify", count: notifiesBefore + 1, timeout: .seconds(600))
            bubble = "\"\(call["summary"] as? String ?? "")\" / \"\(call["body"] as? String ?? "")\""
        }
        try await ProcessStatus.waitUntilQuiet(process.processIdentifier, name: "mailnag")
        return (try ProcessStatus.memory(of: process.processIdentifier), bubble)
    }

    // MARK: - Helpers

    static func vaultmailEnvironment(_ world: World, home: String) -> [String: String] {
        var environment = world.bus.environment()
        environment["VAULTMAIL_HOME"] = world.scratch.appendingPathComponent(home).path
        return environment
    }

    /// Dovecot builds its index of a Maildir on first access: done before any client, so each sees the same server.
    static func warm(_ world: World, user: String) async throws {
        let connection = try await IMAPConnection.connect(to: world.endpoint)
        try await connection.login(user: user, password: Secret(password))
        _ = try await connection.select("INBOX")
        _ = try await connection.fetchMessages(.all, items: [.flags, .size])
        await connection.logout()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
