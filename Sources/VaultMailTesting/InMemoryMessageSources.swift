import VaultMailCore

/// A `MessageSourceRepository` in memory: raw messages by email id.
public actor InMemoryMessageSources: MessageSourceRepository {
    private var sources: [String: [UInt8]] = [:]

    public init() {}

    public func store(_ raw: [UInt8], emailId: String) {
        sources[emailId] = raw
    }

    public func rawSource(emailId: String) async throws -> [UInt8]? {
        sources[emailId]
    }
}
