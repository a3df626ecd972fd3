import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailSync
import VaultMailTesting

/// `vaultmail-bench sync`: the sync engine against a private Dovecot (plain IMAP on 127.0.0.1)
/// whose INBOX holds the notmuch `lkml` corpus (`../shared/test-material/threading/notmuch/
/// corpora/lkml`, read in place) repeated with rewritten Message-IDs to 5,000 messages, written
/// as Maildir files with Dovecot's `,S=<size>,W=<vsize>` suffix. Figures:
/// - `initial-sync`: messages per second of a whole-account initial sync (LIST, SEARCH, FETCH
///   of headers and bodies, GMime parsing, threading, storing in a WAL file store);
/// - `mbsync-initial-sync`: mbsync (isync) pulling the same mailbox into a Maildir, and the
///   ratio of the two, measured in the same run;
/// - `incremental-10`: a sync finding 10 new messages;
/// - `idle-latency`: APPEND by another connection → stored and reported by the IDLE monitor,
///   beside `idle-floor`, a bare IDLE client's APPEND → `* EXISTS` on the same server
///   (Dovecot holds IDLE notifications for 500 ms), and our overhead above that floor.
enum SyncBenchmarks {
    static let corpusSize = 5_000
    static let user = "bench"
    static let password = "bench password"

    /// Both halves; `VAULTMAIL_BENCH_SYNC=tmpfs` or `=disk` runs one (`SyncDiskBenchmarks` is
    /// the on-disk, real-mail, IMAPS and plain comparison of the `vaultmail sync` process).
    static func run() async throws {
        let only = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SYNC"] ?? ""
        if only != "disk" { try await runInProcess() }
        if only != "tmpfs" { try await SyncDiskBenchmarks.run() }
    }

    static func runInProcess() async throws {
        let corpus = try Corpus.load(repeatedTo: corpusSize)
        print("# sync: notmuch lkml corpus (\(corpus.originals) messages) repeated with rewritten Message-IDs to \(corpusSize)"
              + " (\(corpus.distinctMessages) distinct Message-IDs), Dovecot 2.3 Maildir, plain IMAP on 127.0.0.1;"
              + " local copies (our WAL store, mbsync's Maildir) on tmpfs")
        let server = try await DovecotServer.start(users: [user: password])
        try corpus.writeMaildir(home: server.directory.appendingPathComponent("home/\(user)"))
        // Both clients write their local copy to tmpfs when there is one: on this kind of VM, ext4's
        // inode allocation right after deletions slows file creation up to 5× (mbsync's Maildir,
        // our WAL), which would decide the ratio instead of the clients.
        let memory = URL(fileURLWithPath: "/dev/shm")
        let scratchBase = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
        let scratch = scratchBase.appendingPathComponent("vaultmail-bench-sync-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        // Warm the server's index (Dovecot builds it on first access), so both clients see the same server.
        let warm = try await IMAPConnection.connect(to: endpoint(server))
        try await warm.login(user: user, password: Secret(password))
        _ = try await warm.select("INBOX")
        _ = try await warm.fetchMessages(.all, items: [.flags, .size])
        await warm.logout()

        var ours: [Double] = []
        var theirs: [Double] = []
        var engine: Engine?
        for round in 0..<3 {
            theirs.append(try mbsyncInitial(server: server, scratch: scratch, round: round))
            let (seconds, synced) = try await initialSync(server: server, scratch: scratch, round: round, expected: corpus.distinctMessages)
            ours.append(seconds)
            engine = synced
        }
        let oursRate = Double(corpusSize) / Measure.median(ours)
        let theirRate = Double(corpusSize) / Measure.median(theirs)
        Measure.report("initial-sync", oursRate, "msg/s", n: corpusSize)
        Measure.report("mbsync-initial-sync", theirRate, "msg/s", n: corpusSize)
        Measure.report("initial-sync-vs-mbsync", oursRate / theirRate, "x", n: corpusSize)

        guard let engine else { return }
        try await incremental(server: server, engine: engine)
        try await idleLatency(server: server, engine: engine)
        await engine.sync.connections.closeAll()
        try await server.stop()
    }

    // MARK: - Figures

    struct Engine {
        let sync: SyncEmailsUseCase
        let database: AppDatabase
    }

    static func endpoint(_ server: DovecotServer) -> IMAPEndpoint {
        IMAPEndpoint(host: server.host, port: server.imapPort, security: .plain)
    }

    /// A fresh store and engine (made before timing), then one timed whole-account sync.
    static func initialSync(
        server: DovecotServer, scratch: URL, round: Int, expected: Int
    ) async throws -> (seconds: Double, engine: Engine) {
        try await initialSync(server: server, path: scratch.appendingPathComponent("ours-\(round)/store.sqlite").path, expected: expected)
    }

    /// A fresh store at `path` with the bench account, then one timed whole-account sync.
    static func initialSync(server: DovecotServer, path: String, expected: Int) async throws -> (seconds: Double, engine: Engine) {
        let database = try AppDatabase.open(path: path)
        let accounts = GRDBAccountRepository(database: database)
        let account = Account(
            id: "acct-bench", name: "bench", email: "bench@example.com", imapHost: server.host, imapPort: server.imapPort,
            smtpHost: server.host, smtpPort: 25, security: .plain, username: user, syncWindowDays: 36_500)
        try await accounts.addAccount(account)
        let sync = SyncEmailsUseCase(
            accounts: accounts, store: GRDBEmailRepository(database: database), syncStore: GRDBSyncRepository(database: database),
            parser: GMimeMessageParser(), connections: IMAPConnectionPool(credentials: FixedCredentialProvider([account.id: password])),
            options: SyncOptions(batchSize: 100, parallelParsing: 2))
        let started = ContinuousClock.now
        let new = try await sync.syncAccount(accountId: account.id)
        let seconds = (ContinuousClock.now - started).millis / 1000
        guard new.count == expected else {
            throw BenchFailure(description: "the initial sync must store \(expected) emails, stored \(new.count)")
        }
        return (seconds, Engine(sync: sync, database: database))
    }

    /// mbsync pulling INBOX into a fresh Maildir; seconds.
    static func mbsyncInitial(server: DovecotServer, scratch: URL, round: Int) throws -> Double {
        let (config, maildir) = try writeMbsyncConfig(
            in: scratch.appendingPathComponent("mbsync-\(round)"),
            connection: "Host \(server.host)\nPort \(server.imapPort)\nSSLType None\nAuthMechs LOGIN")
        let started = ContinuousClock.now
        try runTool("/usr/bin/mbsync", ["-q", "-c", config.path, "bench"])
        let seconds = (ContinuousClock.now - started).millis / 1000
        let fetched = try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("INBOX/cur").path).count
            + ((try? FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("INBOX/new").path).count) ?? 0)
        precondition(fetched == corpusSize, "mbsync must fetch \(corpusSize) messages, fetched \(fetched)")
        return seconds
    }

    /// An mbsync configuration pulling `user`'s INBOX into an empty Maildir in `directory`, with
    /// mbsync's defaults otherwise (`FSync yes`); `connection` holds the Host, Port, SSLType
    /// (and CertificateFile or AuthMechs) lines.
    static func writeMbsyncConfig(
        in directory: URL, connection: String, user: String = user, password: String = password
    ) throws -> (config: URL, maildir: URL) {
        let maildir = directory.appendingPathComponent("Maildir")
        try FileManager.default.createDirectory(at: maildir, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("mbsyncrc")
        try """
            IMAPAccount bench
            \(connection)
            User \(user)
            Pass "\(password)"

            IMAPStore remote
            Account bench

            MaildirStore local
            Path \(maildir.path)/
            Inbox \(maildir.path)/INBOX

            Channel bench
            Far :remote:
            Near :local:
            Patterns INBOX
            Create Near
            Sync Pull
            SyncState *

            """.write(to: config, atomically: true, encoding: .utf8)
        return (config, maildir)
    }

    /// 10 new messages APPENDed, then one timed sync; median of 7 rounds.
    static func incremental(server: DovecotServer, engine: Engine) async throws {
        let other = try await IMAPConnection.connect(to: endpoint(server))
        try await other.login(user: user, password: Secret(password))
        var samples: [Double] = []
        for round in 0..<7 {
            for n in 0..<10 {
                _ = try await other.append(message(id: "incremental-\(round)-\(n)"), to: "INBOX")
            }
            let started = ContinuousClock.now
            let new = try await engine.sync.syncAccount(accountId: "acct-bench")
            samples.append((ContinuousClock.now - started).millis)
            precondition(new.count == 10, "the incremental sync must find 10 new messages, found \(new.count)")
        }
        await other.logout()
        Measure.report("incremental-10", Measure.median(samples), "ms", n: corpusSize)
    }

    /// APPEND → `.newMail` from the IDLE monitor, and APPEND → `* EXISTS` for a bare IDLE.
    static func idleLatency(server: DovecotServer, engine: Engine) async throws {
        let other = try await IMAPConnection.connect(to: endpoint(server))
        try await other.login(user: user, password: Secret(password))
        defer { Task { await other.logout() } }

        // The floor: a bare IDLE on its own connection.
        let bare = try await IMAPConnection.connect(to: endpoint(server))
        try await bare.login(user: user, password: Secret(password))
        _ = try await bare.select("INBOX")
        var floor: [Double] = []
        for round in 0..<9 {
            let idle = Task { try await bare.idle(timeout: .seconds(30)) }
            while !bare.isIdling { try await Task.sleep(for: .milliseconds(2)) }
            _ = try await other.append(message(id: "floor-\(round)"), to: "INBOX")
            let appended = ContinuousClock.now
            let result = try await idle.value
            precondition(result.ending == .events, "the bare IDLE must report the APPEND")
            floor.append((ContinuousClock.now - appended).millis)
        }
        await bare.logout()
        // Let the engine store the floor's messages before measuring it.
        try await engine.sync.syncAccount(accountId: "acct-bench")

        var watch = MonitorWatch(IDLEMonitorUseCase(sync: engine.sync), label: "idle-latency") { event in
            guard case .newMail(let emails) = event else { return nil }
            return emails
        }
        defer { watch.cancel() }
        await watch.listening()
        var samples: [Double] = []
        for round in 0..<9 {
            _ = try await other.append(message(id: "idle-\(round)"), to: "INBOX")
            let appended = ContinuousClock.now
            let emails = await watch.arrival()
            samples.append((ContinuousClock.now - appended).millis)
            precondition(emails.count == 1, "the monitor must report the one new message")
            await watch.listening()
        }
        let ours = Measure.median(samples)
        let bareFloor = Measure.median(floor)
        Measure.report("idle-latency", ours, "ms", n: corpusSize)
        Measure.report("idle-floor", bareFloor, "ms", n: corpusSize)
        Measure.report("idle-overhead", ours - bareFloor, "ms", n: corpusSize)
    }

    static func message(id: String) -> Data {
        Data("""
            From: Bench <bench@example.com>\r
            To: bench@example.com\r
            Subject: \(id)\r
            Date: \(Date().formatted(.iso8601))\r
            Message-ID: <\(id)-\(UUID().uuidString)@bench.vaultmail>\r
            \r
            A new message.\r

            """.utf8)
    }

    static func runTool(_ executable: String, _ arguments: [String]) throws {
        let result = try ProcessCapture.run(executable, arguments)
        let text = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0 else {
            throw BenchFailure(description: "\(executable) exited with \(result.status): \(text)")
        }
    }

    struct BenchFailure: Error, CustomStringConvertible {
        var description: String
    }
}

extension SyncBenchmarks {
    /// The corpus: each original message once per repetition, its msg-ids rewritten so each
    /// repetition threads on its own.
    struct Corpus {
        let originals: Int
        let messages: [[UInt8]]
        /// Distinct Message-IDs: the corpus has copies of some messages, stored once each.
        let distinctMessages: Int

        static func load(repeatedTo size: Int) throws -> Corpus {
            let folder = "threading/notmuch/corpora/lkml"
            let files = try TestMaterial.files(under: folder)
            let originals = try files.map { try TestMaterial.bytes(folder, $0) }
            var messages: [[UInt8]] = []
            messages.reserveCapacity(size)
            var repetition = 0
            while messages.count < size {
                for original in originals where messages.count < size {
                    messages.append(rewrite(original, repetition: repetition))
                }
                repetition += 1
            }
            return Corpus(originals: originals.count, messages: messages, distinctMessages: distinctIds(messages))
        }

        /// How many emails the messages are for the store: distinct Message-IDs, where two
        /// different messages under one Message-ID are two (`EmailIdentity`).
        static func distinctIds(_ messages: [[UInt8]]) -> Int {
            let parser = GMimeMessageParser()
            return Set(messages.map { message -> String in
                let parsed = parser.parse(message)
                return parsed.stableMessageId + " " + EmailIdentity.fingerprint(
                    fromAddress: parsed.sender?.email ?? "", dateSent: parsed.date, subject: parsed.subject,
                    bodyPlain: parsed.textPlain, bodyHTML: parsed.textHTML, attachmentSizes: parsed.attachments.map(\.size))
            }).count
        }

        /// `<id>` → `<r<n>.id>` in Message-ID, In-Reply-To and References (and their folded lines).
        static func rewrite(_ message: [UInt8], repetition: Int) -> [UInt8] {
            let text = String(decoding: message, as: UTF8.self)
            guard let end = text.range(of: "\n\n") ?? text.range(of: "\r\n\r\n") else { return message }
            var header = String(text[..<end.lowerBound])
            let body = text[end.lowerBound...]
            var lines: [String] = []
            var inIdHeader = false
            for line in header.split(separator: "\n", omittingEmptySubsequences: false) {
                let isContinuation = line.first == " " || line.first == "\t"
                if !isContinuation {
                    let name = line.prefix { $0 != ":" }.lowercased()
                    inIdHeader = name == "message-id" || name == "in-reply-to" || name == "references"
                }
                lines.append(inIdHeader ? line.replacingOccurrences(of: "<", with: "<r\(repetition).") : String(line))
            }
            header = lines.joined(separator: "\n")
            return Array((header + body).utf8)
        }

        /// Maildir files named as Dovecot names them (`,S=<size>,W=<vsize>`), owned like the home;
        /// `seen: false` leaves every message unread.
        func writeMaildir(home: URL, seen: Bool = true) throws {
            let manager = FileManager.default
            let maildir = home.appendingPathComponent("Maildir")
            for sub in ["cur", "new", "tmp"] {
                try manager.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            let base = Int(Date().timeIntervalSince1970) - messages.count
            for (index, message) in messages.enumerated() {
                // The virtual size counts each line end as CRLF: a bare LF gains a byte, a CRLF none.
                let lineFeeds = message.indices.reduce(0) { count, at in
                    count + (message[at] == 0x0A && (at == 0 || message[at - 1] != 0x0D) ? 1 : 0)
                }
                let name = "\(base + index).M\(index)P\(getpid()).bench,S=\(message.count),W=\(message.count + lineFeeds):2,\(seen ? "S" : "")"
                try Data(message).write(to: maildir.appendingPathComponent("cur/\(name)"))
            }
            let owner = try manager.attributesOfItem(atPath: home.path)
            let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value ?? getuid()
            let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value ?? getgid()
            if let walker = manager.enumerator(atPath: maildir.path) {
                chown(maildir.path, uid, gid)
                for case let relative as String in walker { chown(maildir.appendingPathComponent(relative).path, uid, gid) }
            }
        }
    }
}

extension Duration {
    var seconds: Double { millis / 1000 }
}
