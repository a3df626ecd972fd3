import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// "Mark all as read" (issue 29), over Core's one rule (`Conversations.markAllRead`): the
    /// unread conversations of the list shown — its folder or box, in its category tab — none
    /// newer than the newest row the page drew (`upto`, milliseconds), marked read as one
    /// conversation is, on the server first (kept for it when offline). Not offered on search
    /// results or the Outbox.
    ///
    /// - `GET /mail/unread?box=&cat=&upto=` names them (`JSONReply.UnreadThreads`): the script
    ///   counts them in its toast and shows them read during the undo window.
    /// - `POST /actions` with `read=all`, `box`, `cat`, `upto` marks them (the list's form
    ///   without the script; the script once the undo window has passed).
    func addMarkAllReadRoutes(to router: Router<WebRequestContext>) {
        router.get("/mail/unread") { request, _ -> Response in
            let query = try request.query(MarkAllForm.self)
            let list: ConversationList
            do throws(MarkAllForm.Problem) { list = try query.list() } catch { return Pages.plain(.badRequest, error.message) }
            do {
                let ids = try await self.mail.mailboxes.unreadThreadIds(in: list, upTo: query.upToDate)
                return Pages.json(JSONReply.UnreadThreads(ids: ids))
            } catch {
                return Pages.plain(.internalServerError, "The list could not be read. \(PlainWords.of(error))")
            }
        }
    }

    /// Marks the list's unread conversations read (`read=all`), in words for a toast or the
    /// page's notice.
    func markAllRead(_ form: MarkAllForm) async -> ActionOutcome {
        let list: ConversationList
        do throws(MarkAllForm.Problem) { list = try form.list() } catch { return ActionOutcome(message: error.message, status: .badRequest) }
        let result: BatchActionResult
        do {
            result = try await mail.conversations.markAllRead(in: list, upTo: form.upToDate)
        } catch {
            return ActionOutcome(message: "The list could not be read. \(PlainWords.of(error))", detail: PlainWords.detail(error), status: .badGateway)
        }
        let total = result.succeeded.count + result.failed.count
        var outcome = Self.outcome("read", result, of: total)
        if outcome.message == nil {
            outcome.message = total == 0 ? "There is no unread mail in this list." : "Marked \(Self.count(total)) read."
        }
        return outcome
    }

    /// The list "Mark all as read" names: `box=` as the pages write it, `cat=` its tab, `upto=`
    /// the newest row's time in milliseconds (`ThreadListView.millis`).
    struct MarkAllForm: Decodable {
        var box: String?
        var cat: String?
        var upto: String?

        struct Problem: Error { var message: String }

        func list() throws(Problem) -> ConversationList {
            let category: AICategory?
            if let cat, !cat.isEmpty {
                guard let known = AICategory(rawValue: cat) else { throw Problem(message: "There is no category '\(cat)'. Reload the page and try again.") }
                category = known
            } else {
                category = nil
            }
            switch Mailbox(parameter: box) {
            case .folder(let id)?: return .folder(id: id, category: category)
            case .unified(let type)?: return .unified(type, category: category)
            case .outbox?: throw Problem(message: "The Outbox holds nothing to mark read.")
            case nil: throw Problem(message: "Unknown mailbox. Reload the page and try again.")
            }
        }

        /// `upto` as a date; nil when absent or not a number (then the whole list).
        var upToDate: Date? {
            upto.flatMap { Int64($0) }.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
    }
}
