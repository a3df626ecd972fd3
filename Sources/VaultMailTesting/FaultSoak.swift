import Foundation
import VaultMailCore

/// The fault-injection soak of issue 34: VaultMail's daemon and tool at work against a real
/// Dovecot, the SMTP test server and a private bus with the recording notification server,
/// while mail arrives, another IMAP client (doveadm) flags, moves and expunges, the tool acts on
/// mail and sends — and faults come on a schedule drawn from `seed` (`SplitMix64`): the same
/// seed, the same schedule. Afterwards, with faults off and the daemon settled, `run` checks the
/// invariants and returns them with the faults by kind. Used by `vaultmail-bench soak --seed N
/// --faults K` (long form) and by `FaultSoakTests` (short form, in the suite).
///
/// Messages are split in two: the tool acts only on `Tool …` mail and the other client only on
/// `Other …` mail, each in a conversation of its own, so what each did can be told apart.
public struct FaultSoak: Sendable {
    /// One kind of fault.
    public enum Fault: String, CaseIterable, Sendable, Comparable {
        case killDaemon = "SIGKILL of the daemon"
        case killTool = "SIGKILL of a tool command mid-action"
        case stopDaemon = "SIGSTOP/SIGCONT of the daemon"
        case killDovecot = "Dovecot killed and restarted"
        case smtpTemporary = "SMTP answering 4xx"
        case smtpPermanent = "SMTP answering 5xx"
        case smtpGone = "SMTP server gone"
        case diskFull = "disk full under the store"

        public static func < (lhs: Fault, rhs: Fault) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// An invariant and what broke it (nothing, when it holds).
    public struct Invariant: Sendable {
        public var name: String
        public var violations: [String]
        public var holds: Bool { violations.isEmpty }
    }

    /// What a soak did and found.
    public struct Report: Sendable, CustomStringConvertible {
        public var seed: UInt64
        public var faults: [Fault: Int]
        public var invariants: [Invariant]
        /// Counts of what went on: messages delivered, tool actions done and failed, sends…
        public var activity: [String: Int]
        public var seconds: Double
        public var holds: Bool { invariants.allSatisfy(\.holds) }

        public var description: String {
            var lines = ["soak seed=\(seed) faults=\(faults.values.reduce(0, +)) in \(String(format: "%.0f", seconds)) s"]
            for fault in Fault.allCases { lines.append("  fault \(fault.rawValue): \(faults[fault, default: 0])") }
            for (name, count) in activity.sorted(by: { $0.key < $1.key }) { lines.append("  \(name): \(count)") }
            for invariant in invariants {
                lines.append("  \(invariant.holds ? "ok  " : "FAIL") \(invariant.name)")
                for violation in invariant.violations.prefix(20) { lines.append("         \(violation)") }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// How a send the tool left queued ("the daemon sends it by itself") may rightly end without
    /// arriving, named for the report; nil when its ending is a defect. Two endings are right:
    /// - a retry of the daemon met the soak's own 5xx (`refusedForGood`, which only the SMTP
    ///   server's record can tell): refused for good, so `failed` with "Not sent", never retried;
    /// - the daemon was killed while the message was going out: its fate is unknown, so `failed`
    ///   with "Maybe sent" (`NotSentAdvice.fateUnknown`), never sent twice by itself.
    /// Any other `failed`, or a message stuck `sending`, breaks the promise.
    public static func rightEnding(ofQueuedSend state: String, reason: String, refusedForGood: Bool) -> String? {
        guard state == "failed" else { return nil }
        if NotSentAdvice.fateUnknown(reason) { return queuedSendEndings[1] }
        if refusedForGood { return queuedSendEndings[0] }
        return nil
    }

    /// The names `rightEnding(ofQueuedSend:reason:refusedForGood:)` gives, counted in the report.
    static let queuedSendEndings = [
        "queued sends refused for good on the daemon's retry (the soak's 5xx)",
        "queued sends ended maybe sent (the daemon or the server stopped mid-send)",
    ]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The built `vaultmail` tool.
    public var tool: String
    public var seed: UInt64
    /// How many faults to inject.
    public var faults: Int
    /// Progress lines (one per step), e.g. `print`.
    public var log: @Sendable (String) -> Void

    public init(tool: String, seed: UInt64, faults: Int, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.tool = tool
        self.seed = seed
        self.faults = faults
        self.log = log
    }

    static let user = "ada"
    static let password = "soak-password"

    /// Runs the soak and returns what it found; throws only when the world cannot be set up or
    /// does not settle.
    public func run() async throws -> Report {
        let world = try await World.start(tool: tool)
        do {
            let report = try await Run(soak: self, world: world).go()
            await world.takeDown()
            return report
        } catch {
            await world.takeDown()
            throw error
        }
    }
}

extension FaultSoak {
    /// The servers, the bus and the VaultMail home of one soak.
    final class World: @unchecked Sendable {
        // @unchecked: the daemon is replaced only by the soak's one task.
        let tool: String
        let dovecot: DovecotServer
        let smtp: SMTPTestServer
        let bus: DBusDaemon
        let notifications: RecordingNotificationServer
        let home: URL
        /// The small filesystem the home is on, filled for the `diskFull` fault.
        let disk: SmallFilesystem
        let environment: [String: String]
        var daemon: ChildProcess?
        /// Daemon runs that ended by our SIGKILL, and their output.
        var endedDaemons: [(killed: Bool, status: Int32?, output: String)] = []

        static func start(tool: String) async throws -> World {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                throw Failure(description: "the vaultmail tool is missing at \(tool): build it first (`swift build --product vaultmail`)")
            }
            let dovecot = try await DovecotServer.start(users: [user: password])
            let smtp = try await SMTPTestServer.start(user: user, password: password, certificates: dovecot.certificates)
            let bus = try await DBusDaemon.start()
            let notifications = try await RecordingNotificationServer.start(on: bus)
            // The home on a tmpfs of its own (root, as CI), so the disk can really fill under the store.
            let disk = try SmallFilesystem(size: 96 << 20)
            let home = disk.directory.appendingPathComponent("home")
            var environment = bus.environment()
            environment["VAULTMAIL_HOME"] = home.path
            return World(tool: tool, dovecot: dovecot, smtp: smtp, bus: bus, notifications: notifications, home: home, disk: disk,
                         environment: environment)
        }

        private init(tool: String, dovecot: DovecotServer, smtp: SMTPTestServer, bus: DBusDaemon, notifications: RecordingNotificationServer,
                     home: URL, disk: SmallFilesystem, environment: [String: String]) {
            self.tool = tool
            self.dovecot = dovecot
            self.smtp = smtp
            self.bus = bus
            self.notifications = notifications
            self.home = home
            self.disk = disk
            self.environment = environment
        }

        func takeDown() async {
            daemon?.stop()
            notifications.stop()
            smtp.stop()
            try? await dovecot.stop()
            bus.stop()
            disk.unmount()
        }

        var database: String { home.appendingPathComponent("vaultmail.sqlite").path }

        /// `vaultmail arguments` to completion.
        func vaultmail(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(120)) async throws -> (status: Int32, text: String, signalled: Bool) {
            let result = try await ProcessCapture.run(tool, arguments, environment: environment, input: input.map { Data($0.utf8) },
                                                      includeErrors: true, timeout: timeout)
            return (result.status, String(decoding: result.output, as: UTF8.self), !result.exitedNormally)
        }

        func startDaemon() throws {
            daemon = try ChildProcess(tool, ["daemon", "--web-port", "0", "--sync-interval", "10"], environment: environment)
        }

        /// SIGKILLs the daemon, waits for its end and starts another.
        func killDaemon() async throws {
            guard let daemon else { return }
            daemon.signal(SIGCONT)
            daemon.signal(SIGKILL)
            _ = ChildProcess.waitForExit(daemon.processIdentifier, seconds: 10)
            endedDaemons.append((true, nil, daemon.allOutput))
            try await waitForDaemonLockFree()
            try startDaemon()
        }

        /// Waits until no process holds the daemon's lock (`daemon.lock`'s flock). A killed
        /// process shows as a zombie while its other threads still close its files, so the lock
        /// can outlive the moment `waitForExit` sees it gone; a service manager waits the same way.
        func waitForDaemonLockFree() async throws {
            let path = home.appendingPathComponent("daemon.lock").path
            try await waitUntil("the killed daemon's lock released", timeout: .seconds(30), every: .milliseconds(20)) {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { return true }
                defer { close(descriptor) }
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
                _ = flock(descriptor, LOCK_UN)
                return true
            }
        }

        /// Read-only SQL on the store, through SQLite's own shell (an independent reader).
        func sql(_ query: String) throws -> [[String]] {
            let output = try CommandRunner.run("/usr/bin/sqlite3", ["-readonly", "-separator", "\t", database, query])
            return output.split(separator: "\n", omittingEmptySubsequences: true).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }

        /// Every message on the server: mailbox, uid, flags, Message-ID.
        func serverMessages() throws -> [ServerMessage] {
            let output = try dovecot.doveadm(["-f", "tab", "fetch", "-u", user, "mailbox uid flags hdr.message-id", "all"])
            return output.split(separator: "\n").dropFirst().compactMap { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 4, let uid = Int(fields[1]) else { return nil }
                return ServerMessage(mailbox: fields[0], uid: uid, flags: Set(fields[2].split(separator: " ").map(String.init)),
                                     messageId: fields[3].trimmingCharacters(in: .whitespaces))
            }
        }
    }

    struct ServerMessage: Hashable {
        var mailbox: String
        var uid: Int
        var flags: Set<String>
        var messageId: String
    }
}
