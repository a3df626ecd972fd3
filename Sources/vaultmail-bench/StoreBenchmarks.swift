import Foundation
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench store`: the badge count, thread pages and insert rate on file databases
/// (WAL) in a temporary directory. The synthetic mailbox: threads of 3 emails; 85% of
/// emails in the inbox, 5% each in Archive, Sent and Junk; 10% unread.
enum StoreBenchmarks {
    static func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        print("# store: threads of 3, 85% inbox / 5% archive / 5% sent / 5% junk, 10% unread; file database in WAL mode")

        var built = 0
        var insertRates: [Double] = []
        let corpus = try await Corpus(path: directory.appendingPathComponent("store.sqlite").path)
        for size in [10_000, 50_000, 100_000, 1_000_000] {
            insertRates += try await corpus.grow(to: size, from: built)
            built = size
            let unread = try await Measure.medianMillis(runs: 30) {
                _ = try await corpus.emails.getInboxUnreadCount()
            }
            if size != 100_000 { Measure.report("inbox-unread-count", unread, "ms", n: size) }
            if size == 100_000 {
                Measure.report("inbox-unread-count", unread, "ms", n: size)
                try await threadPages(corpus, n: size)
                Measure.report("insert-emails", Measure.median(insertRates), "emails/s", n: size)
            }
        }
    }

    private static func threadPages(_ corpus: Corpus, n: Int) async throws {
        let first = try await Measure.medianMillis(runs: 50) {
            _ = try await corpus.emails.getThreads(folderId: corpus.inbox.id, category: nil, cursor: nil, limit: 25)
        }
        Measure.report("thread-page-first", first, "ms", n: n)
        var cursor: ThreadCursor?
        for _ in 0..<40 {
            cursor = try await corpus.emails.getThreads(folderId: corpus.inbox.id, category: nil, cursor: cursor, limit: 25).nextCursor
        }
        let deepCursor = cursor
        let deep = try await Measure.medianMillis(runs: 50) {
            _ = try await corpus.emails.getThreads(folderId: corpus.inbox.id, category: nil, cursor: deepCursor, limit: 25)
        }
        Measure.report("thread-page-deep", deep, "ms", n: n)
        let unified = try await Measure.medianMillis(runs: 50) {
            _ = try await corpus.emails.getThreadsUnified(folderType: .inbox, category: nil, cursor: deepCursor, limit: 25)
        }
        Measure.report("thread-page-unified-deep", unified, "ms", n: n)
    }

    /// A growing synthetic mailbox.
    struct Corpus {
        let database: AppDatabase
        let emails: GRDBEmailRepository
        let folders: [Folder]
        let account: Account
        var inbox: Folder { folders.of(.inbox) }

        init(path: String) async throws {
            database = try AppDatabase.open(path: path)
            emails = GRDBEmailRepository(database: database)
            account = MailFixtures.account(name: "bench")
            try await GRDBAccountRepository(database: database).addAccount(account)
            folders = MailFixtures.standardFolders(accountId: account.id)
            try await emails.saveFolders(folders)
        }

        /// Adds emails `from ..< size` in batches of 1,000; returns each batch's emails/s.
        func grow(to size: Int, from start: Int) async throws -> [Double] {
            var rates: [Double] = []
            let clock = ContinuousClock()
            for batchStart in stride(from: start, to: size, by: 1000) {
                let batch = (batchStart..<min(batchStart + 1000, size)).map(incoming)
                let elapsed = try await clock.measure { try await emails.saveEmails(batch) }
                rates.append(Double(batch.count) / (elapsed.millis / 1000))
            }
            return rates
        }

        private func incoming(_ number: Int) -> IncomingEmail {
            let folder: Folder = switch number % 20 {
            case 0: folders.of(.archive)
            case 1: folders.of(.sent)
            case 2: folders.of(.spam)
            default: inbox
            }
            let email = MailFixtures.email(
                accountId: account.id, number: number, threadId: "t\(number / 3)",
                from: "person\(number % 97)@example.org", fromName: "Person \(number % 97)",
                date: MailFixtures.referenceDate.addingTimeInterval(Double(number / 2) * 30),
                isRead: number % 10 != 7)
            return MailFixtures.incoming(email, in: [folder], uid: UInt32(number + 1))
        }
    }
}
