import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting

/// `vaultmail storage` (issue 31): the same figures as Settings → Storage, from Core's `Storage`.
@Suite("vaultmail storage (issue 31)")
@MainActor
struct StorageCommandTests {
    @Test("It lists each account's messages and sizes, the search index, the store's files, the image cache and free space; --clear-images empties the cache; --json is stable")
    func storage() async throws {
        let (session, home) = try await CLIFixture.session { id in (1...4).map { MailFixtures.email(accountId: id, number: $0) } }
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = RemoteImageCache(directory: session.home.imageCacheDirectory)
        cache.store(RemoteImage(data: Data(repeating: 3, count: 20_000), contentType: "image/gif"), for: "https://example.org/x.gif")

        let text = try await session.storage()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("MESSAGES") == true, "\(text)")
        #expect(lines.contains { $0.hasPrefix("4 ") && $0.hasSuffix("work <ada@example.com>") }, "\(text)")
        #expect(text.contains("Search index (all accounts): "))
        #expect(text.contains("Store files: ") && text.contains(session.home.databasePath))
        #expect(text.contains("Image cache: 20 KB"), "\(text)")
        #expect(text.contains("Free on this disk: "))

        let cleared = try await session.storage(clearImages: true)
        #expect(cleared.hasPrefix("Cleared the image cache: 20 KB freed."), "\(cleared)")
        #expect(cleared.contains("Image cache: 0 bytes"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await session.storage(json: true).utf8)) as? [String: Any])
        let accounts = try #require(json["accounts"] as? [[String: Any]])
        #expect(accounts.count == 1)
        #expect(accounts.first?["messages"] as? Int == 4)
        #expect(accounts.first?["email"] as? String == "ada@example.com")
        for key in ["searchIndexBytes", "storeFileBytes", "imageCacheBytes", "freeBytes", "lowOnSpace"] {
            #expect(json[key] != nil, "\(key) is missing")
        }
    }
}
