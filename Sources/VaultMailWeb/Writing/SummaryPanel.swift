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
        /// Writing it failed: why in words, the detail behind a disclosure (issue 29).
        case failed(PlainProblem)
    }

    var threadId: String
    var state: State
    /// The script fetches a fresh summary by itself (the conversation is summarized when opened).
    var automatic = false

    /// Where the panel's fragment and its form go.
    static func path(_ threadId: String) -> String { "/threads/\(WebForm.escape(threadId))/summary" }

    private var stateName: String {
        switch state {
        case .summary(_, let stale): stale ? "stale" : "summary"
        case .pending: "pending"
        case .offer: "offer"
        case .failed: "failed"
        }
    }

    /// A Summarize, Refresh or Try again button; the conversation's form posts it (its CSRF
    /// token and return address with it).
    private struct Button { var title: String; var refresh: Bool; var label: String }

    func render() -> Markup {
        struct Model {
            var threadId: String
            var state: String
            var src: String
            var automatic: Bool
            var busy: Bool
            var icon: Markup
            var heading: String?
            var byline: Markup
            var text: Markup
            var stale: Bool
            var pending: Bool
            var offer: Bool
            var failure: Markup
            var button: Button
        }
        var heading: String? = "Summary", byline = Markup.empty, text = Markup.empty, stale = false, failure = Markup.empty
        var button = Button(title: "Summarize", refresh: false, label: "Summarize this conversation")
        switch state {
        case .summary(let summary, let isStale):
            heading = summary.kind.isExtractive ? "Key sentences" : "Summary"
            byline = Self.byline(summary)
            text = Self.text(summary.text)
            stale = isStale
            button = Button(title: "Refresh", refresh: true, label: "Refresh the summary")
        case .pending:
            break
        case .offer:
            heading = nil
        case .failed(let problem):
            failure = ProblemView.render(problem)
            button = Button(title: "Try again", refresh: true, label: "Try summarizing again")
        }
        var pending = false, offer = false
        if case .pending = state { pending = true }
        if case .offer = state { offer = true }
        return Self.template.render(Model(
            threadId: threadId, state: stateName, src: Self.path(threadId), automatic: automatic, busy: pending, icon: Icon.sparkle.svg(),
            heading: heading, byline: byline, text: text, stale: stale, pending: pending, offer: offer, failure: failure, button: button))
    }

    private static let buttonTemplate = """
        {{#button}}<button class="tool" type="submit" formmethod="post" formaction="{{src}}" name="refresh" value="{{#refresh}}1{{/refresh}}{{^refresh}}0{{/refresh}}" data-summarize aria-label="{{label}}">{{title}}</button>{{/button}}
        """

    private static let template = Template("""
        <section class="summary-panel" id="summary" aria-labelledby="summary-title" aria-live="polite"\
         data-thread="{{threadId}}" data-state="{{state}}" data-src="{{src}}"{{#automatic}} data-auto="1"{{/automatic}}{{#busy}} aria-busy="true"{{/busy}}>\
        {{#heading}}<h3 class="summary-title" id="summary-title" tabindex="-1">{{{icon}}}<span>{{heading}}</span></h3>{{/heading}}\
        {{#byline}}<p class="summary-by">{{{byline}}}</p><div class="summary-text">{{{text}}}</div>{{/byline}}\
        {{#stale}}<p class="summary-stale">New mail arrived after this summary. \(buttonTemplate)</p>{{/stale}}\
        {{#pending}}<p class="summary-pending"><span class="spinner" aria-hidden="true"></span>Summarizing on this device…</p>\
        <p class="summary-offer summary-nojs">\(buttonTemplate)</p>{{/pending}}\
        {{#offer}}<p class="summary-offer">\(buttonTemplate) <span class="hint-text">Two to four sentences on this conversation, written on this computer.</span></p>{{/offer}}\
        {{#failure}}{{{failure}}}\
        <p class="summary-offer">\(buttonTemplate)</p>{{/failure}}\
        </section>
        """)

    private static func byline(_ summary: ThreadSummary) -> Markup {
        struct Model { var model: String?; var extractive: Bool; var fallback: Bool; var covers: String }
        return bylineTemplate.render(Model(
            model: summary.kind == .model ? modelName(summary.modelId) : nil, extractive: summary.kind == .extractive,
            fallback: summary.kind == .extractiveFallback,
            covers: "covers \(summary.messageCount) message\(summary.messageCount == 1 ? "" : "s")"))
    }

    private static let bylineTemplate = Template("""
        {{#model}}Written on this device by {{model}} · {{covers}}{{/model}}\
        {{#extractive}}No writing model installed: these are the conversation's most central sentences, as written · {{covers}}. \
        <a href="/settings/ai">Settings → On-device AI</a>{{/extractive}}\
        {{#fallback}}The conversation's most central sentences, as written: what the writing model wrote did not pass the checks \
        against invented facts · {{covers}}{{/fallback}}
        """)

    /// The catalog's name of a model, else its id.
    static func modelName(_ id: String?) -> String {
        guard let id else { return "the on-device model" }
        return AIModelCatalog.standard.models.first { $0.id == id }?.name ?? id
    }

    /// The summary's text: a paragraph, or a list when it comes as one line per point.
    static func text(_ text: String) -> Markup {
        struct Model { var single: String?; var lines: [String] }
        let lines = text.split(whereSeparator: \.isNewline).map { line -> String in
            var line = line.trimmingCharacters(in: .whitespaces)
            for bullet in ["- ", "* ", "• "] where line.hasPrefix(bullet) { line = String(line.dropFirst(bullet.count)) }
            return line
        }.filter { !$0.isEmpty }
        return textTemplate.render(lines.count > 1 ? Model(single: nil, lines: lines) : Model(single: lines.first ?? "", lines: []))
    }

    private static let textTemplate = Template("""
        {{#single}}<p>{{single}}</p>{{/single}}{{^single}}<ul>{{#lines}}<li>{{.}}</li>{{/lines}}</ul>{{/single}}
        """)
}
