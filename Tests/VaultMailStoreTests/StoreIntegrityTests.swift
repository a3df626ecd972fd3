import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@Suite("Store integrity: cascades, triggers, WAL")
struct StoreIntegrityTests {
    @Test("AC-F-09 / AC-SEC-03: removing an account leaves no row of it in any table")
    func cascadeLeavesNoOrphans() async throws {
        let store = try await StoreFixture(accounts: ["gone", "kept"])
        for account in ["acct-gone", "acct-kept"] {
            try await store.add(0..<20, account: account, in: [.inbox, .starred]) { $0.threadId = "\($0.accountId)-T\($0.subject.count % 4)" }
            try await store.add(30..<35, account: account, in: [.sent])
            try await store.emails.saveEmails([IncomingEmail(
                email: MailFixtures.email(accountId: account, number: 99),
                links: [EmailFolder(emailId: MailFixtures.email(accountId: account, number: 99).id, folderId: store.folder(.inbox, account: account).id)],
                attachments: [Attachment(emailId: MailFixtures.email(accountId: account, number: 99).id, filename: "a.pdf", mimeType: "application/pdf", sizeBytes: 10)],
                rawSource: Array("From: x\r\n\r\nbody".utf8))])
            // A sender's category taught by a correction, and a sentence vector (issue 15).
            _ = try await GRDBCategoryRepository(database: store.database).teach(
                accountId: account, address: "p1@example.com", CategoryDecision(category: .primary, source: .user, reason: "test"), at: Date())
            try await GRDBSemanticIndex(database: store.database).save(
                [(MailFixtures.email(accountId: account, number: 99).id, [[1, 0, 0]])], modelId: "test-model")
            // A conversation's summary (issue 16).
            let summarized = MailFixtures.email(accountId: account, number: 99)
            try await GRDBThreadSummaryRepository(database: store.database).save(ThreadSummary(
                threadId: summarized.threadId, text: "Key sentence.", kind: .extractive, modelId: nil, messageCount: 1,
                latestEmailId: summarized.id, createdAt: Date()))
            // Trackers the shield removed from a message (issue 30).
            try await GRDBTrackerTally(database: store.database).record(
                emailId: MailFixtures.email(accountId: account, number: 99).id, sender: "news@example.com", trackers: 3)
            // A snoozed message and its wake time (issue 33).
            let snoozes = GRDBSnoozeRepository(database: store.database)
            try await snoozes.set(emailIds: [MailFixtures.email(accountId: account, number: 99).id], time: .until(Date(timeIntervalSince1970: 2_000_000_000)))
            try await snoozes.cameBack(emailIds: [MailFixtures.email(accountId: account, number: 1).id], at: Date())
            // A correspondent's key passed on by Autocrypt gossip (issue 32).
            try await GRDBAutocryptPeerRepository(database: store.database).receiveGossip(
                [AutocryptHeader(address: "peer@example.org", preferMutual: false, keyData: [0x98])],
                effectiveDate: Date(timeIntervalSince1970: 1_790_000_000), accountId: account)
            // A change waiting for the server (issue 29).
            try await GRDBPendingChangeRepository(database: store.database).add(PendingChange(
                accountId: account, threadId: "\(account)-T0", subject: "Waiting", action: .archive,
                copies: [EmailFolder(emailId: "e", folderId: "f", uid: 1)], createdAt: Date()))
            // A newsletter's list headers, and an unsubscription from it (issue 33).
            let newsletter = MailFixtures.email(accountId: account, number: 97)
            try await store.emails.saveEmails([IncomingEmail(
                email: newsletter, links: [EmailFolder(emailId: newsletter.id, folderId: store.folder(.inbox, account: account).id)],
                rawSource: Array("From: news@example.com\r\nList-Unsubscribe: <mailto:off@example.com>\r\n\r\nbody".utf8))])
            try await GRDBSubscriptionRepository(database: store.database).recordUnsubscription(Unsubscription(
                accountId: account, senderKey: "news@example.com", date: Date(), method: "mail"))
            // A draft with an attachment: the outbox tables (issue 6).
            try await GRDBOutboxRepository(database: store.database).saveDraft(
                MailFixtures.email(accountId: account, number: 98, sendState: .draft),
                attachments: [DraftAttachment(filename: "d.txt", mimeType: "text/plain", data: Data("d".utf8))])
        }
        let ledger = GRDBNotificationLedger(database: store.database)
        try await ledger.record(["acct-gone", "acct-kept"].map { account in
            NotificationDecision(email: MailFixtures.email(accountId: account, number: 1), decidedAt: Date(), outcome: .notified, rule: .allFilters)
        })
        let settings = await SettingsStore(storage: GRDBSettingsStorage(database: store.database))
        await settings.setNotificationsEnabled(false, for: "acct-gone")
        await settings.setNotificationsEnabled(false, for: "acct-kept")
        let before = try store.database.rowCounts()
        try await store.accounts.removeAccount(id: "acct-gone")
        let after = try store.database.rowCounts()
        for (table, count) in before where table != "setting" {
            #expect(count > 0, "the test must populate \(table)")
            #expect(after[table]! * 2 == count, "\(table): \(after[table]!) rows left of \(count)")
        }
        #expect(try await store.emails.getInboxUnreadCount() == 22)  // 21 + the newsletter (issue 33)
        await #expect(throws: RepositoryError.accountNotFound("acct-gone")) { try await store.accounts.removeAccount(id: "acct-gone") }
    }

    @Test("Trigger-kept membership equals the joins after a random mix of writes and actions")
    func triggersMatchJoins() async throws {
        let store = try await StoreFixture()
        let custom = Folder(accountId: "acct-work", name: "Lists", path: "Lists", folderType: .custom)
        try await store.emails.saveFolders([custom])
        var generator = SeededGenerator(seed: 42)
        let types: [FolderType] = [.inbox, .archive, .sent, .spam, .starred]
        for n in 0..<200 {
            let folderTypes = Array(types.shuffled(using: &generator).prefix(Int.random(in: 1...2, using: &generator)))
            try await store.add([n], in: folderTypes) { email in
                email.threadId = "T\(Int.random(in: 0..<40, using: &generator))"
                email.isRead = Bool.random(using: &generator)
            }
        }
        for step in 0..<150 {
            let thread = "T\(Int.random(in: 0..<40, using: &generator))"
            switch step % 7 {
            case 0: try? await store.emails.archiveThread(id: thread)
            case 1: try? await store.emails.deleteThread(id: thread)
            case 2: try? await store.emails.moveThread(id: thread, toFolderId: custom.id)
            case 3: try? await store.emails.toggleReadStatus(threadId: thread)
            case 4: try await store.add([1000 + step], in: [.inbox]) { $0.threadId = thread }
            case 5: try await store.database.rethread(emailId: MailFixtures.email(accountId: "acct-work", number: step).id, to: thread)
            default: try? await store.emails.toggleStarStatus(threadId: thread)
            }
        }
        try await store.database.setFolderType(custom.id, .inbox)
        let drift = try store.database.membershipDrift()
        #expect(drift.threadFolder == 0)
        #expect(drift.inboxLinks == 0)
        let counted = try await store.emails.getInboxUnreadCount()
        let unified = try await store.emails.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 1000)
        let fromThreads = try await unified.threads.asyncFlatMap { try await store.emails.getEmails(threadId: $0.id) }
            .filter { !$0.isRead && $0.folderTypes.contains(.inbox) }.count
        #expect(counted == fromThreads)
    }

    @Test("A file database runs in WAL mode and keeps its data across reopening")
    func walAndReopen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/store.sqlite").path
        do {
            let database = try AppDatabase.open(path: path)
            #expect(try database.journalMode() == "wal")
            try await GRDBAccountRepository(database: database).addAccount(MailFixtures.account())
        }
        let reopened = try AppDatabase.open(path: path)
        #expect(try await GRDBAccountRepository(database: reopened).getAccounts().map(\.name) == ["work"])
    }

    @Test("Opening a store where no directory can be made says where and why")
    func openFailure() {
        #expect { try AppDatabase.open(path: "/proc/vaultmail/store.sqlite") } throws: { error in
            "\(error)".contains("/proc/vaultmail")
        }
    }
}

/// A deterministic random generator (SplitMix64), so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Array {
    func asyncFlatMap<T>(_ transform: (Element) async throws -> [T]) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result += try await transform(element) }
        return result
    }
}
