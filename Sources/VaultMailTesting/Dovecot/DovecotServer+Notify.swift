import Foundation

/// NOTIFY (RFC 5465) and command counting for the folder-freshness tests (issue 17).
///
/// Dovecot 2.3 announces NOTIFY with its default `mailbox_list_index = yes`, which the test
/// configuration keeps, so `start()` offers it; `start(capabilities: capabilitiesWithoutNotify)`
/// makes a server that does not.
extension DovecotServer {
    /// What Dovecot 2.3.19 announces after login, less NOTIFY.
    public static let capabilitiesWithoutNotify = [
        "IMAP4rev1", "SASL-IR", "LOGIN-REFERRALS", "ID", "ENABLE", "IDLE", "SORT", "SORT=DISPLAY", "THREAD=REFERENCES",
        "THREAD=REFS", "THREAD=ORDEREDSUBJECT", "MULTIAPPEND", "URL-PARTIAL", "CATENATE", "UNSELECT", "CHILDREN", "NAMESPACE",
        "UIDPLUS", "LIST-EXTENDED", "I18NLEVEL=1", "CONDSTORE", "QRESYNC", "ESEARCH", "ESORT", "SEARCHRES", "WITHIN",
        "CONTEXT=SEARCH", "LIST-STATUS", "BINARY", "MOVE", "SNIPPET=FUZZY", "PREVIEW=FUZZY", "PREVIEW", "STATUS=SIZE",
        "SAVEDATE", "LITERAL+", "SPECIAL-USE",
    ]

    /// Makes every IMAP session from now on record what its client sends (Dovecot's
    /// `rawlog_dir`), restarting the server; returns the directory of the `*.in` files.
    /// Call it after users were added: the directory belongs to their owner.
    public func recordClientCommands() async throws -> URL {
        let rawlog = directory.appendingPathComponent("rawlog")
        try FileManager.default.createDirectory(at: rawlog, withIntermediateDirectories: true)
        // The mail processes run as the owner of the users' homes (the `mail` user under root).
        let homes = directory.appendingPathComponent("home")
        let home = (try? FileManager.default.contentsOfDirectory(atPath: homes.path))?.sorted().first.map { homes.appendingPathComponent($0) }
        let owner = try FileManager.default.attributesOfItem(atPath: (home ?? homes).path)
        let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value ?? getuid()
        let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value ?? getgid()
        chown(rawlog.path, uid, gid)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: configFile))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("rawlog_dir = \(rawlog.path)\n".utf8))
        try handle.close()
        try await restart()
        return rawlog
    }

    /// The command lines clients sent so far, per session file, from a `recordClientCommands()`
    /// directory, without Dovecot's timestamps (literals and continuation data included as
    /// they came).
    public static func clientCommands(in rawlog: URL) -> [String: [String]] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: rawlog.path)) ?? []
        var commands: [String: [String]] = [:]
        for file in files where file.hasSuffix(".in") {
            let text = (try? String(contentsOf: rawlog.appendingPathComponent(file), encoding: .utf8)) ?? ""
            commands[file] = text.split(whereSeparator: \.isNewline).map { line in
                // "1795691139.391301 a1 STATUS …": the timestamp goes.
                let parts = line.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && Double(parts[0]) != nil ? String(parts[1]) : String(line)
            }
        }
        return commands
    }
}
