import Foundation
import GRDB
import VaultMailCore

extension GRDBEmailRepository: MessageSourceRepository {
    public func rawSource(emailId: String) async throws -> [UInt8]? {
        try await writer.read { db in
            try Data.fetchOne(db, sql: "SELECT raw FROM emailSource WHERE emailId = ?", arguments: [emailId]).map { [UInt8]($0) }
        }
    }
}
