import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// Search (issue 14): `/mail/search?q=` is the mail page with the results as its list (see
    /// `mailPage`); `/mail/search/results?q=` is the list pane alone, for results while typing;
    /// `/mail/list?q=` gives rows for the next page and live refreshes.
    func addSearchRoutes(to router: Router<WebRequestContext>) {
        router.get("/mail/search/results") { request, requestContext -> Response in
            let query = try request.query(MailQuery.self)
            let context = await self.screen.context()
            var list = ThreadListView(
                mailbox: .allInboxes, title: "Search", category: nil, categoryCounts: [:], page: .empty, openThread: nil,
                dates: self.dates, me: context.me, accountNames: context.names, csrf: self.csrf(context: requestContext),
                moveTargets: [], notice: nil)
            await self.fillSearch(&list, query: query)
            return Pages.html(list.render(), status: list.search?.problem == nil ? .ok : .badRequest)
        }
    }

    /// Fills the list with the results of `q=` (from `cursor=` on), or the parser's error.
    func fillSearch(_ list: inout ThreadListView, query: MailQuery) async {
        let text = (query.q ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var state = SearchListState(query: text)
        state.byMeaning = query.meaning == "1"
        defer { list.search = state }
        list.muted = Set(await mail.notificationSettings.mutedThreadIds())
        list.title = text.isEmpty ? "Search" : "Results for “\(text)”"
        list.category = nil
        guard !text.isEmpty else { return }
        if state.byMeaning { return await fillSearchByMeaning(&list, &state, text: text, cursor: query.cursor) }
        guard let search = mail.search else {
            list.notice = "Search is not available in this VaultMail."
            return
        }
        let cursor = query.cursor.flatMap(SearchCursor.init(encoded:))
        do {
            let page = try await search.threads(text, options: SearchOptions(cursor: cursor))
            list.page = ThreadPage(threads: page.hits.map(\.thread), nextCursor: nil, hasMore: page.hasMore)
            state.nextCursor = page.nextCursor
            for hit in page.hits { state.highlights[hit.thread.id] = hit.highlight }
        } catch .invalidQuery(let problem) {
            state.problem = problem
        } catch {
            Self.searchFailed(error, &list)
        }
    }

    /// A search that could not be run: why in words, the detail behind a disclosure (issue 29).
    private static func searchFailed(_ error: SearchError, _ list: inout ThreadListView) {
        list.notice = PlainWords.of(error)
        list.noticeDetail = PlainWords.detail(error)
        list.failed = true
    }

    /// Results by meaning (issue 15): conversations best first, a page at a time by offset.
    /// Without a model the list says how to get one.
    private func fillSearchByMeaning(_ list: inout ThreadListView, _ state: inout SearchListState, text: String, cursor: String?) async {
        guard let semantic = mail.semanticSearch else {
            list.notice = "Search by meaning is not available in this VaultMail."
            return
        }
        let offset: Int = if let cursor, case .offset(let start)? = SearchCursor(encoded: cursor) { start } else { 0 }
        do {
            let page = try await semantic.threads(text, options: SearchOptions(sort: .relevance, cursor: .offset(offset)))
            list.page = ThreadPage(threads: page.hits.map(\.thread), nextCursor: nil, hasMore: page.hasMore)
            state.nextCursor = page.nextCursor
            for hit in page.hits { state.highlights[hit.thread.id] = hit.highlight }
        } catch .invalidQuery(let problem) {
            state.problem = problem
        } catch .failed(let underlying as AIError) {
            guard case .modelNotInstalled = underlying else { return Self.searchFailed(.failed(underlying: underlying), &list) }
            list.notice = underlying.description  // how to get a model: Settings → On-device AI, or the tool's command
        } catch {
            Self.searchFailed(error, &list)
        }
    }

    /// The rows of a page of results (`/mail/list?q=…`): the next page, or a live refresh.
    func searchRows(_ query: MailQuery, csrf: String) async -> Response {
        let context = await screen.context()
        var list = ThreadListView(
            mailbox: .allInboxes, title: "Search", category: nil, categoryCounts: [:], page: .empty, openThread: nil,
            dates: dates, me: context.me, accountNames: context.names, csrf: csrf, moveTargets: [], notice: nil)
        await fillSearch(&list, query: query)
        if let problem = list.search?.problem { return Pages.plain(.badRequest, problem.plainWords) }
        if list.failed, let notice = list.notice { return Pages.plain(.internalServerError, notice) }
        return Pages.html(list.rows(list.page))
    }
}
