import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and captures its output. It spawns and reaps the program
/// itself (`posix_spawn`, `waitpid`) rather than through Foundation's `Process`, whose
/// children inherit a blocked signal mask, may inherit each other's pipes, and whose exit is
/// occasionally never reported. The program gets an empty signal mask, its own process group,
/// and only its three standard descriptors.
public enum ProcessCapture {
    public struct Result: Sendable {
        /// The exit status, or the signal that ended it.
        public var status: Int32
        /// False when a signal ended it (including the timeout's).
        public var exitedNormally: Bool
        public var output: Data
        /// True when it ran past the timeout and was killed.
        public var timedOut = false
    }

    public struct LaunchFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` and returns its output (with standard error when `includeErrors`).
    /// Past `timeout` the program's whole process group is killed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        directory: URL? = nil, includeErrors: Bool = true, timeout: Duration = .seconds(120)
    ) throws -> Result {
        let running = try Running(executable, arguments, environment: environment, input: input, directory: directory,
                                  includeErrors: includeErrors)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !running.step(deadline: deadline) { usleep(2000) }
        return running.result
    }

    /// The same, waiting without holding a thread. Cancelling the task kills the program's
    /// process group and throws `CancellationError`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        directory: URL? = nil, includeErrors: Bool = true, timeout: Duration = .seconds(120)
    ) async throws -> Result {
        let running = try Running(executable, arguments, environment: environment, input: input, directory: directory,
                                  includeErrors: includeErrors)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !running.step(deadline: Task.isCancelled ? .now : deadline) { try? await Task.sleep(for: .milliseconds(2)) }
        try Task.checkCancellation()
        return running.result
    }

    /// One spawned program: `step` reads what it wrote and reaps it once it has exited.
    private final class Running {
        let pid: pid_t
        let output: Int32
        var data = Data()
        var status: Int32 = 0
        var exitedNormally = true
        var killed = false

        init(_ executable: String, _ arguments: [String], environment: [String: String]?, input: Data?, directory: URL?,
             includeErrors: Bool) throws {
            var outputPipe: [Int32] = [-1, -1]
            var inputPipe: [Int32] = [-1, -1]
            guard pipe(&outputPipe) == 0, pipe(&inputPipe) == 0 else {
                throw LaunchFailure(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
            }
            // Close-on-exec, so programs others spawn meanwhile do not inherit our pipes.
            for descriptor in outputPipe + inputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            if includeErrors {
                posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var empty = sigset_t()
            sigemptyset(&empty)
            posix_spawnattr_setsigmask(&attributes, &empty)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGTERM, SIGINT, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

            // A working directory is set by a shell that then becomes the program (same pid).
            let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0.path, executable] + arguments }
                ?? [executable] + arguments
            let argv = command.map { strdup($0) } + [nil]
            let environmentPairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            let envp = environmentPairs.map { strdup($0) } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var child: pid_t = 0
            let spawned = posix_spawn(&child, command[0], &actions, &attributes, argv, envp)
            close(outputPipe[1])
            close(inputPipe[0])
            guard spawned == 0 else {
                close(outputPipe[0])
                close(inputPipe[1])
                throw LaunchFailure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
            }
            pid = child
            if let input {
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(inputPipe[1], bytes.baseAddress! + offset, bytes.count - offset)
                        if written <= 0 { break }
                        offset += written
                    }
                }
            }
            close(inputPipe[1])
            output = outputPipe[0]
            _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        }

        deinit { close(output) }

        /// True once the program has exited and its output is read.
        func step(deadline: ContinuousClock.Instant) -> Bool {
            drain()
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid || (reaped < 0 && errno == ECHILD) {
                drain()
                // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (they are C macros).
                exitedNormally = reaped == pid && (raw & 0x7f) == 0
                status = exitedNormally ? (raw >> 8) & 0xff : raw & 0x7f
                return true
            }
            if !killed, ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
                killed = true
            }
            return false
        }

        private func drain() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(output, &buffer, buffer.count)
                if count <= 0 { return }
                data.append(contentsOf: buffer[0..<count])
            }
        }

        var result: Result { Result(status: status, exitedNormally: exitedNormally, output: data, timedOut: killed) }
    }
}
