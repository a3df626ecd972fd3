import Foundation

/// The application service for snoozing (issue 33), written once for the `vaultmail` tool, the
/// web app and the daemon: a conversation leaves the inbox until a time and comes back to the
/// top of the inbox unread, announced by the notification rules; meanwhile it is listed under
/// Snoozed. The state is the IMAP server's (`SnoozeServer`: a Snoozed mailbox and a keyword per
/// message, docs/snooze.md); the store keeps what the server said for the lists and the timer.
///
/// - `time(from:)`: a preset word (`SnoozePreset`) or a date and time, refused when unreadable
///   or past, in the words both faces show.
/// - `snooze`, `unsnooze`: on the server first, per conversation, failures with the reason.
/// - `snoozed`, `times`: what the lists show; `nextWake`: the daemon's timer.
/// - `wakeDue`: the daemon's wake (each message moved back once, whoever else wakes it).
public struct Snooze: Sendable {
    private let emails: any EmailRepository
    private let server: any SnoozeServer
    private let store: any SnoozeRepository
    private let clock: any WallClock
    private let changed: (@Sendable () async -> Void)?
    /// Where a snooze waits while the server cannot be reached (issue 29's queue), when `emails`
    /// keeps changes.
    private let pending: PendingChanges?

    /// - Parameters:
    ///   - changed: told after a snooze or un-snooze succeeded (the daemon's timer re-arms).
    public init(emails: any EmailRepository, server: any SnoozeServer, store: any SnoozeRepository, clock: any WallClock,
                changed: (@Sendable () async -> Void)? = nil) {
        self.emails = emails
        self.server = server
        self.store = store
        self.clock = clock
        self.changed = changed
        pending = (emails as? any TriageServer).flatMap { PendingChanges(server: $0, clock: clock) }
    }

    // MARK: Times

    /// The presets with their times now, in the clock's time zone (this evening only while it
    /// is at least an hour away).
    public func presets() -> [(preset: SnoozePreset, time: SnoozeTime)] {
        SnoozePreset.allCases.compactMap { preset in
            preset.time(now: clock.now, timeZone: clock.timeZone).map { (preset, $0) }
        }
    }

    /// The time `text` names: a preset word, an ISO 8601 date and time with its offset
    /// (`2026-12-01T09:00:00+01:00`, `…Z`), or a local date and time (`2026-12-01 09:00`,
    /// `2026-12-01T09:00`, seconds allowed). Throws `.unreadableTime`, `.inThePast`,
    /// `.eveningPassed`.
    public func time(from text: String) throws(SnoozeError) -> SnoozeTime {
        try Self.time(from: text, now: clock.now, timeZone: clock.timeZone)
    }

    /// `time(from:)` at `now` in `timeZone`.
    public static func time(from text: String, now: Date, timeZone: TimeZone) throws(SnoozeError) -> SnoozeTime {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let preset = SnoozePreset(word: trimmed) {
            guard let time = preset.time(now: now, timeZone: timeZone) else { throw .eveningPassed }
            return time
        }
        guard let date = date(from: trimmed, timeZone: timeZone) else { throw .unreadableTime(trimmed) }
        try check(.until(date), now: now, timeZone: timeZone)
        return .until(date)
    }

    /// Refuses a time that has passed.
    static func check(_ time: SnoozeTime, now: Date, timeZone: TimeZone) throws(SnoozeError) {
        guard let date = time.date, date <= now else { return }
        throw .inThePast(time: localText(date, timeZone: timeZone), now: localText(now, timeZone: timeZone))
    }

    /// "2026-12-01 09:00" in `timeZone`.
    public static func localText(_ date: Date, timeZone: TimeZone) -> String {
        formatter("yyyy-MM-dd HH:mm", timeZone: timeZone).string(from: date)
    }

    /// The date and time `text` names: ISO 8601 with its offset, or local in `timeZone` (the
    /// forms `time(from:)` lists); nil otherwise. Send later reads its times the same way.
    static func date(from text: String, timeZone: TimeZone) -> Date? {
        let withOffset = ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX"]
        for format in withOffset {
            if let date = formatter(format, timeZone: timeZone).date(from: text) { return date }
        }
        let local = ["yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"]
        for format in local {
            if let date = formatter(format, timeZone: timeZone).date(from: text) { return date }
        }
        return nil
    }

    private static func formatter(_ format: String, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.isLenient = false
        formatter.dateFormat = format
        return formatter
    }

    // MARK: Acting

    /// Snoozes each conversation until `time` (on the server first); a time that has passed is
    /// refused for all of them. Reports which failed and why (`PlainWords` says it).
    public func snooze(_ threadIds: [String], until time: SnoozeTime) async -> BatchActionResult {
        do {
            try Self.check(time, now: clock.now, timeZone: clock.timeZone)
        } catch {
            return BatchActionResult(failed: threadIds.map { ($0, error) })
        }
        return await each(threadIds, keeping: .snooze(until: time)) { try await server.snooze(threadId: $0, until: time) }
    }

    /// Brings each conversation back to the inbox now, as it was (read or not).
    public func unsnooze(_ threadIds: [String]) async -> BatchActionResult {
        await each(threadIds, keeping: .unsnooze) { try await server.unsnooze(threadId: $0) }
    }

    /// `body` for each conversation, on the server first; when it cannot be reached (or its
    /// account has changes waiting, which go first), the change is shown here and kept for it
    /// as the other actions are (`PendingChanges`, issue 29), with the time in the list.
    private func each(_ ids: [String], keeping action: ConversationAction, _ body: (String) async throws -> Void) async -> BatchActionResult {
        var result = BatchActionResult()
        for id in ids {
            do {
                guard let thread = try? await emails.getThread(id: id) else { throw SnoozeError.notFound(id: id) }
                do {
                    if let pending, await pending.hasWaiting(accountId: thread.accountId) { throw PendingChanges.Waiting() }
                    try await body(id)
                } catch let error where pending?.canWait(after: error) == true {
                    guard let pending else { throw error }
                    result.kept.append(try await pending.keep(action, threadId: id))
                    let emailIds = try await emails.getEmails(threadId: id).map(\.id)
                    if case .snooze(let time) = action { try await store.set(emailIds: emailIds, time: time) } else { try await store.remove(emailIds: emailIds) }
                }
                result.succeeded.append(id)
            } catch {
                result.failed.append((id, error))
            }
        }
        if !result.succeeded.isEmpty { await changed?() }
        return result
    }

    // MARK: Reading

    /// Every snoozed conversation, the soonest first, someday last.
    public func snoozed() async throws -> [SnoozedConversation] { try await store.snoozed() }

    /// The snooze times of these conversations (those snoozed); empty when the store cannot be read.
    public func times(_ threadIds: [String]) async -> [String: SnoozeTime] {
        guard !threadIds.isEmpty else { return [:] }
        return (try? await store.times(threadIds: threadIds)) ?? [:]
    }

    /// When the next conversation comes back; nil when none has a time.
    public func nextWake() async -> Date? { try? await store.nextWake() }

    // MARK: The daemon

    /// Reads the account's snoozed mail from the server again (after a sync: another client may
    /// have snoozed, woken or moved some).
    public func refresh(accountId: String) async throws { try await server.refresh(accountId: accountId) }

    /// Wakes every conversation due now, account by account, on the server first: each message
    /// moved back once (`SnoozeServer.wake`). Returns what this call moved, and the accounts it
    /// could not wake with why (tried again at the next call).
    public func wakeDue() async -> (woken: [WokenMail], failed: [(accountId: String, error: any Error)]) {
        let now = clock.now
        var woken: [WokenMail] = []
        var failed: [(accountId: String, error: any Error)] = []
        for accountId in (try? await store.accountsDue(at: now)) ?? [] {
            do {
                let mail = try await server.wake(accountId: accountId, now: now)
                if !mail.emailIds.isEmpty { woken.append(mail) }
            } catch {
                failed.append((accountId, error))
            }
        }
        return (woken, failed)
    }
}
