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
        case failed(String)
    }

    var threadId: String
    /// The message answered when the suggestions do not name one.
    var emailId: String
    var state: State
    /// The conversation's address: where the composer returns to, and the no-script link's base.
    var here: String

    static func path(_ threadId: String) -> String { "/threads/\(FormFields.encode(threadId))/replies" }

    func render() -> String {
        let stateName = switch state {
        case .loading: "loading"
        case .ready: "ready"
        case .failed: "failed"
        }
        var out = "<section class=\"smart-replies\" id=\"reply-suggestions\" aria-labelledby=\"replies-title\" data-thread=\"\(HTML.escape(threadId))\""
        out += " data-src=\"\(HTML.escape(Self.path(threadId) + "?email=" + FormFields.encode(emailId) + "&return=" + FormFields.encode(here)))\" data-state=\"\(stateName)\">"
        out += "<h3 class=\"replies-title\" id=\"replies-title\">\(Icon.sparkle.svg())<span>Suggested replies</span></h3>"
        out += "<div class=\"replies-body\">"
        switch state {
        case .loading:
            out += "<p class=\"replies-loading\"><span class=\"spinner\" aria-hidden=\"true\"></span>Writing suggestions on this device…</p>"
            out += "<p class=\"replies-ask\"><a class=\"tool\" href=\"\(HTML.escape(here + "&replies=1#reply-suggestions"))\">Suggest replies</a></p>"
        case .ready(let suggestions):
            out += Self.body(suggestions, fallbackEmailId: emailId, here: here)
        case .failed(let message):
            out += "<p class=\"notice error\" role=\"alert\">\(HTML.escape(message))</p>"
        }
        out += "</div><p class=\"visually-hidden replies-status\" role=\"status\" aria-live=\"polite\">\(announcement)</p>"
        return out + "</section>"
    }

    /// What the live region says once they are there (the script says it again as they stream in).
    private var announcement: String {
        guard case .ready(let suggestions) = state else { return "" }
        return HTML.escape(Self.announcement(suggestions))
    }

    static func announcement(_ suggestions: ReplySuggestions) -> String {
        switch suggestions.suggestions.count {
        case 0: suggestions.notice ?? "No suggested replies."
        case 1: "1 suggested reply: \(suggestions.suggestions[0].text)"
        default: "\(suggestions.suggestions.count) suggested replies: " + suggestions.suggestions.map(\.text).joined(separator: " / ")
        }
    }

    /// The suggestions and the notice, as the page and each streamed event show them.
    static func body(_ suggestions: ReplySuggestions, fallbackEmailId: String, here: String) -> String {
        var out = ""
        let emailId = suggestions.emailId ?? fallbackEmailId
        if !suggestions.suggestions.isEmpty {
            out += "<ul class=\"suggestion-list\">"
            for suggestion in suggestions.suggestions {
                let href = composeURL(emailId: emailId, text: suggestion.text, returnTo: here)
                out += "<li><a class=\"suggestion\" href=\"\(HTML.escape(href))\" data-intent=\"\(suggestion.intent.rawValue)\">"
                out += "<span class=\"visually-hidden\">Reply with: </span>\(HTML.escape(suggestion.text))</a></li>"
            }
            out += "</ul>"
        }
        if let notice = suggestions.notice ?? (suggestions.suggestions.isEmpty ? "No suggestions for this message." : nil) {
            out += "<p class=\"replies-notice hint-text\">\(noticeHTML(notice, linkSettings: suggestions.source == .pastReplies))</p>"
        }
        return out
    }

    /// The notice escaped, its commands as code and "Settings → On-device AI" as a link (added
    /// with `linkSettings` when the words do not name it).
    static func noticeHTML(_ notice: String, linkSettings: Bool) -> String {
        let settings = "Settings → On-device AI"
        var out = ""
        for (index, part) in notice.components(separatedBy: "`").enumerated() {
            out += index % 2 == 1 ? "<code>\(HTML.escape(part))</code>" : HTML.escape(part)
        }
        let link = "<a href=\"/settings/ai\">\(settings)</a>"
        if out.contains(settings) { return out.replacingOccurrences(of: settings, with: link) }
        return linkSettings ? out + " " + link : out
    }

    /// The reply composer with `text` above the quote and the signature.
    static func composeURL(emailId: String, text: String, returnTo: String) -> String {
        ConversationView.composeURL(.reply, email: emailId, returnTo: returnTo) + "&body=" + FormFields.encode(text)
    }
}
