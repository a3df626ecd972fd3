import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// The on-disk half of `vaultmail-bench sync` (issue 18): the built `vaultmail sync` tool beside
/// mbsync, each the whole process as a user runs it, on real mail, on the machine's disk, each
/// with its own default durability (ours: SQLite WAL; mbsync: `FSync yes`), over IMAPS with
/// one test certificate and over plain IMAP, against one private Dovecot.
///
/// Corpus: `SearchCorpus` (the notmuch `lkml` and `default` corpora and SpamAssassin's ham,
/// repeated with rewritten Message-IDs to 5,000), written as Maildir files with Dovecot's
/// `,S=,W=` names and indexed by Dovecot before either client connects. As the peers README
/// says: each initial run starts from an empty local copy, the previous run's copy moved aside
/// untimed before and deleted after timing; more than a second between mbsync runs (it sleeps a
/// second when its Maildir changed within the current second).
///
/// Figures (per transport `imaps` / `plain`):
/// - `disk-initial-<t>` / `disk-mbsync-initial-<t>`: msg/s, median of 3 (one warm-up);
/// - `disk-no-change-<t>` / `disk-mbsync-no-change-<t>`: ms, median of 5;
/// - `disk-new-10-<t>` / `disk-mbsync-new-10-<t>`: 10 APPENDed, then one timed sync; median of 5;
/// - a `#` line with the commands one no-change sync of ours sends (Dovecot's rawlog).
///
/// `VAULTMAIL_BENCH_TOOL=<binary>`: that `vaultmail` instead of the one built beside the bench.
/// `VAULTMAIL_BENCH_SYNC_PERF=<file>`: one more initial sync over IMAPS under `perf record -g`,
/// then a no-change sync under it (`<file>.no-change`).
enum SyncDiskBenchmarks {
    static let corpusSize = 5_000
    static let user = "disk"
    static let password = "bench password"

    enum Transport: String, CaseIterable {
        case imaps, plain
    }

    struct World {
        let tool: VaultMailTool
        let server: DovecotServer
        let scratch: URL
        let passwordFile: URL
    }

    static func run() async throws {
        // `VAULTMAIL_BENCH_TOOL`: a given `vaultmail` binary (e.g. an earlier build kept for a before/after).
        let given = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_TOOL"].flatMap { $0.isEmpty ? nil : $0 }
        let tool: VaultMailTool
        if let given { tool = VaultMailTool(binary: given) } else { tool = try await VaultMailTool.locate() }
        let corpus = try SearchCorpus.load(repeatedTo: corpusSize)
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("# sync on disk: real mail (\(corpus.originals) messages of notmuch lkml + default and SpamAssassin ham) repeated"
              + " with rewritten Message-IDs to \(corpusSize) (\(corpus.distinctMessages) distinct), Dovecot 2.3 Maildir;"
              + " the `vaultmail sync` process vs mbsync (FSync yes), both on disk; load \(load)")
        let server = try await DovecotServer.start(users: [user: password])
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vaultmail-bench-disk-\(getpid())")) }
        do {
            try await run(server: server, tool: tool, corpus: corpus)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    static func run(server: DovecotServer, tool: VaultMailTool, corpus: SearchCorpus) async throws {
        try corpus.write(home: server.directory.appendingPathComponent("home/\(user)"))
        // On the disk, not tmpfs: that is what this half measures.
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vaultmail-bench-disk-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let passwordFile = scratch.appendingPathComponent("password")
        guard FileManager.default.createFile(atPath: passwordFile.path, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw SyncBenchmarks.BenchFailure(description: "cannot write \(passwordFile.path)")
        }
        let world = World(tool: tool, server: server, scratch: scratch, passwordFile: passwordFile)

        // Dovecot builds its index on first access: before either client is timed.
        let warm = try await IMAPConnection.connect(to: IMAPEndpoint(host: server.host, port: server.imapPort, security: .plain))
        try await warm.login(user: user, password: Secret(password))
        _ = try await warm.select("INBOX")
        _ = try await warm.fetchMessages(.all, items: [.flags, .size, .internalDate])
        await warm.logout()

        for transport in Transport.allCases {
            try await measure(transport, world: world, expected: corpus.distinctMessages)
        }
        if let perfFile = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SYNC_PERF"], !perfFile.isEmpty {
            let home = try await freshHome(world, transport: .imaps, name: "perf")
            try SyncBenchmarks.runTool("/usr/bin/perf", ["record", "-g", "-o", perfFile, "--", tool.binary, "--home", home.path, "sync"])
            try SyncBenchmarks.runTool("/usr/bin/perf", ["record", "-g", "-o", perfFile + ".no-change", "--", tool.binary, "--home", home.path, "sync"])
            print("# perf profiles of one IMAPS initial sync: \(perfFile), and of a no-change sync after it: \(perfFile).no-change")
            try? FileManager.default.removeItem(at: home)
        }
    }

    static func measure(_ transport: Transport, world: World, expected: Int) async throws {
        let t = transport.rawValue
        var ours: [Double] = []
        var theirs: [Double] = []
        var oursHome = world.scratch
        var theirConfig = world.scratch
        // One warm-up each (page cache, Dovecot's caches), then three timed rounds.
        for round in 0..<4 {
            let config = try mbsyncConfig(world, transport: transport, name: "\(t)-\(round)")
            try await pause()
            let theirSeconds = try TimedProcess.run("/usr/bin/mbsync", ["-q", "-c", config.path, "bench"], environment: nil) / 1000
            let copied = try checkMaildir(config.deletingLastPathComponent().appendingPathComponent("Maildir/INBOX"))
            if round == 0 { print("#   mbsync \(t): \(copied) messages in its Maildir") }
            let home = try await freshHome(world, transport: transport, name: "\(t)-\(round)")
            let ourSeconds = try timedSync(world, home: home) / 1000
            print("#   initial \(t) round \(round): ours \(String(format: "%.2f", ourSeconds)) s, mbsync \(String(format: "%.2f", theirSeconds)) s")
            fflush(nil)
            if round > 0 {
                ours.append(ourSeconds)
                theirs.append(theirSeconds)
            }
            // The previous round's copies go after this round was timed.
            if round > 0 {
                try? FileManager.default.removeItem(at: oursHome)
                try? FileManager.default.removeItem(at: theirConfig.deletingLastPathComponent())
            }
            oursHome = home
            theirConfig = config
        }
        let ourRate = Double(corpusSize) / Measure.median(ours)
        let theirRate = Double(corpusSize) / Measure.median(theirs)
        Measure.report("disk-initial-\(t)", ourRate, "msg/s", n: corpusSize)
        Measure.report("disk-mbsync-initial-\(t)", theirRate, "msg/s", n: corpusSize)
        Measure.report("disk-initial-\(t)-vs-mbsync", ourRate / theirRate, "x", n: corpusSize)
        print("#   initial \(t) seconds: ours \(ours.map { String(format: "%.2f", $0) }), mbsync \(theirs.map { String(format: "%.2f", $0) })")

        // No change: the state both just made.
        var oursNoChange: [Double] = []
        var theirsNoChange: [Double] = []
        for _ in 0..<6 {
            try await pause()
            theirsNoChange.append(try TimedProcess.run("/usr/bin/mbsync", ["-q", "-c", theirConfig.path, "bench"], environment: nil))
            oursNoChange.append(try timedSync(world, home: oursHome))
        }
        report("disk-no-change-\(t)", ours: Array(oursNoChange.dropFirst()), theirs: Array(theirsNoChange.dropFirst()))

        // 10 new messages, then each syncs.
        let other = try await IMAPConnection.connect(to: IMAPEndpoint(host: world.server.host, port: world.server.imapPort, security: .plain))
        try await other.login(user: user, password: Secret(password))
        var oursNew: [Double] = []
        var theirsNew: [Double] = []
        for round in 0..<6 {
            for n in 0..<10 {
                _ = try await other.append(SyncBenchmarks.message(id: "disk-\(t)-\(round)-\(n)"), to: "INBOX")
            }
            try await pause()
            theirsNew.append(try TimedProcess.run("/usr/bin/mbsync", ["-q", "-c", theirConfig.path, "bench"], environment: nil))
            oursNew.append(try timedSync(world, home: oursHome))
        }
        await other.logout()
        report("disk-new-10-\(t)", ours: Array(oursNew.dropFirst()), theirs: Array(theirsNew.dropFirst()))

        if transport == .plain {
            // What one no-change sync sends, as Dovecot saw it.
            let rawlog = try await world.server.recordClientCommands()
            _ = try timedSync(world, home: oursHome)
            let commands = DovecotServer.clientCommands(in: rawlog).values.flatMap { $0 }
                .map { $0.split(separator: " ").dropFirst().prefix(3).joined(separator: " ") }
                .filter { !$0.uppercased().hasPrefix("LOGIN") }
            print("#   one no-change sync sends \(commands.count) commands: \(commands.joined(separator: " | "))")
        }
        try? FileManager.default.removeItem(at: oursHome)
        try? FileManager.default.removeItem(at: theirConfig.deletingLastPathComponent())
    }

    /// One timed `vaultmail --home <home> sync` (milliseconds); its output goes to `sync.log` in
    /// the home and is shown when it fails.
    static func timedSync(_ world: World, home: URL) throws -> Double {
        let log = home.appendingPathComponent("sync.log")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let homePath: String = home.path
        let arguments: [String] = [world.tool.binary, "--home", homePath, "sync"]
        let argv = arguments.map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let spawned = posix_spawn(&pid, world.tool.binary, &actions, nil, argv, variables)
        guard spawned == 0 else {
            throw SyncBenchmarks.BenchFailure(description: "cannot start \(world.tool.binary): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let millis = (ContinuousClock.now - started).millis
        guard status == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw SyncBenchmarks.BenchFailure(description: "vaultmail sync exited with status \(status):\n\(text.suffix(2000))")
        }
        return millis
    }

    static func report(_ figure: String, ours: [Double], theirs: [Double]) {
        let mine = Measure.median(ours)
        let peer = Measure.median(theirs)
        Measure.report(figure, mine, "ms", n: corpusSize)
        Measure.report(figure.replacingOccurrences(of: "disk-", with: "disk-mbsync-"), peer, "ms", n: corpusSize)
        Measure.report("\(figure)-vs-mbsync", mine / peer, "x", n: corpusSize)
    }

    /// mbsync leaves a second between runs (see the peers README).
    static func pause() async throws {
        try await Task.sleep(for: .milliseconds(1_100))
    }

    /// A new `VAULTMAIL_HOME` with the account (all mail), made untimed.
    static func freshHome(_ world: World, transport: Transport, name: String) async throws -> URL {
        let home = world.scratch.appendingPathComponent("ours-\(name)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let port = transport == .imaps ? world.server.imapsPort : world.server.imapPort
        var arguments = ["--home", home.path, "account", "add", "bench", "--email", "\(user)@localhost",
                         "--imap", "127.0.0.1:\(port)", "--smtp", "127.0.0.1:2525", "--user", user,
                         "--sync-window-days", "all", "--password-command", "cat \(world.passwordFile.path)"]
        arguments += transport == .imaps ? ["--security", "tls", "--ca-file", world.server.caFile] : ["--security", "plain"]
        try await world.tool.run(arguments, environment: ProcessInfo.processInfo.environment)
        return home
    }

    /// An mbsync configuration with an empty Maildir beside it; mbsync's defaults otherwise
    /// (`FSync yes`).
    static func mbsyncConfig(_ world: World, transport: Transport, name: String) throws -> URL {
        let connection = transport == .imaps
            ? "Host localhost\nPort \(world.server.imapsPort)\nSSLType IMAPS\nCertificateFile \(world.server.caFile)"
            : "Host \(world.server.host)\nPort \(world.server.imapPort)\nSSLType None\nAuthMechs LOGIN"
        return try SyncBenchmarks.writeMbsyncConfig(in: world.scratch.appendingPathComponent("mbsync-\(name)"), connection: connection,
                                                    user: user, password: password).config
    }

    static func checkMaildir(_ inbox: URL) throws -> Int {
        let count = ((try? FileManager.default.contentsOfDirectory(atPath: inbox.appendingPathComponent("cur").path).count) ?? 0)
            + ((try? FileManager.default.contentsOfDirectory(atPath: inbox.appendingPathComponent("new").path).count) ?? 0)
        // mbsync skips a few messages of the corpus (15 of 5,000 here); more missing is a failure.
        guard count >= corpusSize * 99 / 100 else {
            throw SyncBenchmarks.BenchFailure(description: "mbsync fetched \(count) of \(corpusSize) messages")
        }
        return count
    }
}
