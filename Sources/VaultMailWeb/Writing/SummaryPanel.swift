import Foundation
import VaultMailCore

/// The summary at the top of a conversation (AC-A-06): what it is ("Summary", written on this
/// device by a named model, or "Key sentences" when no writing model is installed), the text,
/// and a Refresh when new mail arrived after it. Before there is one it offers "Summarize" (a
/// button of the conversation's form, so it works without the script), or, for conversations
/// that are summarized when opened, says "Summarizing…" while the script fetches it from
/// `GET /threads/{id}/summary` and swaps it in. Its buttons post to
/// `POST /threads/{id}/summary`.
struct SummaryPanel {
    enum State {
        /// A stored summary; `stale` when new mail arrived after it was written.
        case summary(ThreadSummary, stale: Bool)
        /// Being written (the script fetches it); without the script the Summarize button shows.
        case pending
        /// Written on request only.
        case offer
        /// Writing it failed; the message says why.
        case failed(String)
    }

    var threadId: String
    var state: State
    /// The script fetches a fresh summary by itself (the conversation is summarized when opened).
    var automatic = false

    /// Where the panel's fragment and its form go.
    static func path(_ threadId: String) -> String { "/threads/\(FormFields.encode(threadId))/summary" }

    private var stateName: String {
        switch state {
        case .summary(_, let stale): stale ? "stale" : "summary"
        case .pending: "pending"
        case .offer: "offer"
        case .failed: "failed"
        }
    }

    func render() -> String {
        let path = HTML.escape(Self.path(threadId))
        var out = "<section class=\"summary-panel\" id=\"summary\" aria-labelledby=\"summary-title\" aria-live=\"polite\""
        out += " data-thread=\"\(HTML.escape(threadId))\" data-state=\"\(stateName)\" data-src=\"\(path)\""
        if automatic { out += " data-auto=\"1\"" }
        if case .pending = state { out += " aria-busy=\"true\"" }
        out += ">"
        switch state {
        case .summary(let summary, let stale):
            out += heading(summary.kind.isExtractive ? "Key sentences" : "Summary")
            out += "<p class=\"summary-by\">\(byline(summary))</p>"
            out += "<div class=\"summary-text\">\(Self.text(summary.text))</div>"
            if stale {
                out += "<p class=\"summary-stale\">New mail arrived after this summary. "
                out += button("Refresh", refresh: true, label: "Refresh the summary") + "</p>"
            }
        case .pending:
            out += heading("Summary")
            out += "<p class=\"summary-pending\"><span class=\"spinner\" aria-hidden=\"true\"></span>Summarizing on this device…</p>"
            out += "<p class=\"summary-offer summary-nojs\">" + button("Summarize", refresh: false, label: "Summarize this conversation") + "</p>"
        case .offer:
            out += "<p class=\"summary-offer\">" + button("Summarize", refresh: false, label: "Summarize this conversation")
            out += " <span class=\"hint-text\">Two to four sentences on this conversation, written on this computer.</span></p>"
        case .failed(let message):
            out += heading("Summary")
            out += "<p class=\"notice error summary-error\" role=\"alert\">\(HTML.escape(message))</p>"
            out += "<p class=\"summary-offer\">" + button("Try again", refresh: true, label: "Try summarizing again") + "</p>"
        }
        return out + "</section>"
    }

    private func heading(_ title: String) -> String {
        "<h3 class=\"summary-title\" id=\"summary-title\" tabindex=\"-1\">\(Icon.sparkle.svg())<span>\(title)</span></h3>"
    }

    /// The conversation's form posts it (its CSRF token and return address with it).
    private func button(_ title: String, refresh: Bool, label: String) -> String {
        "<button class=\"tool\" type=\"submit\" formmethod=\"post\" formaction=\"\(HTML.escape(Self.path(threadId)))\""
            + " name=\"refresh\" value=\"\(refresh ? "1" : "0")\" data-summarize aria-label=\"\(label)\">\(HTML.escape(title))</button>"
    }

    private func byline(_ summary: ThreadSummary) -> String {
        let covers = "covers \(summary.messageCount) message\(summary.messageCount == 1 ? "" : "s")"
        switch summary.kind {
        case .model:
            return "Written on this device by \(HTML.escape(Self.modelName(summary.modelId))) · \(covers)"
        case .extractive:
            return "No writing model installed: these are the conversation's most central sentences, as written · \(covers). "
                + "<a href=\"/settings/ai\">Settings → On-device AI</a>"
        case .extractiveFallback:
            return "The conversation's most central sentences, as written: what the writing model wrote did not pass the checks "
                + "against invented facts · \(covers)"
        }
    }

    /// The catalog's name of a model, else its id.
    static func modelName(_ id: String?) -> String {
        guard let id else { return "the on-device model" }
        return AIModelCatalog.standard.models.first { $0.id == id }?.name ?? id
    }

    /// The summary's text: a paragraph, or a list when it comes as one line per point.
    static func text(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { line -> String in
            var line = line.trimmingCharacters(in: .whitespaces)
            for bullet in ["- ", "* ", "• "] where line.hasPrefix(bullet) { line = String(line.dropFirst(bullet.count)) }
            return line
        }.filter { !$0.isEmpty }
        guard lines.count > 1 else { return "<p>\(HTML.escape(lines.first ?? ""))</p>" }
        return "<ul>" + lines.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
    }
}
