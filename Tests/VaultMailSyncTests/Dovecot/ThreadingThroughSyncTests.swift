import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 17 through the whole path: notmuch's corpora appended to Dovecot in a seeded random
    /// order (replies before the messages they answer, parents never received), synced in small
    /// batches over two syncs and two folders, and the conversations the store ends with scored
    /// pairwise against notmuch 0.37's forest.
    @Suite("Threading of synced mail against notmuch")
    struct ThreadingThroughSyncTests {
        @Test(
            "Issue 17: conversations stored by sync agree with notmuch (precision ≥ 98%, recall ≥ 97%)",
            arguments: ["default", "lkml"]
        )
        func syncedConversations(corpus: String) async throws {
            let folder = "\(NotmuchThreadingTests.base)/corpora/\(corpus)"
            var generator = SplitMix64(seed: 17)
            let files = try TestMaterial.files(under: folder).shuffled(using: &generator)
            let (_, reference) = try NotmuchPairwiseTests.load(corpus)
            let fixture = try await SyncFixture.start(batchSize: 7)
            let other = try await fixture.otherClient()
            let firstPart = files.count * 3 / 5
            for (index, file) in files.enumerated() where index < firstPart {
                _ = try await other.append(Data(try TestMaterial.bytes(folder, file)), to: index % 4 == 3 ? "Archive" : "INBOX")
            }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            for (index, file) in files.enumerated() where index >= firstPart {
                _ = try await other.append(Data(try TestMaterial.bytes(folder, file)), to: index % 4 == 3 ? "Archive" : "INBOX")
            }
            try await fixture.sync.syncAccount(accountId: "acct-ada")

            let everyId = Set(reference.keys.map { "<\($0)>" })
            let stored = try await fixture.syncStore.threadingFacts(accountId: "acct-ada", mentioning: everyId)
            var ours: [String: String] = [:]
            for facts in stored { ours[MessageIDs.bare(facts.messageId)] = facts.threadId }
            let score = PairwiseThreadScore(ours: ours, reference: reference)
            print("notmuch \(corpus), synced through Dovecot 7 at a time in two syncs: \(score)")
            #expect(Set(ours.keys) == Set(reference.keys), "every message of the corpus is stored once")
            #expect(score.precision >= NotmuchPairwiseTests.minimumPrecision, "\(score)")
            #expect(score.recall >= NotmuchPairwiseTests.minimumRecall, "\(score)")
            // The thread rows follow: one per conversation, each counting its emails.
            var sizes: [String: Int] = [:]
            for facts in stored { sizes[facts.threadId, default: 0] += 1 }
            for (threadId, size) in sizes {
                let thread = try #require(try await fixture.store.getThread(id: threadId), "thread row \(threadId)")
                #expect(thread.messageCount == size, "thread \(threadId) counts its emails")
            }
        }
    }
}
