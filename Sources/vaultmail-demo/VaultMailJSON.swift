import Foundation

/// The parts of `vaultmail`'s stable JSON output (docs/cli.md) the demo reads.
enum VaultMailJSON {
    /// One entry of `vaultmail notify log --json`.
    struct Decision: Decodable, Sendable {
        var emailId: String
        var threadId: String
        var outcome: String
        var rule: String
        var explanation: String
        var subject: String
        var from: String
    }

    /// `vaultmail threads --json`.
    struct ThreadPage: Decodable, Sendable {
        var threads: [Thread]
    }

    struct Thread: Decodable, Sendable {
        var id: String
        var subject: String
    }

    /// `vaultmail show THREAD-ID --json`.
    struct Conversation: Decodable, Sendable {
        var emails: [Email]
    }

    struct Email: Decodable, Sendable {
        var id: String
        var messageId: String
        var subject: String
    }

    static func decode<T: Decodable>(_ type: T.Type, from output: String, command: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(output.utf8))
        } catch {
            throw DemoFailure("`vaultmail \(command)` printed JSON the demo cannot read (\(error)): \(output.prefix(500))")
        }
    }
}
