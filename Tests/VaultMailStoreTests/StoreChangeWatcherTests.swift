import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Issue 17, one truth between the tool and the daemon: a process sees, within a second,
/// what another process committed to the same store file, and never its own writes.
@Suite("Store change watcher (another process's commits)")
struct StoreChangeWatcherTests {
    /// Two connections to one WAL file, as the daemon and `vaultmail read` have.
    struct TwoProcesses {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-watch-\(UUID().uuidString)")
        let daemon: AppDatabase
        let tool: AppDatabase

        init() throws {
            let path = directory.appendingPathComponent("store.sqlite").path
            daemon = try AppDatabase.open(path: path)
            tool = try AppDatabase.open(path: path)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    actor Seen {
        var count = 0
        func add() { count += 1 }
    }

    /// How soon is counted in polls, not seconds (a loaded machine may stall any clock
    /// reading): the report comes from the first poll after the commit, so it is one
    /// `interval` away (250 ms by default: "within a second" on a machine that is not starved).
    @Test("A commit by another connection is reported by the next poll (within a second at the default interval); the watcher's own connection's writes are not")
    func reportsOthersOnly() async throws {
        let stores = try TwoProcesses()
        defer { stores.remove() }
        let watcher = StoreChangeWatcher(database: stores.daemon, interval: .milliseconds(50))
        let seen = Seen()
        let changes = await watcher.start()
        let consumer = Task { for await _ in changes { await seen.add() } }

        // Its own write: several polls pass and nothing is reported.
        try GRDBSettingsStorage(database: stores.daemon).setValue(Data("own".utf8), forKey: "test.own")
        let before = await watcher.polls
        try await waitUntil("three polls after the own write") { await watcher.polls >= before + 3 }
        #expect(await seen.count == 0, "the process's own write is not another process's change")

        // Another connection's write: the poll counted next starts after the commit, so once the
        // one after it has begun, that poll has looked and found it (a look finds a change once:
        // checkNow finds nothing left to report).
        try await GRDBAccountRepository(database: stores.tool).addAccount(MailFixtures.account())
        let atCommit = await watcher.polls
        try await waitUntil("two polls after the other connection's write") { await watcher.polls >= atCommit + 2 }
        #expect(await watcher.checkNow() == false, "the first poll after the commit reported it")
        try await waitUntil("the other connection's write reported") { await seen.count >= 1 }

        await watcher.stop()
        await consumer.value
        #expect(await seen.count == 1, "one commit, one report")
    }

    @Test("checkNow sees another connection's commit at once, without waiting for a poll, and reports it once")
    func checkNow() async throws {
        let stores = try TwoProcesses()
        defer { stores.remove() }
        // Polls so rare that only checkNow can have seen the commit.
        let watcher = StoreChangeWatcher(database: stores.daemon, interval: .seconds(3600))
        let seen = Seen()
        let changes = await watcher.start()
        let consumer = Task { for await _ in changes { await seen.add() } }
        #expect(await watcher.checkNow() == false, "nothing committed yet")
        try GRDBSettingsStorage(database: stores.daemon).setValue(Data("own".utf8), forKey: "test.own")
        #expect(await watcher.checkNow() == false, "its own write")
        try GRDBSettingsStorage(database: stores.tool).setValue(Data("other".utf8), forKey: "test.other")
        #expect(await watcher.checkNow() == true)
        #expect(await watcher.checkNow() == false, "reported once")
        try await waitUntil("the change reported on the stream too") { await seen.count == 1 }
        await watcher.stop()
        await consumer.value
    }

    @Test("Another process's change to mail reaches this process's change feed (the web app's live list)")
    func wakesTheChangeFeed() async throws {
        let stores = try TwoProcesses()
        defer { stores.remove() }
        try await GRDBAccountRepository(database: stores.tool).addAccount(MailFixtures.account())
        let watcher = StoreChangeWatcher(database: stores.daemon, interval: .milliseconds(50))
        let feed = GRDBMailChangeFeed(database: stores.daemon).changes()
        let fed = Seen()
        let listener = Task { for await _ in feed { await fed.add() } }
        let changes = await watcher.start()
        let consumer = Task { for await _ in changes {} }

        try await GRDBEmailRepository(database: stores.tool).saveFolders(MailFixtures.standardFolders(accountId: MailFixtures.account().id))
        try await waitUntil("the change feed told") { await fed.count >= 1 }

        listener.cancel()
        await watcher.stop()
        await consumer.value
    }

    @Test("Stopping ends the stream and the polling; so does a consumer that stops listening")
    func stops() async throws {
        let stores = try TwoProcesses()
        defer { stores.remove() }
        let watcher = StoreChangeWatcher(database: stores.daemon, interval: .milliseconds(20))
        let changes = await watcher.start()
        #expect(await watcher.isPolling)
        let consumer = Task { for await _ in changes {} }
        try await waitUntil("a poll") { await watcher.polls >= 1 }
        await watcher.stop()
        #expect(!(await watcher.isPolling))
        await consumer.value // the stream ended, or this would never return

        let again = await watcher.start()
        let listener = Task { for await _ in again {} }
        #expect(await watcher.isPolling)
        listener.cancel()
        try await waitUntil("polling stopped with its listener") { !(await watcher.isPolling) }
    }
}
