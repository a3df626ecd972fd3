import Foundation

/// A real SMTP server for tests: `scripts/test-smtp-server.py` run by Debian's
/// `/usr/bin/python3` with `python3-aiosmtpd`, on 127.0.0.1 (and any address of `alsoListeningOn`).
///
/// It listens on two ports picked at random below the kernel's ephemeral range (see
/// `candidatePorts`; another is tried when one is taken): plain with STARTTLS (`port`) and
/// implicit TLS (`tlsPort`), both with AUTH PLAIN / LOGIN
/// for one user (the password reaches the script through its environment, never its command
/// line) and XOAUTH2 with `token`. The certificate is one of `TestCertificates`' (pass the
/// Dovecot server's so one CA file serves both). Every message received is kept byte for byte
/// (`messages`); every connection, command verb and AUTH attempt is reported (`commands`,
/// `authAttempts`). `stop()` and `restart()` (same ports) let a test take the server away and
/// bring it back; `deinit` stops it and removes its directory.
public final class SMTPTestServer: @unchecked Sendable {
    // @unchecked: `process` and `earlierLines` are only touched under `lock`; the rest is immutable.
    public enum Certificate: Sendable {
        /// Signed by the test CA for localhost, 127.0.0.1 and ::1.
        case trusted
        /// Self-signed: no client should trust it.
        case selfSigned
        /// Signed by the test CA for mail.example.org only.
        case wrongHost
    }

    /// One message as it arrived: the envelope and the exact bytes stored.
    public struct ReceivedMessage: Sendable, Hashable {
        public var mailFrom: String
        public var recipients: [String]
        public var raw: Data
    }

    public struct AuthAttempt: Sendable, Hashable {
        public var mechanism: String
        public var login: String
        public var success: Bool

        public init(mechanism: String, login: String, success: Bool) {
            self.mechanism = mechanism
            self.login = login
            self.success = success
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let host = "127.0.0.1"
    /// Plain SMTP, STARTTLS offered (AUTH only after it).
    public let port: Int
    /// SMTP over implicit TLS.
    public let tlsPort: Int
    public let user: String
    public let password: String
    public let token: String?
    /// An RFC 7662 endpoint XOAUTH2 tokens are checked against (`OAuthTestServer`'s), instead of `token`.
    public let introspection: URL?
    /// AUTH mechanisms the server does not offer (`["XOAUTH2"]` leaves OAUTHBEARER alone for tokens).
    public let excludedMechanisms: [String]
    public let certificates: TestCertificates
    public var caFile: String { certificates.caFile }
    public let directory: URL
    /// Listened on besides 127.0.0.1.
    public let addresses: [String]
    private let certificate: Certificate
    private let lock = NSLock()
    private var process: ChildProcess?
    /// Output of the processes of earlier runs (before a restart).
    private var earlierLines: [String] = []
    private var earlierErrors = ""

    /// Where the script lives, found from this file's place in the repository.
    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-smtp-server.py").path

    /// Starts a server presenting `certificate` from `certificates` (made fresh when nil).
    /// `alsoListeningOn`: further local IP addresses it listens on (same ports); `certificates`
    /// must name them (`TestCertificates.make(in:addresses:)`).
    public static func start(
        user: String = "ada", password: String = "correct horse battery staple", token: String? = nil,
        introspection: URL? = nil, excludedMechanisms: [String] = [], certificate: Certificate = .trusted,
        certificates: TestCertificates? = nil, alsoListeningOn addresses: [String] = []
    ) async throws -> SMTPTestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("vaultmail-smtp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("messages"), withIntermediateDirectories: true)
        do {
            let tls = directory.appendingPathComponent("tls")
            let certs: TestCertificates
            if let certificates {
                certs = certificates
            } else {
                certs = try await BlockingWork.run { try TestCertificates.make(in: tls) }
            }
            var attempt = 0
            var ports: (Int, Int)
            var process: ChildProcess
            while true {
                ports = Self.candidatePorts()
                process = try launch(
                    directory: directory, certificates: certs, certificate: certificate, user: user, password: password,
                    token: token, introspection: introspection, excludedMechanisms: excludedMechanisms, addresses: addresses,
                    ports: ports)
                do {
                    _ = try await process.waitForLine(timeout: .seconds(60)) { $0.contains("\"ready\"") }
                    break
                } catch {
                    process.stop()
                    attempt += 1
                    guard attempt < 50, Self.portWasTaken(process) else { throw error }
                }
            }
            let (port, tlsPort) = ports
            let server = SMTPTestServer(
                port: port, tlsPort: tlsPort, user: user, password: password, token: token, introspection: introspection,
                excludedMechanisms: excludedMechanisms, certificates: certs, directory: directory, certificate: certificate,
                addresses: addresses)
            server.lock.withLock { server.process = process }
            return server
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(
        port: Int, tlsPort: Int, user: String, password: String, token: String?, introspection: URL?,
        excludedMechanisms: [String], certificates: TestCertificates, directory: URL, certificate: Certificate,
        addresses: [String]
    ) {
        self.addresses = addresses
        self.port = port
        self.tlsPort = tlsPort
        self.user = user
        self.password = password
        self.token = token
        self.introspection = introspection
        self.excludedMechanisms = excludedMechanisms
        self.certificates = certificates
        self.directory = directory
        self.certificate = certificate
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func launch(
        directory: URL, certificates: TestCertificates, certificate: Certificate, user: String, password: String,
        token: String?, introspection: URL?, excludedMechanisms: [String], addresses: [String], ports: (Int, Int)?
    ) throws -> ChildProcess {
        let (cert, key): (String, String) =
            switch certificate {
            case .trusted: (certificates.serverCertificate, certificates.serverKey)
            case .selfSigned: (certificates.selfSignedCertificate, certificates.selfSignedKey)
            case .wrongHost: (certificates.wrongHostCertificate, certificates.wrongHostKey)
            }
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_SMTP_PASSWORD"] = password
        environment["VAULTMAIL_SMTP_TOKEN"] = token
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONWARNINGS"] = "ignore"
        var arguments = [
            scriptPath, "--out", directory.appendingPathComponent("messages").path, "--cert", cert, "--key", key,
            "--user", user,
        ]
        if let (port, tlsPort) = ports { arguments += ["--port", String(port), "--tls-port", String(tlsPort)] }
        if let introspection { arguments += ["--introspection-url", introspection.absoluteString] }
        for mechanism in excludedMechanisms { arguments += ["--exclude-auth", mechanism] }
        for address in addresses { arguments += ["--also-listen", address] }
        return try ChildProcess("/usr/bin/python3", arguments, environment: environment)
    }

    // MARK: Process

    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Stops the server (SIGTERM): connections are refused until `restart()`.
    public func stop() {
        let running = lock.withLock { () -> ChildProcess? in
            let current = process
            process = nil
            if let current {
                earlierLines += current.lines
                earlierErrors += current.errorOutput
            }
            return current
        }
        running?.stop()
    }

    /// Starts the server again on the same ports (messages received so far are kept). Waits
    /// while another process still holds a port, up to `timeout`.
    public func restart(timeout: Duration = .seconds(60)) async throws {
        stop()
        let deadline = ContinuousClock.now + timeout
        while true {
            let process = try Self.launch(
                directory: directory, certificates: certificates, certificate: certificate, user: user,
                password: password, token: token, introspection: introspection, excludedMechanisms: excludedMechanisms,
                addresses: addresses, ports: (port, tlsPort))
            do {
                _ = try await process.waitForLine(timeout: .seconds(60)) { $0.contains("\"ready\"") }
                lock.withLock { self.process = process }
                return
            } catch {
                process.stop()
                guard ContinuousClock.now < deadline, Self.portWasTaken(process) else {
                    throw Failure(description: "the SMTP test server did not restart on ports \(port)/\(tlsPort): \(error)")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Two distinct ports below Linux's ephemeral range (32768–60999). Servers that bind port 0
    /// (Dovecot's harness, the kernel for client sockets) get ephemeral ports; staying out of
    /// that range means this server never takes the port of a server another test has just
    /// stopped and is about to restart on the same port — nor the other way round.
    static func candidatePorts() -> (Int, Int) {
        let port = Int.random(in: 20_000..<32_000)
        var tlsPort = Int.random(in: 20_000..<32_000)
        while tlsPort == port { tlsPort = Int.random(in: 20_000..<32_000) }
        return (port, tlsPort)
    }

    /// The script exited because a port was in use.
    private static func portWasTaken(_ process: ChildProcess) -> Bool {
        process.errorOutput.lowercased().contains("address already in use")
    }

    // MARK: What happened

    /// Every event so far (all runs), decoded.
    public var events: [[String: Any]] {
        let lines = lock.withLock { earlierLines + (process?.lines ?? []) }
        return lines.compactMap { try? Self.decode($0) }
    }

    /// Everything the server printed (all runs), standard error included: for proving that a
    /// secret it was not given never reached it.
    public var output: String {
        lock.withLock {
            (earlierLines + (process?.lines ?? [])).joined(separator: "\n") + earlierErrors + (process?.errorOutput ?? "")
        }
    }

    /// The verbs of the commands received (`EHLO`, `STARTTLS`, `AUTH`, `MAIL` …), in order.
    public var commands: [String] {
        events.filter { $0["event"] as? String == "command" }.compactMap { $0["verb"] as? String }
    }

    /// How many connections were accepted (after the TLS handshake for implicit TLS).
    public var connectionCount: Int {
        events.filter { $0["event"] as? String == "connect" }.count
    }

    public var authAttempts: [AuthAttempt] {
        events.filter { $0["event"] as? String == "auth" }.map {
            AuthAttempt(
                mechanism: $0["mechanism"] as? String ?? "", login: $0["login"] as? String ?? "",
                success: $0["success"] as? Bool ?? false)
        }
    }

    /// Every message received so far, in order.
    public var messages: [ReceivedMessage] {
        events.filter { $0["event"] as? String == "message" }.compactMap { event in
            guard let path = event["path"] as? String, let raw = FileManager.default.contents(atPath: path) else { return nil }
            return ReceivedMessage(
                mailFrom: event["mail_from"] as? String ?? "", recipients: event["rcpt_tos"] as? [String] ?? [], raw: raw)
        }
    }

    /// The subjects of the messages refused so far by `setDataReply`, with the reply they got.
    public var refusals: [(subject: String, reply: String)] {
        events.filter { $0["event"] as? String == "refused" }.map {
            (subject: $0["subject"] as? String ?? "", reply: $0["reply"] as? String ?? "")
        }
    }

    /// Waits until at least `count` messages arrived and returns them all.
    @discardableResult
    public func waitForMessages(count: Int, timeout: Duration = .seconds(60)) async throws -> [ReceivedMessage] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = messages
            if received.count >= count { return received }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(received.count) of \(count) messages arrived within \(timeout); events: \(events.suffix(20))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until an event satisfies `predicate`.
    public func waitForEvent(timeout: Duration = .seconds(60), where predicate: @Sendable ([String: Any]) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !events.contains(where: predicate) {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "the expected event did not come within \(timeout); events: \(events.suffix(20))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until what the server recorded satisfies `condition` (it logs each command as it
    /// handles it, which may be just after the client has its reply), at most `timeout`.
    /// Returns without failing when it never does: the caller's expectation then shows what was recorded.
    public func settle(timeout: Duration = .seconds(10), until condition: (SMTPTestServer) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(self), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Behaviour

    /// Makes the server answer the end of DATA with `reply` (e.g. "451 4.3.0 Try again later")
    /// instead of accepting; nil accepts again.
    public func setDataReply(_ reply: String?) async throws {
        try await command(["set": "data_reply", "value": reply.map { $0 as Any } ?? NSNull()])
    }

    /// Makes the server keep the next messages but close the connection after DATA's final dot,
    /// before its reply: the client cannot know whether they were accepted. `setDataReply(nil)` ends it.
    public func hangUpAfterData() async throws {
        try await setDataReply("hang-up")
    }

    /// Makes the server refuse these recipients with 550.
    public func rejectRecipients(_ addresses: [String]) async throws {
        try await command(["set": "reject_rcpt", "value": addresses])
    }

    private func command(_ command: [String: Any]) async throws {
        guard let process = lock.withLock({ self.process }) else { throw Failure(description: "the SMTP test server is stopped") }
        let before = process.lines.filter { $0.contains("\"done\"") }.count
        let data = try JSONSerialization.data(withJSONObject: command)
        try process.send(String(decoding: data, as: UTF8.self))
        var seen = 0
        var from = 0
        while seen <= before {
            let (_, index) = try await process.waitForLine(from: from) { $0.contains("\"done\"") }
            seen += 1
            from = index + 1
        }
    }

    private static func decode(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(line)")
        }
        return object
    }
}
