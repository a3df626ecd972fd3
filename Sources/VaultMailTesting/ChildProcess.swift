import Foundation

/// A process a test starts and always stops: its output is collected line by line, and a
/// test waits for a line it expects (a condition, never a fixed sleep) within a generous limit.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `stdoutLines`, `stderrText` and the partial buffers are guarded by `lock`;
    // `readers` is set once, in `init`.
    private let process = Process()
    private let lock = NSLock()
    private var stdoutLines: [String] = []
    private var stderrText = ""
    private var partial = Data()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var readers: [PipeReader] = []
    public let name: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                currentDirectory: URL? = nil) throws {
        name = (executable as NSString).lastPathComponent
        // Foundation spawns children with the spawning thread's signal mask, in which SIGTERM
        // is blocked, so a server would ignore `stop()`. perl (essential on Debian) clears the
        // mask and execs the real program in place (same pid).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = ["-MPOSIX", "-e", Self.unblockAndExec, executable] + arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(executable): \(error); is its package installed? (scripts/install-deps.sh)")
        }
        readers = [
            PipeReader(output.fileHandleForReading) { [weak self] data in self?.receive(data) },
            PipeReader(errors.fileHandleForReading) { [weak self] data in
                guard let self else { return }
                self.lock.withLock { self.stderrText += String(decoding: data, as: UTF8.self) }
            },
        ]
    }

    deinit {
        stop()
        for reader in readers { reader.cancel() }
        try? output.fileHandleForReading.close()
        try? errors.fileHandleForReading.close()
        try? input.fileHandleForWriting.close()
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
    }

    private static let unblockAndExec =
        #"sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!"; exec {$ARGV[0]} @ARGV or die "cannot run $ARGV[0]: $!\n""#

    private func receive(_ data: Data) {
        guard !data.isEmpty else { return }
        lock.withLock {
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                stdoutLines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }
    }

    public var lines: [String] { lock.withLock { stdoutLines } }
    public var errorOutput: String { lock.withLock { stderrText } }
    public var isRunning: Bool { process.isRunning }
    /// Whether it has exited and all it wrote has been read (it, and every child it left behind,
    /// closed its output).
    private var hasFinished: Bool { !process.isRunning && readers.allSatisfy(\.hasEnded) }
    /// The exit status once it has exited.
    public var exitStatus: Int32 { process.terminationStatus }
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits until a line of standard output satisfies `predicate` (lines from `index` on)
    /// and returns it with its index.
    @discardableResult
    public func waitForLine(
        from index: Int = 0, timeout: Duration = .seconds(30), where predicate: @Sendable (String) -> Bool
    ) async throws -> (line: String, index: Int) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let finished = hasFinished  // asked first, so no output can arrive unseen after the look
            let snapshot = lines
            if index < snapshot.count, let found = snapshot[index...].firstIndex(where: predicate) {
                return (snapshot[found], found)
            }
            guard !finished else {
                throw Failure(description: "\(name) exited (status \(process.terminationStatus)) before printing the expected line; stderr: \(errorOutput)")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(name) did not print the expected line within \(timeout); stdout so far: \(snapshot.suffix(20)); stderr: \(errorOutput)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Writes a line to the process's standard input.
    public func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes the process's standard input (it reads end of file).
    public func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Stops the process (SIGTERM, then SIGKILL after 5 s) and waits, at most 10 s, until the
    /// kernel says it is gone. Foundation's own notice of the exit is not awaited: it is
    /// occasionally never given.
    public func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        if !Self.waitForExit(pid, seconds: 5) {
            kill(pid, SIGKILL)
            _ = Self.waitForExit(pid, seconds: 5)
        }
    }

    /// Whether `pid` has exited (a zombie or gone) within `seconds`.
    static func waitForExit(_ pid: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return true }
            let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
            if state == "Z" || state == "X" { return true }
            usleep(2000)
        } while Date() < deadline
        return false
    }

    /// SIGTERM, as systemd or Ctrl-C would send, then waits for the exit by the kernel's
    /// account (SIGKILL after `grace`). Returns how long it took and the exit status (nil when
    /// it had to be killed, or Foundation never recorded it).
    @discardableResult
    public func terminate(grace: Duration) async -> (duration: Duration, status: Int32?) {
        let start = ContinuousClock.now
        let pid = process.processIdentifier
        if !Self.waitForExit(pid, seconds: 0) {
            kill(pid, SIGTERM)
            let deadline = start + grace
            while !Self.waitForExit(pid, seconds: 0) {
                guard ContinuousClock.now < deadline else {
                    stop()  // SIGTERM again, then SIGKILL
                    return (ContinuousClock.now - start, nil)
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        let duration = ContinuousClock.now - start
        // Foundation reaps it and records the status shortly after the kernel says it exited.
        let deadline = ContinuousClock.now + .seconds(2)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return (duration, isRunning ? nil : exitStatus)
    }

    /// Everything it printed so far, standard output and standard error.
    public var allOutput: String { lines.joined(separator: "\n") + "\n" + errorOutput }

    /// How often `text` occurs in its output so far.
    public func occurrences(of text: String) -> Int {
        allOutput.components(separatedBy: text).count - 1
    }

    /// Waits until `text` has occurred `count` times in its output (standard output or
    /// standard error); throws with the end of its output when it exits or `timeout` passes.
    public func waitForOutput(_ text: String, count: Int = 1, timeout: Duration) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let finished = hasFinished  // asked first, so no output can arrive unseen after the look
            if occurrences(of: text) >= count { return }
            guard !finished else {
                throw Failure(description: "\(name) exited (status \(exitStatus)) before printing '\(text)': \(allOutput.suffix(3000))")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(name) did not print '\(text)' \(count)× within \(timeout): \(allOutput.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends a signal (SIGSTOP to make a server hang, SIGCONT to resume, SIGKILL to crash it).
    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }
}
