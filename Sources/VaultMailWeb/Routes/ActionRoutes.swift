import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `POST /actions`: archive, delete, read, unread, star, unstar, move, mute, unmute on the
    /// conversations named `t[]` (or one named by the button `one=verb:arg`), plus making a
    /// sender VIP or trusting their images, and "Mark all as read" of a list (`read=all`,
    /// `markAllRead`). Actions go through the same use cases as the command
    /// line and reach the server first. The script asks for JSON; a form without it is sent back.
    func addActionRoutes(to router: Router<WebRequestContext>) {
        router.post("/actions") { request, context -> Response in
            let form = try context.form(ActionForm.self)
            if form.read == "all" {
                // "Mark all as read": the list's form names its list, not its conversations.
                let outcome = await self.markAllRead(MarkAllForm(box: form.box, cat: form.cat, upto: form.upto))
                if request.headers[.accept]?.contains("application/json") == true { return Pages.json(outcome, status: outcome.status) }
                let target = Self.safeReturn(form.returnTo)
                return Pages.redirect(outcome.message.map { Self.withNotice(target, $0) } ?? target)
            }
            var verb = form.action ?? ""
            var ids = (form.threads ?? []).filter { !$0.isEmpty }
            var argument = ""
            if let one = form.one, let colon = one.firstIndex(of: ":") {
                verb = String(one[..<colon])
                argument = String(one[one.index(after: colon)...])
                // A row's own buttons (the star, the actions shown on pointing) name their conversation.
                if ["star", "unstar", "archive", "delete", "read", "unread"].contains(verb), !argument.isEmpty { ids = [argument] }
            }
            // The Move menu's buttons name their folder: `one=move:FOLDER-ID` with the form's `t[]`.
            let folder = form.folder ?? (verb == "move" && !argument.isEmpty ? argument : nil)
            let outcome: ActionOutcome
            if let snoozed = await self.snoozeAction(verb, ids: ids, until: argument.isEmpty || argument == "pick" ? form.until : argument) {
                outcome = snoozed
            } else {
                outcome = await self.perform(verb, ids: ids, argument: argument, folder: folder)
            }
            if request.headers[.accept]?.contains("application/json") == true {
                return Pages.json(outcome, status: outcome.status)
            }
            // Back to the list after the conversation left it, or was marked unread (showing it would read it again).
            let leaves = ["archive", "delete", "move", "unread", "snooze", "unsnooze"].contains(verb) && outcome.failed.isEmpty
            let target = Self.safeReturn(leaves ? form.leave ?? form.returnTo : form.returnTo)
            return Pages.redirect(outcome.message.map { Self.withNotice(target, $0) } ?? target)
        }
    }

    /// What the list's and the conversation's forms post to `/actions`.
    private struct ActionForm: Decodable {
        var action: String?
        /// The conversations, `t[]=…&t[]=…`.
        var threads: [String]?
        var one: String?
        var folder: String?
        var returnTo: String?
        var leave: String?
        /// "Mark all as read" (`read=all`) of the list `box`, `cat`, up to `upto` (`MarkAllForm`).
        var read: String?
        var box: String?
        var cat: String?
        var upto: String?
        /// When a snoozed conversation comes back: a preset word or the picker's date and time (issue 33).
        var until: String?

        private enum CodingKeys: String, CodingKey {
            case action, threads = "t", one, folder, returnTo = "return", leave, read, box, cat, upto, until
        }
    }

    /// What an action did, as the script reads it: how many changed, which failed and why (in
    /// a person's words, the technical detail apart), how many wait for the server.
    struct ActionOutcome: Encodable {
        struct Failure: Encodable {
            var id: String
            var error: String
        }

        var done = 0
        var failed: [Failure] = []
        var message: String?
        /// The technical detail behind `message`, shown on demand.
        var detail: String?
        /// Of `done`, how many were done here and wait for the server (issue 29).
        var waiting = 0
        var status: HTTPResponse.Status = .ok

        private enum CodingKeys: String, CodingKey { case done, failed, message, detail, waiting }
    }

    func perform(_ verb: String, ids: [String], argument: String, folder: String?) async -> ActionOutcome {
        if ["archive", "delete", "read", "unread", "star", "unstar", "move", "mute", "unmute", "watch", "unwatch"].contains(verb), ids.isEmpty {
            return Self.nothingSelected
        }
        if let outcome = await changeNotifications(verb, ids: ids, argument: argument) { return outcome }
        if let outcome = await followUpAction(verb, argument: argument) { return outcome }
        let result: BatchActionResult
        switch verb {
        case "categorize":
            return await recategorize(argument, ids: ids)
        case "archive": result = await mail.conversations.perform(.archive, on: ids)
        case "delete": result = await mail.conversations.perform(.delete, on: ids)
        case "read": result = await mail.conversations.perform(.read, on: ids)
        case "unread": result = await mail.conversations.perform(.unread, on: ids)
        case "star": result = await mail.conversations.perform(.star, on: ids)
        case "unstar": result = await mail.conversations.perform(.unstar, on: ids)
        case "move":
            guard let folder, !folder.isEmpty else { return ActionOutcome(message: "Choose a folder to move to.", status: .badRequest) }
            result = await mail.conversations.perform(.move(toFolderId: folder), on: ids)
        default:
            return ActionOutcome(message: "Unknown action '\(verb)'.", status: .badRequest)
        }
        return Self.outcome(verb, result, of: ids.count)
    }

    /// An action's result in a person's words (issue 29): what could not be done and why,
    /// without internal ids or host:port (those are in `detail`), and what waits for the server.
    static func outcome(_ verb: String, _ result: BatchActionResult, of total: Int) -> ActionOutcome {
        var outcome = ActionOutcome(done: result.succeeded.count, failed: result.failed.map { .init(id: $0.id, error: PlainWords.of($0.error)) },
                                    waiting: result.kept.count)
        var sentences: [String] = []
        if let first = result.failed.first {
            let participle = ["archive": "archived", "delete": "deleted", "read": "marked read", "unread": "marked unread",
                              "star": "starred", "unstar": "unstarred", "move": "moved"][verb] ?? "changed"
            let who = result.failed.count == total ? count(total) : "\(result.failed.count) of \(count(total))"
            sentences.append("\(who) couldn't be \(participle): \(PlainWords.of(first.error))")
            outcome.detail = PlainWords.detail(first.error)
            outcome.status = outcome.done == 0 ? .badGateway : .ok
        }
        if let note = PendingChanges.note(result.kept) { sentences.append(note) }
        // Done on the server, not yet here (a full disk, issue 34).
        if let first = result.notUpdatedHere.first {
            sentences.append(PlainWords.of(first.error))
            outcome.detail = outcome.detail ?? PlainWords.detail(first.error)
        }
        outcome.message = sentences.isEmpty ? nil : sentences.joined(separator: " ")
        return outcome
    }

    /// A VIP sender, a sender whose images are shown, muted or unmuted conversations; nil for
    /// the other verbs.
    private func changeNotifications(_ verb: String, ids: [String], argument: String) async -> ActionOutcome? {
        switch verb {
        case "vip":
            do {
                let address = try await mail.notificationSettings.addVIP(argument)
                await events.publish(.changed)
                return ActionOutcome(done: 1, message: NotificationSettings.vipAdded(address))
            } catch {
                return ActionOutcome(problem: PlainProblem(error), status: .badRequest)
            }
        case "images":
            let address = argument.trimmingCharacters(in: .whitespaces)
            guard address.contains("@") else { return ActionOutcome(message: "No sender address to remember.", status: .badRequest) }
            await mail.preferences.allowImages(from: address)
            await events.publish(.changed)
            return ActionOutcome(done: 1, message: "Images from \(address) will be shown from now on.")
        case "mute", "unmute":
            do {
                if verb == "mute" {
                    try await mail.notificationSettings.mute(threadIds: ids)
                } else {
                    try await mail.notificationSettings.unmute(threadIds: ids)
                }
            } catch {
                return ActionOutcome(problem: PlainProblem(error), status: .badRequest)
            }
            await events.publish(.changed)
            return ActionOutcome(done: ids.count, message: "\(Self.count(ids.count)) \(verb == "mute" ? "muted: no more notifications for them" : "unmuted").")
        case "watch", "unwatch":
            do {
                if verb == "watch" {
                    try await mail.notificationSettings.watch(threadIds: ids)
                } else {
                    try await mail.notificationSettings.unwatch(threadIds: ids)
                }
            } catch {
                return ActionOutcome(problem: PlainProblem(error), status: .badRequest)
            }
            await events.publish(.changed)
            return ActionOutcome(done: ids.count, message: verb == "watch"
                ? "\(Self.count(ids.count)) marked \u{201C}notify me\u{201D}: replies come before other mail, whatever their category."
                : "\(Self.count(ids.count)) notif\(ids.count == 1 ? "ies" : "y") like any conversation again.")
        default:
            return nil
        }
    }

    /// `remind:DELAY:THREAD` and `unremind:THREAD` (issue 33); nil for the other verbs.
    private func followUpAction(_ verb: String, argument: String) async -> ActionOutcome? {
        guard verb == "remind" || verb == "unremind", let followUp = mail.followUp else { return nil }
        do {
            if verb == "unremind" {
                try await followUp.cancel(threadId: argument)
                await events.publish(.changed)
                return ActionOutcome(done: 1, message: "Reminder cancelled.")
            }
            let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return ActionOutcome(message: "Choose when to be reminded.", status: .badRequest) }
            let reminder = try await followUp.remind(threadId: parts[1], after: parts[0])
            await events.publish(.changed)
            return ActionOutcome(done: 1, message: "If nobody answers by \(dates.string(for: reminder.due)), you'll be reminded.")
        } catch {
            return ActionOutcome(problem: PlainProblem(error), status: .badRequest)
        }
    }

    static let nothingSelected = ActionOutcome(message: "Select one or more conversations first.", status: .badRequest)

    static func count(_ n: Int) -> String { n == 1 ? "1 conversation" : "\(n) conversations" }

    /// Only our own pages are places to go back to.
    static func safeReturn(_ target: String?) -> String {
        guard let target, target.hasPrefix("/mail"), !target.hasPrefix("//"), !target.contains("\\") else { return "/mail" }
        return target
    }
}

extension WebApp.ActionOutcome {
    /// An action that failed: its words as the message, its detail behind them (issue 29).
    init(problem: PlainProblem, status: HTTPResponse.Status) {
        self.init(message: problem.words, detail: problem.detail, status: status)
    }
}
