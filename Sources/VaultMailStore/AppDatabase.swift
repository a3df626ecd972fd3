import Foundation
import GRDB

/// The SQLite database behind the store: a WAL-mode pool for a file, or a private
/// in-memory database for tests, both migrated by the same migrator.
public final class AppDatabase: Sendable {
    /// GRDB's writer; repositories share it.
    let writer: any DatabaseWriter

    private init(writer: any DatabaseWriter, searchProgress: SearchIndexProgress? = nil) throws {
        self.writer = writer
        try Self.migrator(searchProgress: searchProgress).migrate(writer)
    }

    /// Opens (creating when needed) the database file at `path`, in WAL mode. A store made
    /// before search existed is indexed first; `searchProgress` hears how far that has come.
    public static func open(path: String, searchProgress: SearchIndexProgress? = nil) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration())
            return try AppDatabase(writer: pool, searchProgress: searchProgress)
        } catch let error as DatabaseError {
            throw RepositoryStoreError.cannotOpen(path: path, reason: error.message ?? "\(error)")
        }
    }

    /// A new empty database in memory, with the production schema.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(configuration: configuration()))
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "VaultMail"
        configuration.prepareDatabase { db in
            // The search index's triggers call these on every write of an email.
            SearchFunctions.register(db)
            if !db.configuration.readonly {
                // The writer keeps up to 64 MiB of pages (SQLite's default is 2 MiB): a batch of
                // new mail changes pages all over the id-keyed indexes, and with a small cache
                // they are read again and spilled to the WAL before the commit. Readers keep
                // the default. Durability is GRDB's for WAL: synchronous = NORMAL.
                try db.execute(sql: "PRAGMA cache_size = -65536")
            }
        }
        return configuration
    }

    /// Gives back the memory SQLite holds for the connections' page caches (the writer's grows
    /// to 64 MiB during a big sync): for a long-running process once a sync has stored its
    /// mail. Waits for the write under way, so call it off the main actor.
    public func releaseMemory() {
        (writer as? DatabasePool)?.releaseMemory()
    }

    /// The journal mode in force ("wal" for a file database).
    public func journalMode() throws -> String {
        try writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Rows per table, for tests that prove nothing is left behind. The search index counts
    /// as its virtual tables' rows; FTS5's own shadow tables are left out.
    public func rowCounts() throws -> [String: Int] {
        try writer.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual')
                AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                """)
            var counts: [String: Int] = [:]
            for table in tables {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
            }
            return counts
        }
    }
}

/// Opening the store failed, with the file and SQLite's words.
public enum RepositoryStoreError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the mail store at \(path): \(reason); check the directory exists and is writable"
        }
    }
}
