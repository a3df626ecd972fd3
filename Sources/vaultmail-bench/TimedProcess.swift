import Foundation

/// A program's whole run, from spawn to exit, timed without polling (`waitpid` blocks), its
/// output thrown away: what a user waits for when typing the command.
enum TimedProcess {
    /// Median milliseconds of `runs` runs, after one warm-up run; fails if a run fails.
    static func median(runs: Int, _ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Double {
        _ = try run(executable, arguments, environment: environment)
        return Measure.median(try (0..<runs).map { _ in try run(executable, arguments, environment: environment) })
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]?) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, variables)
        guard spawned == 0 else {
            throw SyncBenchmarks.BenchFailure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let millis = (ContinuousClock.now - started).millis
        guard status == 0 else {
            throw SyncBenchmarks.BenchFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        return millis
    }
}
