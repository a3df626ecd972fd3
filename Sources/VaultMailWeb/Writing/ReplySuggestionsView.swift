import Foundation
import VaultMailCore

/// "Suggested replies" by the reply bar (AC-A-05): up to three short replies to the latest
/// message, each a link that opens the reply composer with its text in the body. With the
/// script they stream in from `GET /threads/{id}/replies` (server-sent events) as the model
/// writes them, announced in a live region; without it a "Suggest replies" link renders the
/// page with them (`&replies=1`).
struct ReplySuggestionsView {
    enum State {
        /// Not asked yet: the script streams them; without it the link asks for them.
        case loading
        case ready(ReplySuggestions)
        case failed(PlainProblem)
    }

    var threadId: String
    /// The message answered when the suggestions do not name one.
    var emailId: String
    var state: State
    /// The conversation's address: where the composer returns to, and the no-script link's base.
    var here: String

    static func path(_ threadId: String) -> String { "/threads/\(WebForm.escape(threadId))/replies" }

    func render() -> Markup {
        struct Model {
            var threadId: String
            var src: String
            var state: String
            var icon: Markup
            var loading: Bool
            var askURL: String
            var body: Markup
            var failure: Markup
            var announcement: String
        }
        var body = Markup.empty, failure = Markup.empty, announcement = "", loading = false, stateName = "loading"
        switch state {
        case .loading:
            loading = true
        case .ready(let suggestions):
            stateName = "ready"
            body = Self.body(suggestions, fallbackEmailId: emailId, here: here)
            announcement = Self.announcement(suggestions)
        case .failed(let problem):
            stateName = "failed"
            failure = ProblemView.render(problem)
        }
        return Self.template.render(Model(
            threadId: threadId, src: Self.path(threadId) + "?email=" + WebForm.escape(emailId) + "&return=" + WebForm.escape(here),
            state: stateName, icon: Icon.sparkle.svg(), loading: loading, askURL: here + "&replies=1#reply-suggestions", body: body,
            failure: failure, announcement: announcement))
    }

    private static let template = Template("""
        <section class="smart-replies" id="reply-suggestions" aria-labelledby="replies-title" data-thread="{{threadId}}"\
         data-src="{{src}}" data-state="{{state}}">\
        <h3 class="replies-title" id="replies-title">{{{icon}}}<span>Suggested replies</span></h3>\
        <div class="replies-body">\
        {{#loading}}<p class="replies-loading"><span class="spinner" aria-hidden="true"></span>Writing suggestions on this device…</p>\
        <p class="replies-ask"><a class="tool" href="{{askURL}}">Suggest replies</a></p>{{/loading}}\
        {{{body}}}\
        {{{failure}}}\
        </div><p class="visually-hidden replies-status" role="status" aria-live="polite">{{announcement}}</p>\
        </section>
        """)

    static func announcement(_ suggestions: ReplySuggestions) -> String {
        switch suggestions.suggestions.count {
        case 0: suggestions.notice ?? "No suggested replies."
        case 1: "1 suggested reply: \(suggestions.suggestions[0].text)"
        default: "\(suggestions.suggestions.count) suggested replies: " + suggestions.suggestions.map(\.text).joined(separator: " / ")
        }
    }

    /// The suggestions and the notice, as the page and each streamed event show them.
    static func body(_ suggestions: ReplySuggestions, fallbackEmailId: String, here: String) -> Markup {
        struct Item { var href: String; var intent: String; var text: String }
        struct Model { var items: [Item]; var hasItems: Bool; var notice: Markup }
        let emailId = suggestions.emailId ?? fallbackEmailId
        let notice = suggestions.notice ?? (suggestions.suggestions.isEmpty ? "No suggestions for this message." : nil)
        return bodyTemplate.render(Model(
            items: suggestions.suggestions.map {
                Item(href: composeURL(emailId: emailId, text: $0.text, returnTo: here), intent: $0.intent.rawValue, text: $0.text)
            },
            hasItems: !suggestions.suggestions.isEmpty,
            notice: notice.map { noticeHTML($0, linkSettings: suggestions.source == .pastReplies) } ?? .empty))
    }

    private static let bodyTemplate = Template("""
        {{#hasItems}}<ul class="suggestion-list">\
        {{#items}}<li><a class="suggestion" href="{{href}}" data-intent="{{intent}}"><span class="visually-hidden">Reply with: </span>{{text}}</a></li>{{/items}}\
        </ul>{{/hasItems}}\
        {{#notice}}<p class="replies-notice hint-text">{{{notice}}}</p>{{/notice}}
        """)

    /// The notice with its commands (between backticks) as code and "Settings → On-device AI"
    /// as a link (added with `linkSettings` when the words do not name it).
    static func noticeHTML(_ notice: String, linkSettings: Bool) -> Markup {
        let settings = "Settings → On-device AI"
        struct Part { var text: String; var code: Bool; var link: Bool }
        struct Model { var parts: [Part] }
        var parts: [Part] = []
        var named = false
        for (index, piece) in notice.components(separatedBy: "`").enumerated() {
            if index % 2 == 1 {
                parts.append(Part(text: piece, code: true, link: false))
                continue
            }
            for (n, text) in piece.components(separatedBy: settings).enumerated() {
                if n > 0 {
                    parts.append(Part(text: settings, code: false, link: true))
                    named = true
                }
                parts.append(Part(text: text, code: false, link: false))
            }
        }
        if linkSettings, !named { parts += [Part(text: " ", code: false, link: false), Part(text: settings, code: false, link: true)] }
        return noticeTemplate.render(Model(parts: parts))
    }

    private static let noticeTemplate = Template("""
        {{#parts}}{{#code}}<code>{{text}}</code>{{/code}}{{#link}}<a href="/settings/ai">{{text}}</a>{{/link}}{{^code}}{{^link}}{{text}}{{/link}}{{/code}}{{/parts}}
        """)

    /// The reply composer with `text` above the quote and the signature.
    static func composeURL(emailId: String, text: String, returnTo: String) -> String {
        ConversationView.composeURL(.reply, email: emailId, returnTo: returnTo) + "&body=" + WebForm.escape(text)
    }
}
