import GRDB

extension AppDatabase {
    /// Snoozed messages (issue 33): one row per stored email the server keeps in its Snoozed
    /// mailbox, with the time its keyword carries (`wakeAt` in milliseconds; NULL for someday).
    /// The server is the truth (docs/snooze.md); these rows are what it said last, for the lists
    /// and the daemon's timer. `snoozeReturn`: when a woken email came back, which puts its
    /// conversation at the top of the list (`refreshThreads`: its latest date is at least that).
    /// Both go with their email.
    static func createSnooze(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE snooze (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                wakeAt INTEGER
            );
            CREATE INDEX snooze_by_wakeAt ON snooze(wakeAt);
            CREATE TABLE snoozeReturn (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                returnedAt INTEGER NOT NULL
            );
            """)
    }
}
