import Foundation
import VaultMailCore
import VaultMailSync

/// An IDLE monitor on the bench account, watched as the sync and freshness benchmarks measure
/// it: `listening()` returns each time it listens (again), `arrival()` gives the next new
/// emails `arrivals` picks out of its events. A disconnection is written to standard error.
struct MonitorWatch {
    private let watcher: Task<Void, any Error>
    private var listens: AsyncStream<Void>.Iterator
    private var news: AsyncStream<[Email]>.Iterator

    init(_ monitor: IDLEMonitorUseCase, label: String, arrivals: @escaping @Sendable (IDLEMonitorEvent) -> [Email]?) {
        let listening = AsyncStream<Void>.makeStream()
        let arrived = AsyncStream<[Email]>.makeStream()
        watcher = Task {
            for try await event in monitor.events(accountId: "acct-bench") {
                if case .listening = event {
                    listening.continuation.yield()
                } else if case .disconnected(let error, _) = event {
                    FileHandle.standardError.write(Data("\(label): disconnected: \(error)\n".utf8))
                } else if let emails = arrivals(event) {
                    arrived.continuation.yield(emails)
                }
            }
        }
        listens = listening.stream.makeAsyncIterator()
        news = arrived.stream.makeAsyncIterator()
    }

    /// Returns once the monitor listens (again).
    mutating func listening() async {
        _ = await listens.next()
    }

    /// The next new emails picked out of the monitor's events.
    mutating func arrival() async -> [Email] {
        await news.next() ?? []
    }

    func cancel() {
        watcher.cancel()
    }
}
