import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailTesting

/// A command session over a fresh home directory with the account "work" (its standard
/// folders synced) and the emails `emails` makes for its id, in the inbox.
@MainActor
enum CLIFixture {
    static func session(_ emails: (_ accountId: String) -> [Email]) async throws -> (CommandSession, URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-cli-\(UUID().uuidString.prefix(8))")
        let session = try CommandSession(home: VaultMailHome(explicit: home.path),
                                         clock: FixedClock(MailFixtures.referenceDate.addingTimeInterval(3600)))
        _ = try await session.addAccount(.init(name: "work", email: "ada@example.com", imap: "127.0.0.1:1143",
                                               smtp: "127.0.0.1:1025", credential: .passwordCommand("echo pw")))
        let account = try await session.account(named: "work")
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await session.dependencies.emails.saveFolders(folders)
        for email in emails(account.id) {
            try await session.dependencies.emails.saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])
        }
        return (session, home)
    }
}
