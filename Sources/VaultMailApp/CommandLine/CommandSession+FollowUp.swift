import Foundation
import VaultMailCore

extension CommandSession {
    /// Follow-up reminders: the rules the web app and the daemon share (issue 33).
    public var followUpService: FollowUp {
        FollowUp(settings: dependencies.settings, emails: dependencies.emails, accounts: dependencies.accounts, clock: clock)
    }

    /// `vaultmail remind THREAD --in 3d` / `--cancel`: remind if nobody answers.
    public func remind(_ prefix: String, after delay: String?, cancel: Bool) async throws -> String {
        let id = try await threadId(prefix)
        let service = followUpService
        do {
            if cancel {
                try await service.cancel(threadId: id)
                return "No reminder for that conversation any more."
            }
            guard let delay else { throw CommandError("say when: --in 3d (or 1w, 12h, 30m), or --cancel", usage: true) }
            let reminder = try await service.remind(threadId: id, after: delay)
            return "If nobody answers \"\(reminder.subject)\" by \(Snooze.localText(reminder.due, timeZone: clock.timeZone)), the daemon reminds you."
        } catch let error as FollowUpError {
            if case .unreadableDelay = error { throw CommandError("--in: \(error)", usage: true) }
            throw CommandError.presenting(error)
        }
    }

    /// `vaultmail reminders`: the follow-up reminders, soonest first.
    public func reminders() async -> String {
        let list = await followUpService.reminders()
        guard !list.isEmpty else { return "No follow-up reminders." }
        return list.map { "\(Snooze.localText($0.due, timeZone: clock.timeZone))  \($0.threadId.prefix(ThreadRow.idLength))  \($0.subject)" }
            .joined(separator: "\n")
    }
}
