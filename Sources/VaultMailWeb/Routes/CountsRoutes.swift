import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `GET /mail/counts?box=&cat=`: everything on the page that counts unread mail — the
    /// sidebar, the list's category tabs, the window title (the list shown: its folder or box,
    /// all categories) and whether "Mark all as read" is offered (its tab's unread) — read from
    /// one snapshot of the store, so that after a change event (`/events`) they are swapped in
    /// together and agree with each other (issue 29).
    func addCountsRoutes(to router: Router<WebRequestContext>) {
        router.get("/mail/counts") { request, requestContext -> Response in
            let query = try request.query(MailQuery.self)
            guard let mailbox = Mailbox(parameter: query.box) else { return Pages.plain(.badRequest, "Unknown mailbox.") }
            let screen = self.screen
            let context = await screen.context(counts: true)
            let sidebar = await screen.sidebar(context, current: mailbox)
            let described = screen.describe(mailbox, context)
            let category = query.cat.flatMap(AICategory.init(rawValue:))
            let counts = await screen.unreadCounts(mailbox, context)
            let list = ThreadListView(
                mailbox: mailbox, title: described.title, category: category,
                categoryCounts: counts, page: .empty, openThread: query.t, dates: self.dates,
                me: context.me, accountNames: [:], csrf: self.csrf(context: requestContext), moveTargets: [])
            return Pages.json(JSONReply.Counts(
                title: MailPage.documentTitle(described.title, unread: counts[nil] ?? 0), sidebar: sidebar.render().html,
                tabs: list.tabs().html, unread: counts[category] ?? 0))
        }
    }
}
