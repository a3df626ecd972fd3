import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
import VaultMailSync
import VaultMailTesting

/// `vaultmail-bench freshness` (issue 17): how soon mail that lands in another folder than the
/// inbox (Junk here, as a server-side filter would file it) is in the store while the IDLE
/// monitor runs, by each of its two ways of watching the other folders. Private Dovecot 2.3,
/// plain IMAP on 127.0.0.1; the store a WAL file on tmpfs; INBOX holds the notmuch lkml corpus
/// repeated to 1,000 messages, and 10 user folders of 20 messages each sit beside the five
/// special-use ones. Figures (medians of 9 APPENDs by another connection):
/// - `junk-notify`: APPEND to Junk → `.folderSynced` with it, by NOTIFY on the IDLE connection;
/// - `junk-status-check`: the same by STATUS checks every 5 s (the default; forced here on the
///   same server, the path a server without NOTIFY takes); each APPEND comes at a random point
///   of the interval, so the median is about half of it plus the sync;
/// - `status-check-no-change`: one check that finds nothing (one STATUS per other folder).
enum FreshnessBenchmarks {
    static let inboxSize = 1_000
    static let userFolders = 10
    static let perFolder = 20
    static let rounds = 9
    static let user = "bench"
    static let password = "bench password"

    static func run() async throws {
        let corpus = try SyncBenchmarks.Corpus.load(repeatedTo: inboxSize)
        let server = try await DovecotServer.start(users: [user: password])
        try corpus.writeMaildir(home: server.directory.appendingPathComponent("home/\(user)"))
        let other = try await IMAPConnection.connect(to: SyncBenchmarks.endpoint(server))
        try await other.login(user: user, password: Secret(password))
        for folder in 0..<userFolders {
            try await other.createMailbox("Project \(folder)")
            for n in 0..<perFolder { _ = try await other.append(message(id: "folder-\(folder)-\(n)"), to: "Project \(folder)") }
        }
        let memory = URL(fileURLWithPath: "/dev/shm")
        let scratchBase = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
        let scratch = scratchBase.appendingPathComponent("vaultmail-bench-freshness-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stored = corpus.distinctMessages + userFolders * perFolder
        let (_, engine) = try await SyncBenchmarks.initialSync(
            server: server, path: scratch.appendingPathComponent("store.sqlite").path, expected: stored)
        let folders = try await GRDBEmailRepository(database: engine.database).getFolders(accountId: "acct-bench")
        let others = folders.filter { $0.folderType != .inbox }.count
        print("# freshness: INBOX \(inboxSize) messages (notmuch lkml repeated), \(others) other folders"
              + " (\(userFolders) of \(perFolder) messages), \(stored) emails stored; Dovecot 2.3, plain IMAP on 127.0.0.1")
        fflush(nil)

        let notify = try await junkLatency(engine: engine, other: other, options: IDLEMonitorOptions(), label: "notify", jitter: nil)
        Measure.report("junk-notify", notify, "ms", n: stored)
        let checks = IDLEMonitorOptions(otherFolders: .statusChecks)
        let status = try await junkLatency(engine: engine, other: other, options: checks, label: "status", jitter: checks.statusCheckInterval)
        Measure.report("junk-status-check", status, "ms", n: stored)
        let noChange = try await Measure.medianMillis(runs: 15) {
            let changed = try await engine.sync.foldersChangedOnServer(accountId: "acct-bench", skipping: Set(folders.filter { $0.folderType == .inbox }.map(\.id)))
            precondition(changed.isEmpty, "nothing changed, yet the check found \(changed.map(\.path))")
        }
        Measure.report("status-check-no-change", noChange, "ms", n: others)
        await other.logout()
        await engine.sync.connections.closeAll()
        try await server.stop()
    }

    /// APPEND to Junk → `.folderSynced` carrying it; median milliseconds over `rounds`.
    /// `jitter`: a random wait up to this long before each APPEND (so STATUS checks are met at
    /// every point of their interval).
    static func junkLatency(
        engine: SyncBenchmarks.Engine, other: IMAPConnection, options: IDLEMonitorOptions, label: String, jitter: Duration?
    ) async throws -> Double {
        var watch = MonitorWatch(IDLEMonitorUseCase(sync: engine.sync, options: options), label: "freshness: \(label)") { event in
            guard case .folderSynced(let folder, let report) = event, folder.folderType == .spam, !report.newEmails.isEmpty else { return nil }
            return report.newEmails
        }
        defer { watch.cancel() }
        await watch.listening()
        var samples: [Double] = []
        var random = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            if let jitter {
                try await Task.sleep(for: .milliseconds(Int.random(in: 0..<max(1, Int(jitter.millis)), using: &random)))
            }
            _ = try await other.append(message(id: "junk-\(label)-\(round)"), to: "Junk")
            let appended = ContinuousClock.now
            let emails = await watch.arrival()
            samples.append((ContinuousClock.now - appended).millis)
            precondition(emails.count == 1, "the monitor must report the one new message in Junk, reported \(emails.count)")
        }
        return Measure.median(samples)
    }

    static func message(id: String) -> Data {
        SyncBenchmarks.message(id: id)
    }
}
