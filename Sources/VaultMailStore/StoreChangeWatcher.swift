import Foundation
import GRDB

/// Tells a long-running process (the daemon) when another process — `vaultmail read`,
/// `vaultmail sync`, a second daemon's tool — committed to the same store.
///
/// It polls SQLite's `PRAGMA data_version` on the store's writer connection: the value
/// changes only when a *different* connection commits, and in this process every write goes
/// through that one connection, so the process's own writes are never reported. A poll is
/// one pragma (no table is read), every `interval` (250 ms by default).
///
/// On a change it also tells this process's GRDB observations (`db.notifyChanges`), so the
/// web app's change feed (`GRDBMailChangeFeed`) refreshes for mail changed by the tool too.
public actor StoreChangeWatcher {
    private let writer: any DatabaseWriter
    private let interval: Duration
    private var polling: Task<Void, Never>?
    private var continuation: AsyncStream<Void>.Continuation?
    /// The data version last seen (by a poll or `checkNow`).
    private var seenVersion: Int?
    /// Polls done since `start()`, for status and tests.
    public private(set) var polls = 0

    public init(database: AppDatabase, interval: Duration = .milliseconds(250)) {
        writer = database.writer
        self.interval = interval
    }

    /// Whether it is polling now.
    public var isPolling: Bool { polling != nil }

    /// Starts polling (stopping an earlier start) and returns one element per change seen
    /// (changes between two polls come as one). The stream ends when `stop()` is called;
    /// a consumer that stops iterating stops the polling too.
    public func start() async -> AsyncStream<Void> {
        await stop()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.continuation = continuation
        seenVersion = try? await Self.dataVersion(writer)
        polling = Task { [weak self] in await self?.poll() }
        continuation.onTermination = { [weak self] _ in Task { await self?.stop() } }
        return stream
    }

    /// Stops polling and ends the stream; returns once no poll runs.
    public func stop() async {
        guard let task = polling else { return }
        polling = nil
        task.cancel()
        continuation?.finish()
        continuation = nil
        await task.value
    }

    private func poll() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            polls += 1
            await checkNow()
        }
    }

    /// Looks now, without waiting for the next poll: true when another process committed
    /// since the last look (the change is also reported on the stream, as a poll would).
    @discardableResult
    public func checkNow() async -> Bool {
        // A busy or failing store is asked again at the next poll.
        guard let version = try? await Self.dataVersion(writer) else { return false }
        defer { seenVersion = version }
        guard let previous = seenVersion, previous != version else { return false }
        try? await writer.write { db in try db.notifyChanges(in: .fullDatabase) }
        continuation?.yield()
        return true
    }

    private static func dataVersion(_ writer: any DatabaseWriter) async throws -> Int {
        try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}
