import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// Summaries and suggested replies (issue 16), written on this computer and never waited
    /// for by a page:
    /// - `GET /threads/{id}/summary`: the summary panel's fragment, the stored summary when it is
    ///   current, else one written now (the script swaps it in);
    /// - `POST /threads/{id}/summary`: Summarize, or Refresh with `refresh=1`; back to the
    ///   conversation (`return=`), or the fragment with `fragment=1` (the script);
    /// - `GET /threads/{id}/replies`: server-sent events, one `suggestions` event per suggestion
    ///   as it is written (all so far, rendered), then `done`, or `failure` with what went wrong.
    func addWritingRoutes(to router: Router<WebRequestContext>) {
        router.get("/threads/{id}/summary") { _, context -> Response in
            let threadId = Self.threadId(context)
            let panel = await self.writeSummary(threadId: threadId, refresh: false)
            return Self.fragment(panel)
        }
        router.post("/threads/{id}/summary") { request, context -> Response in
            let threadId = Self.threadId(context)
            let form = try context.form(WritingForm.self)
            let panel = await self.writeSummary(threadId: threadId, refresh: form.refresh == "1")
            if try request.query(WritingForm.self).fragment == "1" { return Self.fragment(panel) }
            return Pages.redirect(WebApp.safeReturn(form.returnTo) + "#summary")
        }
        router.get("/threads/{id}/replies") { request, context -> Response in
            let threadId = Self.threadId(context)
            let query = try request.query(WritingForm.self)
            return self.replyStream(threadId: threadId, fallbackEmailId: query.email ?? "", here: WebApp.safeReturn(query.returnTo))
        }
    }

    /// What Summarize and Refresh post (`refresh=1`, `return=`, `fragment=1` in the query for
    /// the script) and what the reply stream is asked with (`email=`, `return=`).
    private struct WritingForm: Decodable {
        var refresh: String?
        var fragment: String?
        var email: String?
        var returnTo: String?

        private enum CodingKeys: String, CodingKey {
            case refresh, fragment, email, returnTo = "return"
        }
    }

    /// The conversation named in the path (`/threads/{id}/…`), percent-decoded.
    private static func threadId(_ context: WebRequestContext) -> String {
        let raw = context.parameters.get("id") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    private static func fragment(_ panel: SummaryPanel) -> Response {
        var response = Pages.html(panel.render(), status: { if case .failed = panel.state { .internalServerError } else { .ok } }())
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The panel with the conversation's summary: the current one, else one written now (one at
    /// a time per conversation), or what went wrong.
    func writeSummary(threadId: String, refresh: Bool) async -> SummaryPanel {
        guard let summaries = mail.summaries else {
            return SummaryPanel(threadId: threadId, state: .failed(PlainProblem(words: "Summaries are not written by this VaultMail.")))
        }
        do {
            let summary = try await summaryRequests.summary(threadId: threadId) {
                try await summaries.summarize(threadId: threadId, refresh: refresh)
            }
            return SummaryPanel(threadId: threadId, state: .summary(summary, stale: false))
        } catch {
            return SummaryPanel(threadId: threadId, state: .failed(PlainProblem(error).led(by: "The summary could not be written. ")))
        }
    }

    /// Suggested replies, all at once (the page asked for them without the script).
    func suggestedReplies(threadId: String) async -> ReplySuggestionsView.State {
        guard let replies = mail.replySuggestions else { return .failed(PlainProblem(words: "Suggested replies are not written by this VaultMail.")) }
        do {
            return .ready(try await replies.suggest(threadId: threadId))
        } catch {
            return .failed(PlainProblem(error).led(by: "Replies could not be suggested. "))
        }
    }

    /// One event whenever a suggestion is ready; a closed page ends the stream, which stops the
    /// generation.
    private func replyStream(threadId: String, fallbackEmailId: String, here: String) -> Response {
        let replies = mail.replySuggestions
        var response = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
            // The stream ends by itself; the page closes it on `done`, so the browser never asks again.
            try await writer.write(ByteBuffer(string: "retry: 600000\n\n"))
            guard let replies else {
                try await writer.write(ByteBuffer(string: Self.failureFrame(PlainProblem(words: "Suggested replies are not written by this VaultMail."))))
                try await writer.finish(nil)
                return
            }
            var last: ReplySuggestions?
            do {
                for try await suggestions in replies.stream(threadId: threadId) {
                    last = suggestions
                    try await writer.write(ByteBuffer(string: Self.suggestionsFrame(suggestions, event: "suggestions", fallbackEmailId: fallbackEmailId, here: here)))
                }
                let final = last ?? ReplySuggestions(threadId: threadId, emailId: nil, language: nil, source: .none, suggestions: [],
                                                     notice: "No suggestions for this message.")
                try await writer.write(ByteBuffer(string: Self.suggestionsFrame(final, event: "done", fallbackEmailId: fallbackEmailId, here: here)))
            } catch {
                try await writer.write(ByteBuffer(string: Self.failureFrame(PlainProblem(error).led(by: "Replies could not be suggested. "))))
            }
            try await writer.finish(nil)
        })
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// What one event carries: the suggestions as data and as the group's rendered body.
    private struct SuggestionsEvent: Encodable {
        struct Item: Encodable {
            var text: String
            var intent: String
            var href: String
        }

        var source: String
        var notice: String?
        var emailId: String?
        var suggestions: [Item]
        var html: String
        var announcement: String
    }

    static func suggestionsFrame(_ suggestions: ReplySuggestions, event: String, fallbackEmailId: String, here: String) -> String {
        let emailId = suggestions.emailId ?? fallbackEmailId
        let payload = SuggestionsEvent(
            source: suggestions.source.rawValue, notice: suggestions.notice, emailId: suggestions.emailId,
            suggestions: suggestions.suggestions.map {
                .init(text: $0.text, intent: $0.intent.rawValue,
                      href: ReplySuggestionsView.composeURL(emailId: emailId, text: $0.text, returnTo: here))
            },
            html: ReplySuggestionsView.body(suggestions, fallbackEmailId: emailId, here: here).html,
            announcement: ReplySuggestionsView.announcement(suggestions))
        return "event: \(event)\ndata: \(Pages.jsonText(payload))\n\n"
    }

    /// The stream's `failure` event: the words and the detail the script shows behind a disclosure.
    static func failureFrame(_ problem: PlainProblem) -> String {
        "event: failure\ndata: \(Pages.jsonText(JSONReply.Failure(error: problem.words, detail: problem.detail)))\n\n"
    }
}
