import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Issue 33: the snooze times the store keeps of what the server said (table `snooze`) and the
/// conversations that came back (table `snoozeReturn`), migration `v16-snooze`.
@Suite("Snooze in the store: times while in Snoozed, the timer, coming back to the top (issue 33)")
struct SnoozeStoreTests {
    @Test("A time counts only while its email is in a Snoozed folder here; the soonest first, someday last; the timer and the accounts due")
    func timesWhileInSnoozed() async throws {
        var store = try await StoreFixture()
        let snoozedFolder = Folder(accountId: "acct-work", name: "Snoozed", path: "Snoozed", folderType: .snoozed)
        try await store.emails.saveFolders([snoozedFolder])
        store.folders["acct-work"]!.append(snoozedFolder)
        let inSnoozed = try await store.add(1...3, in: [.snoozed])
        let inInbox = try await store.add([4], in: [.inbox])
        let times = GRDBSnoozeRepository(database: store.database)
        let soon = Date(timeIntervalSince1970: 1_900_000_000), later = soon.addingTimeInterval(3600)
        try await times.set(emailIds: [inSnoozed[0].id], time: .until(later))
        try await times.set(emailIds: [inSnoozed[1].id], time: .until(soon))
        try await times.set(emailIds: [inSnoozed[2].id], time: .someday)
        // A stale time of mail another client moved back to the inbox: not snoozed.
        try await times.set(emailIds: [inInbox[0].id], time: .until(soon.addingTimeInterval(-60)))

        let listed = try await times.snoozed()
        #expect(listed.map(\.threadId) == [inSnoozed[1].threadId, inSnoozed[0].threadId, inSnoozed[2].threadId])
        #expect(listed.map(\.time) == [.until(soon), .until(later), .someday])
        #expect(try await times.nextWake() == soon)
        #expect(try await times.accountsDue(at: soon.addingTimeInterval(-1)).isEmpty)
        #expect(try await times.accountsDue(at: soon) == ["acct-work"])
        #expect(try await times.times(threadIds: [inSnoozed[2].threadId, inInbox[0].threadId]) == [inSnoozed[2].threadId: .someday])

        // The server's answer replaces the account's rows.
        try await times.replace(accountId: "acct-work", times: [inSnoozed[2].id: .until(later)])
        #expect(try await times.snoozed().map(\.time) == [.until(later)])
        try await times.remove(emailIds: [inSnoozed[2].id])
        #expect(try await times.snoozed().isEmpty)
        #expect(try await times.nextWake() == nil)
    }

    @Test("A conversation that came back is listed as of then: above mail that arrived while it was snoozed, and it stays there after later changes")
    func cameBackOnTop() async throws {
        let store = try await StoreFixture()
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let old = try await store.add([1], in: [.inbox]) { $0.dateReceived = base; $0.dateSent = base }
        try await store.add([2], in: [.inbox]) { $0.dateReceived = base.addingTimeInterval(600); $0.dateSent = base.addingTimeInterval(600) }
        let inbox = store.folder(.inbox).id
        #expect(try await store.allThreadIds(folderId: inbox).first != old[0].threadId)

        let times = GRDBSnoozeRepository(database: store.database)
        let woke = base.addingTimeInterval(3600)
        try await times.cameBack(emailIds: [old[0].id], at: woke)
        #expect(try await store.allThreadIds(folderId: inbox).first == old[0].threadId)
        #expect(try await store.emails.getThread(id: old[0].threadId)?.latestDate == woke)
        // Its message keeps the date it arrived.
        #expect(try await store.emails.getEmail(id: old[0].id)?.dateReceived == base)
        // A later change of the conversation (read) keeps it where it came back.
        try await store.emails.setThreadRead(id: old[0].threadId, isRead: true)
        #expect(try await store.allThreadIds(folderId: inbox).first == old[0].threadId)
    }
}
