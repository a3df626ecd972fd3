import Foundation
import Synchronization

/// A private Dovecot IMAP server (Debian `dovecot-imapd`, `/usr/sbin/dovecot`) for tests.
///
/// Everything lives in a fresh temporary directory: configuration, `base_dir`, state, log,
/// TLS certificates, a passwd-file of users with `{PLAIN}` passwords, and Maildir storage.
/// It listens on 127.0.0.1 only, on two free ports it picks (plain IMAP with STARTTLS, and
/// IMAPS); when another process grabs a port first it retries with new ones. Start-up waits
/// until the server greets, not for a fixed time. `stop()`, `kill()` and `restart()` keep the
/// ports, so a test can kill Dovecot under a client and bring it back. `deinit` kills the
/// server and removes the directory; the package-wide Dovecot service is never touched.
///
/// **Run as root** (CI): Dovecot drops privileges itself. Its login processes run as
/// `dovenull`, its internal processes as `dovecot` (`default_login_user`,
/// `default_internal_user`; both exist once dovecot-core is installed), and mail is owned by
/// the unprivileged `mail` user (uid 8; Dovecot refuses to access mail as root), so the home
/// directories are chowned to it and `first_valid_uid` is lowered to its uid. The temporary
/// directory is mode 0755 so those users can reach the passwd-file and their homes.
/// **Run as another user**: everything runs as that user and the login processes are not
/// chrooted.
///
/// Dovecot delays IDLE notifications by about half a second by design.
public final class DovecotServer: Sendable {
    /// Which certificate the server presents.
    public enum Certificate: Sendable {
        /// Signed by the test CA (`caFile`) for localhost, 127.0.0.1 and ::1.
        case trusted
        /// Self-signed for localhost: no client should trust it.
        case selfSigned
        /// Signed by the test CA, but for mail.example.org only.
        case wrongHost
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        /// The end of Dovecot's log.
        public var log: String
        public var description: String { "\(message)\n--- Dovecot log (end) ---\n\(log)" }
    }

    public let directory: URL
    /// Always 127.0.0.1.
    public let host = "127.0.0.1"
    /// Plain IMAP (STARTTLS offered).
    public let imapPort: Int
    /// IMAP over implicit TLS.
    public let imapsPort: Int
    public let certificates: TestCertificates
    /// The PEM file of the CA that signed the trusted certificate.
    public var caFile: String { certificates.caFile }
    public let logFile: String
    public let configFile: String
    private let passwdFile: String
    /// Listened on besides 127.0.0.1.
    private let addresses: [String]
    private let mailUID: UInt32
    private let mailGID: UInt32

    private struct State {
        var pid: pid_t?
        var removeDirectoryOnDeinit = true
    }

    private let state = Mutex(State())

    /// Starts a server presenting `certificate`, with `users` (name → password) already added.
    /// `capabilities`, when given, replaces what Dovecot announces after login (its
    /// `imap_capability` setting), e.g. to see how a client copes without MOVE or CONDSTORE;
    /// Dovecot still understands every command.
    ///
    /// `oauth2Introspection`, when given, is an RFC 7662 endpoint (`OAuthTestServer`'s) that
    /// Dovecot's `oauth2` passdb asks about every XOAUTH2 / OAUTHBEARER token; passwords still
    /// log in through the passwd-file.
    ///
    /// `alsoListeningOn`: further local IP addresses it listens on (same ports), which the
    /// trusted certificate names too — a sealed network namespace's way to the server.
    public static func start(
        certificate: Certificate = .trusted, users: [String: String] = [:], capabilities: [String]? = nil,
        oauth2Introspection: URL? = nil, alsoListeningOn addresses: [String] = []
    ) async throws -> DovecotServer {
        let directory = try makeDirectory()
        do {
            let certificates = try TestCertificates.make(in: directory.appendingPathComponent("tls"), addresses: addresses)
            var lastError: (any Error)?
            for _ in 0..<5 {
                let ports = try freePorts(count: 2)
                let server = try DovecotServer(
                    directory: directory, certificates: certificates, certificate: certificate,
                    capabilities: capabilities, oauth2Introspection: oauth2Introspection, addresses: addresses, imapPort: ports[0],
                    imapsPort: ports[1])
                do {
                    for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                        try server.addUser(user, password: password)
                    }
                    try await server.launch()
                    return server
                } catch let failure as Failure where failure.log.contains("Address already in use") {
                    server.forgetDirectory()
                    server.kill()
                    lastError = failure
                    continue  // another process took a port between our probe and Dovecot's bind
                } catch {
                    server.forgetDirectory()
                    server.kill()
                    throw error
                }
            }
            throw lastError ?? Failure(message: "Dovecot could not start", log: "")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(
        directory: URL, certificates: TestCertificates, certificate: Certificate, capabilities: [String]?,
        oauth2Introspection: URL? = nil, addresses: [String] = [], imapPort: Int, imapsPort: Int
    ) throws {
        self.directory = directory
        self.addresses = addresses
        self.certificates = certificates
        self.imapPort = imapPort
        self.imapsPort = imapsPort
        logFile = directory.appendingPathComponent("dovecot.log").path
        configFile = directory.appendingPathComponent("dovecot.conf").path
        passwdFile = directory.appendingPathComponent("passwd").path
        let isRoot = getuid() == 0
        let owner: (uid: UInt32, gid: UInt32) = isRoot ? Self.account(named: "mail") : (getuid(), getgid())
        mailUID = owner.uid
        mailGID = owner.gid

        let fileManager = FileManager.default
        for name in ["run", "state", "home"] {
            try fileManager.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        if !fileManager.fileExists(atPath: passwdFile) {
            try "".write(toFile: passwdFile, atomically: true, encoding: .utf8)
        }
        let (cert, key): (String, String) =
            switch certificate {
            case .trusted: (certificates.serverCertificate, certificates.serverKey)
            case .selfSigned: (certificates.selfSignedCertificate, certificates.selfSignedKey)
            case .wrongHost: (certificates.wrongHostCertificate, certificates.wrongHostKey)
            }
        // Dovecot reads the key as root (or as us); keep it private to the owner.
        chmod(key, 0o600)
        var oauth2Passdb = ""
        if let oauth2Introspection {
            let oauth2File = directory.appendingPathComponent("dovecot-oauth2.conf.ext").path
            try """
                introspection_mode = post
                introspection_url = \(oauth2Introspection.absoluteString)
                force_introspection = yes
                username_attribute = username
                active_attribute = active
                active_value = true

                """.write(toFile: oauth2File, atomically: true, encoding: .utf8)
            oauth2Passdb = """

                passdb {
                  driver = oauth2
                  mechanisms = xoauth2 oauthbearer
                  args = \(oauth2File)
                }
                """
        }
        try configuration(isRoot: isRoot, certificate: cert, key: key, capabilities: capabilities, oauth2Passdb: oauth2Passdb)
            .write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    deinit {
        kill()
        if state.withLock({ $0.removeDirectoryOnDeinit }) {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func forgetDirectory() {
        state.withLock { $0.removeDirectoryOnDeinit = false }
    }

    // MARK: Users and mail

    /// Adds a user with a plain-text password (test data only) and an empty home.
    public func addUser(_ name: String, password: String) throws {
        guard !name.isEmpty, !(name + password).contains(where: { $0 == ":" || $0.isNewline }) else {
            throw Failure(message: "a test user name or password may not contain ':' or a line break", log: "")
        }
        let home = directory.appendingPathComponent("home").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        chown(home.path, mailUID, mailGID)
        let line = "\(name):{PLAIN}\(password):\(mailUID):\(mailGID)::\(home.path)::\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: passwdFile))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }

    /// Stores `message` in `user`'s `mailbox` from outside any IMAP session (`doveadm save`),
    /// as a delivery would; IDLE clients are notified.
    public func deliver(_ message: Data, to user: String, mailbox: String = "INBOX") throws {
        try doveadm(["save", "-u", user, "-m", mailbox], input: message)
    }

    /// Runs `doveadm` against this server (e.g. `["flags", "add", "-u", "ada", "\\Seen",
    /// "mailbox", "INBOX", "uid", "1"]`) and returns its output.
    @discardableResult
    public func doveadm(_ arguments: [String], input: Data? = nil) throws -> String {
        try CommandRunner.run("/usr/bin/doveadm", ["-c", configFile] + arguments, input: input)
    }

    // MARK: Log

    /// The whole log so far.
    public func log() -> String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    }

    /// The current length of the log, to read only what comes after (`log(since:)`).
    public func logMark() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int) ?? 0
    }

    /// The log written after `mark`.
    public func log(since mark: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: logFile) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(mark))
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Waits until the log written after `mark` satisfies `condition`.
    public func waitForLog(
        since mark: Int = 0, timeout: Duration = .seconds(30), _ condition: (String) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(log(since: mark)) {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "the expected log line did not appear within \(timeout)", log: logTail())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func logTail() -> String {
        String(log().suffix(4000))
    }

    // MARK: Process

    public var isRunning: Bool {
        state.withLock { $0.pid != nil }
    }

    /// Stops the server (SIGTERM to all its processes) and waits until its ports are closed.
    /// Processes still there after two seconds are killed: Dovecot's master otherwise waits
    /// up to six seconds for a login process that ignores the request.
    public func stop() async throws {
        guard let pid = state.withLock({ $0.pid }) else { return }
        Glibc.kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(2)
        while !reap(pid, block: false) {
            if ContinuousClock.now > deadline {
                kill()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Glibc.kill(-pid, SIGKILL)  // stragglers of the process group, if any
        try await waitUntilPortsClosed()
    }

    /// Kills every process of the server at once (SIGKILL to its process group), as a crash
    /// would: clients see their connections drop.
    public func kill() {
        guard let pid = state.withLock({ $0.pid }) else { return }
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
        Glibc.kill(-pid, SIGCONT)  // a suspended process only dies once it runs
        _ = reap(pid, block: true)
    }

    /// Freezes every process of the server (SIGSTOP): connections stay open but nothing is
    /// answered, as when a network path silently drops packets. `resume()` undoes it.
    public func suspend() {
        guard let pid = state.withLock({ $0.pid }) else { return }
        Glibc.kill(-pid, SIGSTOP)
    }

    /// Lets a suspended server run again (SIGCONT).
    public func resume() {
        guard let pid = state.withLock({ $0.pid }) else { return }
        Glibc.kill(-pid, SIGCONT)
    }

    /// Starts the server again on the same ports and directory (mail is kept), stopping it
    /// first if it runs.
    public func restart() async throws {
        if isRunning { try await stop() }
        try await waitUntilPortsClosed()
        removeStaleLocks()
        // The ports came from the ephemeral range: a client socket may hold one for a while.
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while true {
            do {
                try await launch()
                return
            } catch let failure as Failure where failure.log.contains("Address already in use") && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// A process killed while syncing a Maildir leaves `dovecot-uidlist.lock` behind, and the
    /// next Dovecot waits two minutes (`MAILDIR_UIDLIST_LOCK_STALE_TIMEOUT`) before overriding
    /// it: remove such locks while no Dovecot runs, as that timeout eventually would.
    private func removeStaleLocks() {
        let home = directory.appendingPathComponent("home")
        guard let walker = FileManager.default.enumerator(atPath: home.path) else { return }
        for case let relative as String in walker where relative.hasSuffix("dovecot-uidlist.lock") {
            try? FileManager.default.removeItem(at: home.appendingPathComponent(relative))
        }
    }

    private func launch() async throws {
        let mark = logMark()
        let pid = try Self.spawn(["/usr/sbin/dovecot", "-F", "-c", configFile], output: logFile)
        state.withLock { $0.pid = pid }
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if reap(pid, block: false) {
                throw Failure(message: "Dovecot exited during start-up", log: log(since: mark))
            }
            if Self.greets(port: imapPort), Self.accepts(port: imapsPort) { return }
            if ContinuousClock.now > deadline {
                kill()
                throw Failure(message: "Dovecot did not answer on 127.0.0.1:\(imapPort) within 60 s", log: logTail())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// True once `pid` has exited (and is reaped).
    private func reap(_ pid: pid_t, block: Bool) -> Bool {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, block ? 0 : WNOHANG)
            if result == -1 && errno == EINTR { continue }
            if result == pid || (result == -1 && errno == ECHILD) {
                state.withLock { if $0.pid == pid { $0.pid = nil } }
                return true
            }
            return false
        }
    }

    private func waitUntilPortsClosed() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.accepts(port: imapPort) || Self.accepts(port: imapsPort) {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "Dovecot's ports stayed open after it stopped", log: logTail())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: Helpers

    private func configuration(isRoot: Bool, certificate: String, key: String, capabilities: [String]?, oauth2Passdb: String) -> String {
        let me = Self.userName(of: getuid())
        let internalUser = isRoot ? "dovecot" : me
        let loginUser = isRoot ? "dovenull" : me
        let internalGroup = isRoot ? "dovecot" : Self.groupName(of: getgid())
        let chroot = isRoot ? "" : "\n  chroot ="
        let path = directory.path
        let listenAddresses = (["127.0.0.1"] + addresses).joined(separator: ", ")
        let capabilityLine = capabilities.map { "\n  imap_capability = " + $0.joined(separator: " ") } ?? ""
        return """
            # Written by VaultMailTesting.DovecotServer for one test run.
            instance_name = vaultmail-\(imapPort)
            base_dir = \(path)/run
            state_dir = \(path)/state
            log_path = \(logFile)
            listen = \(listenAddresses)
            protocols = imap
            default_internal_user = \(internalUser)
            default_login_user = \(loginUser)
            default_internal_group = \(internalGroup)
            first_valid_uid = \(mailUID)
            first_valid_gid = \(min(mailGID, 1))
            ssl = yes
            ssl_cert = <\(certificate)
            ssl_key = <\(key)
            disable_plaintext_auth = no
            auth_mechanisms = plain login xoauth2\(oauth2Passdb.isEmpty ? "" : " oauthbearer")
            auth_verbose = yes
            auth_failure_delay = 0
            # No statistics: a login process waiting for the stats writer delays shutdown by 5 s.
            stats_writer_socket_path =
            mail_location = maildir:~/Maildir
            mailbox_idle_check_interval = 1 secs
            protocol imap {
              mail_max_userip_connections = 100\(capabilityLine)
            }
            passdb {
              driver = passwd-file
              args = scheme=PLAIN \(passwdFile)\(oauth2Passdb.isEmpty ? "" : "\n  mechanisms = plain login")
            }\(oauth2Passdb)
            userdb {
              driver = passwd-file
              args = \(passwdFile)
            }
            service imap-login {\(chroot)
              inet_listener imap {
                address = \(listenAddresses)
                port = \(imapPort)
              }
              inet_listener imaps {
                address = \(listenAddresses)
                port = \(imapsPort)
                ssl = yes
              }
            }
            service anvil {\(chroot)
              # No brute-force penalty: the tests fail logins on purpose from 127.0.0.1.
              unix_listener anvil-auth-penalty {
                mode = 0
              }
            }
            namespace inbox {
              inbox = yes
              separator = /
              mailbox Drafts {
                special_use = \\Drafts
                auto = subscribe
              }
              mailbox Sent {
                special_use = \\Sent
                auto = subscribe
              }
              mailbox Trash {
                special_use = \\Trash
                auto = subscribe
              }
              mailbox Junk {
                special_use = \\Junk
                auto = subscribe
              }
              mailbox Archive {
                special_use = \\Archive
                auto = subscribe
              }
            }

            """
    }

    private static func makeDirectory() throws -> URL {
        var template = Array((NSTemporaryDirectory() + "/vaultmail-dovecot-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw Failure(message: "cannot create a temporary directory: \(String(cString: strerror(errno)))", log: "")
        }
        let path = String(cString: created)
        chmod(path, 0o755)  // Dovecot's unprivileged processes must reach their files
        return URL(fileURLWithPath: path)
    }

    private static func account(named name: String) -> (uid: UInt32, gid: UInt32) {
        guard let entry = getpwnam(name) else { return (65534, 65534) }  // nobody
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private static func userName(of uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "nobody" }
        return String(cString: name)
    }

    private static func groupName(of gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "nogroup" }
        return String(cString: name)
    }

    /// Ports the kernel reports free on 127.0.0.1 right now (bound to port 0, then released).
    private static func freePorts(count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(message: "socket() failed", log: "") }
            sockets.append(fd)
            var address = loopback(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
                }
            }
            guard bound else { throw Failure(message: "no free port on 127.0.0.1", log: "") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// A blocking connection to 127.0.0.1:`port` with one-second send and receive timeouts.
    private static func openConnection(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func accepts(port: Int) -> Bool {
        guard let fd = openConnection(port: port) else { return false }
        close(fd)
        return true
    }

    /// True when the server on `port` sends its `* OK` greeting.
    private static func greets(port: Int) -> Bool {
        guard let fd = openConnection(port: port) else { return false }
        defer { close(fd) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.count < 4096 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += buffer[0..<count]
            if received.contains(0x0A) { return received.starts(with: Array("* OK".utf8)) }
        }
        return false
    }

    /// Starts `arguments` in a new process group (so `kill()` reaches every Dovecot process),
    /// with default signal handling and mask, stdin from /dev/null and output appended to `output`.
    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw Failure(message: "cannot start \(arguments[0]): \(String(cString: strerror(status)))", log: "")
        }
        return pid
    }
}
