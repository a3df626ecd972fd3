import Foundation
import VaultMailCore

/// notmuch, the reference for local mail search, run on its own configuration and database.
struct SearchPeer {
    let binary: String
    let version: String
    var environment: [String: String] = [:]

    static func locate() -> SearchPeer? {
        let binary = "/usr/bin/notmuch"
        guard FileManager.default.isExecutableFile(atPath: binary),
              let result = try? ProcessCapture.run(binary, ["--version"]), result.status == 0 else { return nil }
        let version = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return SearchPeer(binary: binary, version: version)
    }

    /// Writes a configuration for `maildir` (no tags excluded from searches, flags not synced
    /// back to file names), then times `notmuch new` indexing it; seconds.
    mutating func index(maildir: URL, scratch: URL) throws -> Double {
        let config = scratch.appendingPathComponent("notmuch-config")
        try """
            [database]
            path=\(maildir.path)
            [user]
            name=Bench
            primary_email=bench@example.com
            [new]
            tags=unread;inbox;
            ignore=
            [search]
            exclude_tags=
            [maildir]
            synchronize_flags=false

            """.write(to: config, atomically: true, encoding: .utf8)
        environment = ProcessInfo.processInfo.environment
        environment["NOTMUCH_CONFIG"] = config.path
        let started = ContinuousClock.now
        let result = try ProcessCapture.run(binary, ["new", "--quiet"], environment: environment, timeout: .seconds(1800))
        let seconds = (ContinuousClock.now - started).seconds
        guard result.status == 0 else {
            throw SyncBenchmarks.BenchFailure(description: "notmuch new failed: \(String(decoding: result.output, as: UTF8.self))")
        }
        return seconds
    }

    /// `notmuch count QUERY`: matching messages.
    func count(_ query: String) throws -> Int {
        let result = try ProcessCapture.run(binary, ["count", query], environment: environment, includeErrors: false)
        return Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
