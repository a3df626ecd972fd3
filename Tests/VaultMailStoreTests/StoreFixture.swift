import Foundation
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// An in-memory store run by the production migrator, with accounts and standard folders.
struct StoreFixture {
    let database: AppDatabase
    let emails: GRDBEmailRepository
    let accounts: GRDBAccountRepository
    var folders: [String: [Folder]] = [:]

    init(accounts names: [String] = ["work"]) async throws {
        database = try AppDatabase.inMemory()
        emails = GRDBEmailRepository(database: database)
        accounts = GRDBAccountRepository(database: database)
        for name in names {
            let account = MailFixtures.account(name: name)
            try await accounts.addAccount(account)
            let standard = MailFixtures.standardFolders(accountId: account.id)
            try await emails.saveFolders(standard)
            folders[account.id] = standard
        }
    }

    func folder(_ type: FolderType, account: String = "acct-work") -> Folder {
        folders[account]!.of(type)
    }

    /// Stores emails `numbers` for the account in the given folders.
    @discardableResult
    func add(_ numbers: some Sequence<Int>, account: String = "acct-work", in types: [FolderType] = [.inbox],
             configure: (inout Email) -> Void = { _ in }) async throws -> [Email] {
        let targets = types.map { folder($0, account: account) }
        let batch = numbers.map { n -> IncomingEmail in
            var email = MailFixtures.email(accountId: account, number: n)
            configure(&email)
            return MailFixtures.incoming(email, in: targets, uid: UInt32(n + 1))
        }
        return try await emails.saveEmails(batch)
    }

    /// Every thread id of a folder, walking all pages.
    func allThreadIds(folderId: String, pageSize: Int = 25) async throws -> [String] {
        var ids: [String] = []
        var cursor: ThreadCursor?
        repeat {
            let page = try await emails.getThreads(folderId: folderId, category: nil, cursor: cursor, limit: pageSize)
            ids += page.threads.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        return ids
    }
}
