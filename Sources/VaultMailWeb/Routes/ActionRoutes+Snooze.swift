import Foundation
import VaultMailCore

extension WebApp {
    /// `POST /actions` with `snooze` (`one=snooze:PRESET`, or `snooze:pick` with the picker's
    /// `until`; the script sends `action=snooze&until=…`) or `unsnooze` on the conversations
    /// `t[]`, through Core's `Snooze` (issue 33); nil for other verbs.
    func snoozeAction(_ verb: String, ids: [String], until: String?) async -> ActionOutcome? {
        guard verb == "snooze" || verb == "unsnooze" else { return nil }
        guard let snooze = mail.snooze else { return ActionOutcome(message: "Snoozing needs the daemon, which brings conversations back.", status: .badRequest) }
        guard !ids.isEmpty else { return Self.nothingSelected }
        if verb == "unsnooze" {
            let result = await snooze.unsnooze(ids)
            await events.publish(.changed)
            return snoozeOutcome(result, of: ids.count, done: "\(Self.count(result.succeeded.count)) back in the inbox.", failing: "unsnoozed")
        }
        let text = (until ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return ActionOutcome(message: "Choose when the conversation comes back: a time from the menu, or a date and time.", status: .badRequest) }
        let time: SnoozeTime
        do {
            time = try snooze.time(from: text)
        } catch {
            return ActionOutcome(problem: PlainProblem(error), status: .badRequest)
        }
        let result = await snooze.snooze(ids, until: time)
        await events.publish(.changed)
        let until = time.date.map { "until \(dates.wakeTime($0))" } ?? "until you unsnooze them"
        return snoozeOutcome(result, of: ids.count, done: "Snoozed \(Self.count(result.succeeded.count)) \(until).", failing: "snoozed")
    }

    private func snoozeOutcome(_ result: BatchActionResult, of total: Int, done: String, failing: String) -> ActionOutcome {
        var outcome = ActionOutcome(done: result.succeeded.count, failed: result.failed.map { .init(id: $0.id, error: PlainWords.of($0.error)) },
                                    waiting: result.kept.count)
        guard let first = result.failed.first else {
            outcome.message = [done, PendingChanges.note(result.kept)].compactMap { $0 }.joined(separator: " ")
            return outcome
        }
        let who = result.failed.count == total ? Self.count(total) : "\(result.failed.count) of \(Self.count(total))"
        outcome.message = "\(who) couldn't be \(failing): \(PlainWords.of(first.error))"
        outcome.detail = PlainWords.detail(first.error)
        outcome.status = outcome.done == 0 ? .badGateway : .ok
        return outcome
    }

    /// The toolbar's Snooze menu, and whether the list is a Snoozed folder.
    func addSnoozeMenu(_ list: inout ThreadListView, _ context: MailScreen.Context) {
        guard let snooze = mail.snooze, list.mailbox != .outbox else { return }
        list.snoozeMenu = SnoozeMenu(presets: snooze.presets(), dates: dates, now: mail.clock.now, timeZone: mail.clock.timeZone,
                                     label: "Snooze selected until", scope: "list")
        list.snoozedBox = list.mailbox.folderId.map { id in context.folders.values.joined().contains { $0.id == id && $0.folderType == .snoozed } } ?? false
    }

    /// When the page's snoozed conversations come back (the Snoozed box's rows).
    func addWakeTimes(_ list: inout ThreadListView, _ page: ThreadPage) async {
        // Rows of list mail offer Unsubscribe (issue 33).
        if let unsubscribe = mail.unsubscribe {
            list.unsubscribable = (try? await unsubscribe.offered(threadIds: page.threads.map(\.id))) ?? [:]
        }
        guard let snooze = mail.snooze, list.snoozedBox else { return }
        list.wakeTimes = await snooze.times(page.threads.map(\.id))
    }
}
