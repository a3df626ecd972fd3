import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// One private world per test, as a user's machine would be: Dovecot (IMAPS) and the SMTP
/// server on loopback sharing one test CA, a private D-Bus with the recording notification
/// server, and a fresh VaultMail home. `vaultmail(…)` runs the built tool in it.
final class EndToEndWorld {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vaultmail").path
    /// Debian's qemu-user (scripts/install-deps.sh installs it): x86-64 programs on an emulated processor.
    static let qemu = "/usr/bin/qemu-x86_64"
    static let user = "ada"
    static let address = "ada@localhost"
    static let password = "ada-e2e-password"

    struct Output {
        var status: Int32
        var text: String
    }

    let dovecot: DovecotServer
    let smtp: SMTPTestServer
    let bus: DBusDaemon
    let notifications: RecordingNotificationServer
    let home: URL
    /// What the tool and the daemon run with (`setEnvironment` adds to it).
    private(set) var environment: [String: String]
    let otherClient: OtherIMAPClient
    private(set) var daemon: ChildProcess?
    /// The sealed network the tool, the daemon and the browser run in (issue 34), if any.
    let network: SealedNetwork?
    /// Where the tool finds the servers: 127.0.0.1, or this machine's end of the sealed network.
    var serverHost: String { network?.hostAddress ?? "127.0.0.1" }

    /// Starts the world, runs `body` in it and takes it down, whether `body` succeeds or not.
    /// `sealedIn`: the tool, the daemon and the browser run in that network namespace, and the
    /// servers listen on its host address too.
    static func with(sealedIn network: SealedNetwork? = nil, _ body: (EndToEndWorld) async throws -> Void) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the tool first (`swift build`): \(binary) is missing")
        let world = try await EndToEndWorld(network: network)
        do {
            try await body(world)
        } catch {
            await world.takeDown()
            throw error
        }
        await world.takeDown()
    }

    private init(network: SealedNetwork?) async throws {
        self.network = network
        let addresses = network.map { [$0.hostAddress] } ?? []
        dovecot = try await DovecotServer.start(users: [Self.user: Self.password], alsoListeningOn: addresses)
        smtp = try await SMTPTestServer.start(user: Self.user, password: Self.password, certificates: dovecot.certificates,
                                              alsoListeningOn: addresses)
        bus = try await DBusDaemon.start()
        notifications = try await RecordingNotificationServer.start(on: bus)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-e2e-\(UUID().uuidString.prefix(8))")
        var environment = bus.environment()
        environment["VAULTMAIL_HOME"] = home.path
        environment["TZ"] = TimeZone.current.identifier
        self.environment = environment
        otherClient = OtherIMAPClient(dovecot: dovecot, user: Self.user, password: Self.password)
    }

    private func takeDown() async {
        daemon?.stop()
        notifications.stop()
        smtp.stop()
        try? await dovecot.stop()
        bus.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// Sets (or, nil, removes) variables for the tool and the daemon started from now on.
    func setEnvironment(_ values: [String: String?]) {
        for (name, value) in values { environment[name] = value }
    }

    // MARK: The tool

    /// Runs `vaultmail arguments` to completion; `errors` mixes standard error into the text.
    /// `emulating` runs it under Debian's qemu-user as that processor model (`Nehalem`, `Haswell`).
    @discardableResult
    func vaultmail(_ arguments: [String], input: String? = nil, errors: Bool = true, emulating processor: String? = nil,
                   timeout: Duration = .seconds(120)) async throws -> Output {
        let (program, prefix) = processor.map { (Self.qemu, ["-cpu", $0, Self.binary]) } ?? (Self.binary, [])
        let command = inside(program, prefix + arguments)
        let result = try await ProcessCapture.run(command.program, command.arguments, environment: environment, input: input.map { Data($0.utf8) },
                                                  includeErrors: errors, timeout: timeout)
        return Output(status: result.status, text: String(decoding: result.output, as: UTF8.self))
    }

    /// `vaultmail account add work` against this world's servers, over TLS with the test CA.
    func addAccount(name: String = "work", user: String = user, imapPort: Int? = nil, passwordCommand: String = "echo \(password)") async throws {
        let added = try await vaultmail([
            "account", "add", name, "--email", "\(user)@localhost", "--imap", "\(serverHost):\(imapPort ?? dovecot.imapsPort)",
            "--smtp", "\(serverHost):\(smtp.tlsPort)", "--security", "tls", "--ca-file", dovecot.caFile, "--user", user,
            "--password-command", passwordCommand,
        ])
        try #require(added.status == 0, "account add failed: \(added.text)")
    }

    /// Starts `vaultmail daemon` (with `options`) and waits until its first sync is done and
    /// it is in IDLE on the inbox.
    /// With `accounts: false` (none added yet) it waits only for the web app.
    @discardableResult
    func startDaemon(_ options: [String] = [], accounts: Bool = true) async throws -> ChildProcess {
        // The web app on a free port, unless the test says otherwise: a fixed one may be taken.
        let web = options.contains("--web-port") || options.contains("--no-web") ? [] : ["--web-port", "0"]
        let command = inside(Self.binary, ["daemon"] + options + web)
        let process = try ChildProcess(command.program, command.arguments, environment: environment)
        daemon = process
        if !accounts {
            try await waitForLog("web app at http://127.0.0.1:")
            return process
        }
        try await waitForLog("first sync done")
        try await waitForLog("IDLE on the inbox")
        return process
    }

    /// `program arguments`, inside the sealed network when the world has one.
    func inside(_ program: String, _ arguments: [String]) -> (program: String, arguments: [String]) {
        network?.command(program, arguments) ?? (program, arguments)
    }

    /// Sends SIGTERM and waits (at most 10 s) for the daemon to exit, by the kernel's account.
    func stopDaemon() async throws -> (status: Int32, seconds: Double) {
        guard let daemon else { throw ChildProcess.Failure(description: "no daemon runs; call startDaemon() first") }
        let (duration, status) = await daemon.terminate(grace: .seconds(10))
        self.daemon = nil
        guard let status else { throw ChildProcess.Failure(description: "the daemon ignored SIGTERM for 10 s: \(daemon.errorOutput)") }
        return (status, duration / .seconds(1))
    }

    /// SIGKILL, as a crash or a power-off would, and waits until the kernel says it is gone.
    func killDaemon() async throws {
        guard let daemon else { throw ChildProcess.Failure(description: "no daemon runs; call startDaemon() first") }
        daemon.signal(SIGKILL)
        _ = await daemon.terminate(grace: .seconds(10))
        self.daemon = nil
    }

    /// Waits until the daemon's log has `text` `count` times.
    func waitForLog(_ text: String, count: Int = 1, timeout: Duration = .seconds(90)) async throws {
        guard let daemon else { throw ChildProcess.Failure(description: "no daemon runs; call startDaemon() first") }
        try await daemon.waitForOutput(text, count: count, timeout: timeout)
    }

    // MARK: Mail

    /// A message dated now, so it is recent enough to notify.
    static func message(_ subject: String, from: String = "Grace Hopper <grace@example.org>", messageId: String = "<\(UUID().uuidString)@example.org>",
                        headers: [String] = [], body: String = "Hello from the end-to-end test.", written: Date = Date()) -> Data {
        TestMessage(from: from, to: "Ada <\(address)>", subject: subject, date: written, timeZone: .current, messageId: messageId,
                    headers: headers, contentType: nil, body: body).data
    }

    /// Delivers `message` to `user`'s INBOX, as the mail server's delivery agent would.
    func deliver(_ message: Data, to user: String = user) throws {
        try dovecot.deliver(message, to: user)
    }

    /// Waits for the next `Notify` whose summary or body mentions `text`.
    @discardableResult
    func waitForNotification(mentioning text: String, timeout: Duration = .seconds(60)) async throws -> [String: Any] {
        try await notifications.waitForEvent(timeout: timeout) { event in
            event["event"] as? String == "call" && event["method"] as? String == "Notify"
                && ((event["body"] as? String ?? "") + (event["summary"] as? String ?? "")).contains(text)
        }
    }

    /// The badge as last set on the launcher.
    var badge: Int? {
        notifications.events.last { $0["event"] as? String == "launcher-update" }
            .flatMap { ($0["properties"] as? [String: [String: Any]])?["count"]?["value"] as? Int }
    }

    /// Waits until the badge last set is `count`.
    func waitForBadge(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        try await eventually("the badge at \(count) (it is \(badge.map(String.init) ?? "unset"))", timeout: timeout) { badge == count }
    }

    // MARK: What VaultMail recorded

    struct Decision: Decodable {
        var emailId, threadId, outcome, rule, explanation, subject: String
    }

    /// `vaultmail notify log --json`, newest first.
    func decisions(limit: Int = 1000) async throws -> [Decision] {
        let output = try await vaultmail(["notify", "log", "--limit", "\(limit)", "--json"], errors: false)
        try #require(output.status == 0, "notify log failed: \(output.text)")
        return try ToolJSON.decode([Decision].self, from: output.text)
    }

    /// The decision for the email whose subject is `subject`, waiting until it is recorded.
    func decision(about subject: String, timeout: Duration = .seconds(60)) async throws -> Decision {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if let found = try await decisions().first(where: { $0.subject == subject }) { return found }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ChildProcess.Failure(description: "no decision about '\(subject)' within \(timeout)")
    }

    struct ThreadSummary: Decodable {
        var id, subject: String
    }

    /// `vaultmail threads --json` for the inbox (or another folder).
    func inboxThreads(folder: String = "inbox") async throws -> [ThreadSummary] {
        struct Page: Decodable { var threads: [ThreadSummary] }
        let output = try await vaultmail(["threads", "--folder", folder, "--limit", "100", "--json"], errors: false)
        try #require(output.status == 0, "threads failed: \(output.text)")
        return try ToolJSON.decode(Page.self, from: output.text).threads
    }

    /// Polls `condition` every 200 ms until it holds (server state changes arrive
    /// asynchronously; many conditions run the tool).
    func eventually(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
        try await waitUntil(what, timeout: timeout, every: .milliseconds(200), condition)
    }
}
