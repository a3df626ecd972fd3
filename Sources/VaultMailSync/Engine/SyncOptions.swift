/// Tuning of `SyncEmailsUseCase`.
public struct SyncOptions: Sendable {
    /// Messages per UID FETCH (and per store transaction and checkpoint).
    public var batchSize: Int
    /// How many messages are parsed at once (GMime parses on the shared pool).
    public var parallelParsing: Int

    public init(batchSize: Int = 50, parallelParsing: Int = 2) {
        self.batchSize = max(1, batchSize)
        self.parallelParsing = max(1, parallelParsing)
    }
}
