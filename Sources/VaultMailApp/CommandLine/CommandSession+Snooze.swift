import Foundation
import VaultMailCore

extension CommandSession {
    /// Snoozing on the server: the rules the web app and the daemon share.
    public var snoozeService: Snooze { dependencies.snooze(services: services) }

    /// `vaultmail snooze THREAD… --until WHEN`: out of the inbox until `when` (a preset, an ISO
    /// 8601 time, or a local `YYYY-MM-DD HH:MM`). An unreadable or past time is a usage error.
    public func snooze(_ prefixes: [String], until when: String) async throws -> String {
        let service = snoozeService
        let time: SnoozeTime
        do {
            time = try service.time(from: when)
        } catch {
            throw CommandError("--until: \(error)", usage: true)
        }
        let ids = try await snoozeTargets(prefixes)
        let result = await service.snooze(ids, until: time)
        return try snoozeReport("snooze", result, done: "snoozed until \(describe(time))")
    }

    /// `vaultmail unsnooze THREAD…`: back to the inbox now.
    public func unsnooze(_ prefixes: [String]) async throws -> String {
        let ids = try await snoozeTargets(prefixes)
        return try snoozeReport("unsnooze", await snoozeService.unsnooze(ids), done: "back in the inbox")
    }

    /// `vaultmail snoozed`: the snoozed conversations, the soonest first, someday last.
    /// Each account's Snoozed mailbox is read on the server first (another client may have
    /// moved mail out); a server that cannot be reached leaves what the store said.
    public func snoozed(json: Bool) async throws -> String {
        let service = snoozeService
        for account in try await accountService.active() { try? await service.refresh(accountId: account.id) }
        let list = try await service.snoozed()
        if json { return try ThreadJSON.encode(list.map(SnoozedJSON.init)) }
        guard !list.isEmpty else { return "nothing is snoozed" }
        return list.map { item in
            "\(describe(item.time).padding(toLength: 24, withPad: " ", startingAt: 0))  \(item.threadId.prefix(ThreadRow.idLength))  \(item.subject) — \(item.from)"
        }.joined(separator: "\n")
    }

    /// "2026-12-01 08:00 (Tuesday)", or "someday".
    func describe(_ time: SnoozeTime) -> String {
        guard let date = time.date else { return "someday" }
        let weekday = DateFormatter()
        weekday.locale = Locale(identifier: "en_US_POSIX")
        weekday.timeZone = clock.timeZone
        weekday.dateFormat = "EEEE"
        return "\(Snooze.localText(date, timeZone: clock.timeZone)) (\(weekday.string(from: date)))"
    }

    private func snoozeTargets(_ prefixes: [String]) async throws -> [String] {
        guard !prefixes.isEmpty else { throw CommandError("name at least one THREAD-ID (`vaultmail threads` shows them)", usage: true) }
        var ids: [String] = []
        for prefix in prefixes { ids.append(try await threadId(prefix)) }
        return ids
    }

    private func snoozeReport(_ verb: String, _ result: BatchActionResult, done: String) throws -> String {
        let count = result.succeeded.count
        guard result.failed.isEmpty else {
            let reasons = result.failed.map { "  \($0.id.prefix(ThreadRow.idLength)): \(PlainWords.lines($0.error))" }.joined(separator: "\n")
            throw CommandError("\(result.failed.count) of \(count + result.failed.count) failed to \(verb):\n\(reasons)")
        }
        // Kept for a server that cannot be reached (issue 29's queue).
        return (["\(verb): \(count) conversation\(count == 1 ? "" : "s") \(done)"] + [PendingChanges.note(result.kept)].compactMap { $0 })
            .joined(separator: "\n")
    }
}

/// `vaultmail snoozed --json`: one object per conversation.
struct SnoozedJSON: Encodable {
    var threadId: String
    var accountId: String
    var subject: String
    var from: String
    /// ISO 8601 (UTC); null for someday.
    var until: String?
    var someday: Bool

    init(_ item: SnoozedConversation) {
        threadId = item.threadId
        accountId = item.accountId
        subject = item.subject
        from = item.from
        until = item.time.date.map(ThreadJSON.iso)
        someday = item.time == .someday
    }
}
