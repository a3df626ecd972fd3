import Foundation

/// Where a process's anonymous resident memory is, by kind of mapping (`/proc/<pid>/smaps`):
/// what the e2e suite prints beside the daemon's VmRSS, so a change in it can be traced.
struct AnonymousMemory {
    /// KiB of anonymous resident memory per kind, largest first.
    var kinds: [(kind: String, kib: Int, mappings: Int)]
    /// The mappings holding the most, with their size and kind.
    var largest: [(range: String, sizeKiB: UInt64, kib: Int, kind: String)]

    static func of(_ pid: Int32) throws -> AnonymousMemory {
        let path = "/proc/\(pid)/smaps"
        // Read to the end: `String(contentsOfFile:)` trusts the size /proc reports (0) and stops early.
        guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readToEnd() else {
            throw ProcessStatus.Failure(description: "cannot read \(path): process \(pid) has exited")
        }
        let text = String(decoding: data, as: UTF8.self)
        var totals: [String: (kib: Int, mappings: Int)] = [:]
        var kind = ""
        var current = ("", UInt64(0))
        var mappings: [(range: String, sizeKiB: UInt64, kib: Int, kind: String)] = []
        var previousWasGuard = false
        var guardSeen = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                let size = bounds.count == 2 ? (bounds[1] - bounds[0]) / 1024 : 0
                let permissions = fields[1]
                let name = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                guardSeen = previousWasGuard
                previousWasGuard = permissions == "---p" && name.isEmpty
                kind = classify(name: name, permissions: String(permissions), sizeKiB: size, afterGuard: guardSeen)
                current = (String(range), size)
            } else if fields.first == "Anonymous:", fields.count >= 2, let kib = Int(fields[1]), kib > 0 {
                totals[kind, default: (0, 0)].kib += kib
                totals[kind, default: (0, 0)].mappings += 1
                mappings.append((current.0, current.1, kib, kind))
            }
        }
        return AnonymousMemory(kinds: totals.map { ($0.key, $0.value.kib, $0.value.mappings) }.sorted { $0.kib > $1.kib },
                               largest: Array(mappings.sorted { $0.kib > $1.kib }.prefix(6)))
    }

    /// `[heap]`, a thread's stack (8 MiB after a guard page, glibc's default), a malloc arena
    /// (up to 64 MiB, after its unused tail or on its own), a library's or the binary's
    /// relocated data, or another anonymous mapping (SQLite's, GLib's, the Swift runtime's).
    static func classify(name: String, permissions: String, sizeKiB: UInt64, afterGuard: Bool) -> String {
        if name == "[heap]" { return "main heap" }
        if name == "[stack]" { return "main stack" }
        if name.hasPrefix("/") { return "written pages of mapped files (relocations, .data, .bss)" }
        if !name.isEmpty { return name }
        if afterGuard && sizeKiB >= 8 * 1024 - 8 && sizeKiB <= 8 * 1024 + 8 { return "thread stacks" }
        if sizeKiB <= 64 * 1024 && permissions == "rw-p" { return "malloc arenas and other anonymous maps" }
        return "large anonymous maps"
    }

    /// `#` lines, one per kind, then the largest mappings.
    var lines: [String] {
        kinds.map { String(format: "#     %6.1f MiB in %3d mappings: ", Double($0.kib) / 1024, $0.mappings) + $0.kind }
            + largest.map { String(format: "#       %6.1f MiB of a %7.1f MiB mapping at ", Double($0.kib) / 1024, Double($0.sizeKiB) / 1024) + "\($0.range) (\($0.kind))" }
    }
}
