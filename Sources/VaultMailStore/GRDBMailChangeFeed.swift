import Foundation
import GRDB
import VaultMailCore

/// `MailChangeFeed` over SQLite: GRDB reports each committed transaction of this process that
/// touched mail (threads, emails, their folders, folders, changes waiting for the server), and
/// each subscriber is told.
public final class GRDBMailChangeFeed: MailChangeFeed, Sendable {
    private let writer: any DatabaseWriter

    public init(database: AppDatabase) {
        writer = database.writer
    }

    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = DatabaseRegionObservation(tracking: Table("thread"), Table("email"), Table("threadFolder"), Table("folder"),
                                                     Table("pendingChange"))
        let cancellable = observation.start(in: writer) { _ in
            continuation.finish()
        } onChange: { _ in
            continuation.yield()
        }
        // The observation lives as long as someone iterates the stream.
        continuation.onTermination = { _ in cancellable.cancel() }
        return stream
    }
}
