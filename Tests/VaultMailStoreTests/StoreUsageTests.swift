import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Settings → Storage's figures (issue 31) from the store: per account, and the search index.
@Suite("GRDBStoreUsage: what the store holds, per account (issue 31)")
struct StoreUsageTests {
    @Test("Per account: messages, their sources' bytes, attachments' decoded sizes and vectors; the search index grows with mail")
    func perAccount() async throws {
        let store = try await StoreFixture(accounts: ["work", "home"])
        let usage = GRDBStoreUsage(database: store.database)
        let empty = try await usage.storeUsage()
        #expect(empty.accounts.isEmpty)

        let inbox = store.folder(.inbox)
        var incoming: [IncomingEmail] = []
        for n in 0..<3 {
            let email = MailFixtures.email(accountId: "acct-work", number: n)
            let attachment = Attachment(emailId: email.id, filename: "f\(n).pdf", mimeType: "application/pdf", sizeBytes: 1000 * (n + 1))
            incoming.append(IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: inbox.id, uid: UInt32(n + 1))],
                                          attachments: [attachment], rawSource: Array(repeating: 65, count: 5000 + n)))
        }
        _ = try await store.emails.saveEmails(incoming)
        try await store.add(100..<400, account: "acct-home") { $0.bodyPlain = "Words for the index, message \($0.subject) of many. " + String(repeating: "padding ", count: 40) }
        let vectors = GRDBSemanticIndex(database: store.database)
        try await vectors.save([(emailId: incoming[0].email.id, vectors: [[Float](repeating: 0.5, count: 8), [Float](repeating: 0.25, count: 8)])],
                               modelId: "test")

        let full = try await usage.storeUsage()
        let work = try #require(full.accounts.first { $0.accountId == "acct-work" })
        #expect(work.messages == 3)
        #expect(work.mailBytes == 15003)
        #expect(work.attachmentBytes == 6000)
        #expect(work.vectorBytes > 0)
        let home = try #require(full.accounts.first { $0.accountId == "acct-home" })
        #expect(home.messages == 300 && home.attachmentBytes == 0 && home.vectorBytes == 0)
        #expect(full.searchIndexBytes > empty.searchIndexBytes, "the word index holds the new mail")
    }

    @Test("Storage's report: every account (one with no mail at nought), the image cache and the disk's free space; clearing the cache frees it")
    func report() async throws {
        let store = try await StoreFixture(accounts: ["work", "home"])
        try await store.add([1, 2])
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = RemoteImageCache(directory: home.appendingPathComponent("image-cache"))
        cache.store(RemoteImage(data: Data(repeating: 7, count: 4096), contentType: "image/png"), for: "https://example.org/a.png")
        let storage = Storage(store: GRDBStoreUsage(database: store.database), accounts: store.accounts, imageCache: cache, home: home,
                              models: { 1234 })

        let report = try await storage.report()
        #expect(report.accounts.map(\.name).sorted() == ["home", "work"])
        #expect(report.accounts.first { $0.name == "work" }?.usage.messages == 2)
        #expect(report.accounts.first { $0.name == "home" }?.usage == AccountStoreUsage(accountId: "acct-home", messages: 0, mailBytes: 0,
                                                                                        attachmentBytes: 0, vectorBytes: 0))
        let cached = try #require(report.imageCacheBytes)
        #expect(cached >= 4096)
        #expect(report.modelBytes == 1234)
        #expect((report.freeBytes ?? 0) > 0)
        #expect(report.isLowOnSpace == ((report.freeBytes ?? 0) < Storage.lowSpaceBytes))

        #expect(storage.clearImageCache() == cached)
        #expect(try await storage.report().imageCacheBytes == 0)
        #expect(cache.entry(for: "https://example.org/a.png") == nil)
    }
}
