import Foundation

/// What `/proc/<pid>` says about a running process: resident memory and CPU time.
enum ProcessStatus {
    /// Resident memory in KiB, as `/proc/<pid>/status` reports it.
    struct Memory {
        /// `VmRSS`: everything resident (the figure `ps` and `top` show as RSS).
        var residentKiB: Int
        /// `RssAnon`: heap, stacks, anonymous maps: memory the process alone costs.
        var anonymousKiB: Int
        /// `RssFile`: resident pages of mapped files (the executable, libraries, a database), shared with the page cache.
        var fileKiB: Int
        /// `RssShmem`: shared memory and mapped tmpfs files.
        var sharedKiB: Int

        var residentMiB: Double { Double(residentKiB) / 1024 }

        /// `VmRSS 61.2 MiB (anon 40.1, file 21.1, shmem 0.0)`.
        var summary: String {
            func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
            return "VmRSS \(mib(residentKiB)) MiB (anon \(mib(anonymousKiB)), file \(mib(fileKiB)), shmem \(mib(sharedKiB)))"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func memory(of pid: Int32) throws -> Memory {
        let path = "/proc/\(pid)/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "cannot read \(path): process \(pid) has exited")
        }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count >= 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard let resident = values["VmRSS"] else {
            throw Failure(description: "\(path) has no VmRSS line (a zombie?)")
        }
        return Memory(residentKiB: resident, anonymousKiB: values["RssAnon"] ?? 0, fileKiB: values["RssFile"] ?? 0,
                      sharedKiB: values["RssShmem"] ?? 0)
    }

    /// User plus system CPU time of every thread so far, in clock ticks (`/proc/<pid>/stat` fields 14 and 15).
    static func cpuTicks(of pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Waits until the process has used no CPU for `quiet` (it has finished what it was doing
    /// and sits waiting), at most `timeout`. Throws if it exits or never settles.
    static func waitUntilQuiet(_ pid: Int32, name: String, quiet: Duration = .seconds(1), timeout: Duration = .seconds(300)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        guard var last = cpuTicks(of: pid) else { throw Failure(description: "\(name) (pid \(pid)) has exited") }
        var since = clock.now
        while clock.now - since < quiet {
            guard clock.now < deadline else {
                throw Failure(description: "\(name) (pid \(pid)) kept using CPU for \(timeout); its memory was not measured")
            }
            try await Task.sleep(for: .milliseconds(50))
            guard let ticks = cpuTicks(of: pid) else { throw Failure(description: "\(name) (pid \(pid)) has exited") }
            if ticks != last {
                last = ticks
                since = clock.now
            }
        }
    }
}
