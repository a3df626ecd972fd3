import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// The pages and the fragments the script swaps in: `/mail` (the whole page, a list and
    /// maybe a conversation), `/mail/list` (rows), `/mail/conversation`; the counts are
    /// `/mail/counts` (`addCountsRoutes`).
    func addMailRoutes(to router: Router<WebRequestContext>) {
        router.get("/") { _, _ in Pages.redirect("/mail") }
        router.get("/mail") { request, context in try await self.mailPage(request, context) }
        router.get("/mail/search") { request, context in try await self.mailPage(request, context) }
        router.get("/mail/list") { request, requestContext -> Response in
            let query = try request.query(MailQuery.self)
            if query.q != nil { return await self.searchRows(query, csrf: self.csrf(context: requestContext)) }
            guard let mailbox = Mailbox(parameter: query.box) else { return Pages.plain(.badRequest, "Unknown mailbox.") }
            let screen = self.screen
            let context = await screen.context()
            let limit = min(200, max(1, Int(query.limit ?? "") ?? AppConstants.threadListPageSize))
            let cursor = query.cursor.flatMap(ThreadCursor.init(encoded:))
            var view = await self.listView(mailbox, context, query: query, csrf: self.csrf(context: requestContext))
            view.dateHeadings = await self.mail.preferences.dateHeadings()
            view.headingsAfter = cursor?.date
            if mailbox == .outbox {
                view.outbox = (try? await self.mail.compose.outboxEntries(accountId: nil)) ?? []
                return Pages.html(view.outboxRows())
            }
            switch await screen.page(mailbox, context, category: view.category, cursor: cursor, limit: limit) {
            case .page(let page, _):
                await self.addWakeTimes(&view, page)
                return Pages.html(view.rows(page))
            case .failed(let message): return Pages.plain(.internalServerError, message)
            }
        }
        router.get("/mail/conversation") { request, requestContext -> Response in
            let query = try request.query(MailQuery.self)
            guard let threadId = query.t, let mailbox = Mailbox(parameter: query.box) else {
                return Pages.plain(.badRequest, "Name a conversation (t=) and its list (box=).")
            }
            let context = await self.screen.context()
            switch await self.screen.conversation(threadId, mailbox: mailbox, category: query.cat.flatMap(AICategory.init(rawValue:)),
                                                  context: context, imagesFor: query.images,
                                                  csrf: self.csrf(context: requestContext), dates: self.dates,
                                                  opening: query.known == nil && query.shown == nil, shown: query.shownCount) {
            case .shown(let view):
                if query.known == view.version { return Response(status: .noContent) }
                return Pages.html(view.render())
            case .missing(let message):
                return Pages.html(ConversationView.missing(message), status: .notFound)
            }
        }
    }

    /// The query of the mail pages and their fragments (`/mail`, `/mail/search`, `/mail/list`,
    /// `/mail/conversation`, `/mail/counts`, `/mail/search/results`).
    struct MailQuery: Decodable {
        /// The list (`Mailbox(parameter:)`), its category tab, the open conversation.
        var box: String?
        var cat: String?
        var t: String?
        /// A search, by meaning with `meaning=1`.
        var q: String?
        var meaning: String?
        /// Where a page of the list starts, and how many rows (`/mail/list`).
        var cursor: String?
        var limit: String?
        /// The message whose remote images are shown, the shown version of a conversation (a
        /// refresh answers 204 when it is the same), suggested replies asked without the script.
        var images: String?
        var known: String?
        var replies: String?
        var notice: String?
        /// How many of a long conversation's newest messages are shown (its older ones asked
        /// for, E-06); a page when absent.
        var shown: String?

        var shownCount: Int? { shown.flatMap { Int($0) }.map { min(max($0, 1), 100_000) } }
    }

    var screen: MailScreen { MailScreen(mail: mail, sanitized: sanitized) }

    /// The theme and list density the user chose, and what opens after triage.
    func display() async -> Pages.Display {
        let general = await mail.preferences.general()
        return Pages.Display(theme: general.theme, density: general.listDensity, afterTriage: await mail.preferences.afterTriage())
    }

    /// Dates in the time zone of the machine (the daemon's, which is the browser's: both run here)
    /// and the browser's language.
    var dates: RelativeDate { RelativeDate(now: mail.clock.now, timeZone: mail.clock.timeZone, locale: BrowserLocale.current) }

    func csrf(context: WebRequestContext) -> String {
        context.session?.csrfToken(secret: secret) ?? ""
    }

    private func listView(_ mailbox: Mailbox, _ context: MailScreen.Context, query: MailQuery, csrf: String) async -> ThreadListView {
        let described = screen.describe(mailbox, context)
        var list = ThreadListView(
            mailbox: mailbox, title: described.title, category: query.cat.flatMap(AICategory.init(rawValue:)),
            categoryCounts: [:], page: .empty, openThread: query.t, dates: dates, me: context.me,
            accountNames: mailbox.folderId == nil ? context.names : [:], csrf: csrf, moveTargets: described.moveTargets,
            notice: query.notice)
        addSnoozeMenu(&list, context)
        list.muted = Set(await mail.notificationSettings.mutedThreadIds())
        return list
    }

    private func mailPage(_ request: Request, _ requestContext: WebRequestContext) async throws -> Response {
        let query = try request.query(MailQuery.self)
        guard let mailbox = Mailbox(parameter: query.box) else { return Pages.redirect("/mail") }
        let csrf = self.csrf(context: requestContext)
        let context = await screen.context(counts: true)
        if context.accounts.isEmpty { return Pages.redirect("/welcome") }
        var list = await listView(mailbox, context, query: query, csrf: csrf)
        list.dateHeadings = await mail.preferences.dateHeadings()
        if request.uri.path == "/mail/search" {
            await fillSearch(&list, query: query)
        } else if mailbox == .outbox {
            if let pending = try? await mail.compose.outboxEntries(accountId: nil) {
                list.outbox = pending
            } else {
                list.notice = "The Outbox could not be read. Reload the page to try again."
            }
        } else {
            let cursor = query.cursor.flatMap(ThreadCursor.init(encoded:))
            switch await screen.page(mailbox, context, category: list.category, cursor: cursor, limit: AppConstants.threadListPageSize) {
            case .page(let page, let counts):
                list.page = page
                list.categoryCounts = counts
                await addWakeTimes(&list, page)
            case .failed(let message):
                list.notice = message
                list.failed = true
            }
        }
        var conversation: ConversationView?
        var problem: String?
        if let threadId = query.t {
            switch await screen.conversation(threadId, mailbox: mailbox, category: list.category, context: context,
                                             imagesFor: query.images, csrf: csrf, dates: dates, opening: query.shown == nil,
                                             shown: query.shownCount) {
            case .shown(var view):
                if query.replies == "1" { view.replies = await suggestedReplies(threadId: threadId) }
                conversation = view
            case .missing(let message): problem = message
            }
        }
        let sidebar = await screen.sidebar(context, current: mailbox)
        let page = MailPage(title: list.title, unread: list.categoryCounts[nil] ?? 0, sidebar: sidebar, list: list, conversation: conversation,
                            conversationProblem: problem, connectionProblem: await events.connectionProblem,
                            connectionDetail: await events.connectionDetail, csrf: csrf,
                            display: await display(), split: MailPage.split(cookie: request.cookies[MailPage.splitCookie]?.value))
        return Pages.html(page.render(), status: problem == nil ? .ok : .notFound)
    }
}
