import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// Summaries and suggested replies in the web app (issue 16, AC-A-05, AC-A-06), over a real
/// socket against the in-memory store, with a scripted writing model.
@Suite("Web app: summaries and suggested replies (issue 16)", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct WebWritingTests {
    /// A conversation of three messages about moving a launch review; the last one asks to meet.
    static func launchThread(accountId: String, threadId: String = "launch", count: Int = 3, first: Int = 1) -> [Email] {
        let texts = [
            ("grace@example.org", "Grace Hopper", "Launch review", "The launch review is on Thursday. Can we move it to Friday?"),
            ("alan@example.org", "Alan Turing", "Re: Launch review", "Friday is fine for me. Shall I send the slides on Thursday?"),
            ("grace@example.org", "Grace Hopper", "Re: Launch review", "Good. Can you meet at 3pm tomorrow to go through the slides?"),
            ("alan@example.org", "Alan Turing", "Re: Launch review", "Also, could you bring a new laptop for the demo?"),
        ]
        return texts.prefix(count).enumerated().map { index, text in
            var email = MailFixtures.email(accountId: accountId, number: first + index, threadId: threadId, from: text.0, fromName: text.1,
                                           subject: text.2, isRead: true)
            email.bodyPlain = text.3
            email.snippet = text.3
            return email
        }
    }

    static let summaryText = "Grace asked to move the launch review from Thursday to Friday. Alan said Friday is fine and will send "
        + "the slides on Thursday. Grace asked to meet at 3pm tomorrow to go through the slides."

    /// The writing model: a summary, and one reply per intent.
    static func writer() -> ScriptedTextGenerator {
        ScriptedTextGenerator(modelId: AIModelCatalog.generationModelId, rules: [
            .init(match: "Rewrite these key sentences", answer: summaryText),
            .init(match: "says yes", answer: ", 3pm tomorrow works for me."),
            .init(match: "does not work", answer: " meet on Friday instead? 3pm tomorrow does not work for me."),
            .init(match: "asks one short question", answer: " send the slides before we meet?"),
        ])
    }

    @Test("AC-A-06: a 3-message conversation opens with 'Summarizing…'; its fragment is the summary, named by its model; a revisit shows it from the store")
    func automaticSummary() async throws {
        let writer = Self.writer()
        try await WebFixture.with(generator: writer) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=launch", cookie: session.cookie).text
            let panel = try #require(page.firstMatch(of: /<section class="summary-panel"[^>]*>/).map { String($0.0) })
            #expect(panel.contains("data-state=\"pending\"") && panel.contains("data-auto=\"1\"") && panel.contains("aria-busy=\"true\""))
            #expect(page.contains("Summarizing on this device…"))
            #expect(page.range(of: "id=\"summary\"")!.lowerBound < page.range(of: "<ol class=\"messages\"")!.lowerBound, "the panel is above the messages")
            #expect(writer.requests.isEmpty, "the page did not wait for the model")

            let fragment = try await web.get("/threads/launch/summary", cookie: session.cookie)
            #expect(fragment.status == 200)
            #expect(fragment.text.hasPrefix("<section class=\"summary-panel\""))
            #expect(fragment.text.contains("data-state=\"summary\""))
            #expect(fragment.text.contains(">Summary</span>"))
            #expect(fragment.text.contains("Written on this device by SmolLM2-135M-Instruct (Q4_1) · covers 3 messages"))
            #expect(fragment.text.contains("Grace asked to move the launch review from Thursday to Friday."))

            let again = try await web.get("/mail?box=inbox&t=launch", cookie: session.cookie).text
            #expect(again.contains("data-state=\"summary\"") && again.contains("Alan said Friday is fine and will send the slides on Thursday."))
            _ = try await web.get("/threads/launch/summary", cookie: session.cookie)
            #expect(writer.requests.filter { $0.turns.contains { $0.text.contains("Rewrite these key sentences") } }.count == 1,
                    "cached: a revisit does not write it again")
        }
    }

    @Test("AC-A-06: new mail makes the summary stale: it stays, marked, with Refresh; Refresh without JavaScript writes it again and comes back")
    func staleSummaryRefresh() async throws {
        let writer = Self.writer()
        try await WebFixture.with(generator: writer) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            _ = try await web.get("/threads/launch/summary", cookie: session.cookie)
            try await web.store(Array(Self.launchThread(accountId: web.account.id, count: 4).suffix(1)))
            let page = try await web.get("/mail?box=inbox&t=launch", cookie: session.cookie).text
            #expect(page.contains("data-state=\"stale\""))
            #expect(page.contains("New mail arrived after this summary."))
            #expect(page.contains("Grace asked to move the launch review from Thursday to Friday."), "the old summary is still shown")
            #expect(page.contains("formaction=\"/threads/launch/summary\" name=\"refresh\" value=\"1\""))

            let back = "/mail?box=inbox&t=launch"
            let posted = try await web.post("/threads/launch/summary", "csrf=\(session.csrf)&refresh=1&return=\(WebForm.escape(back))", cookie: session.cookie)
            #expect(posted.status == 303)
            #expect(posted.headers["location"] == back + "#summary")
            let fresh = try await web.get(back, cookie: session.cookie).text
            #expect(fresh.contains("data-state=\"summary\"") && fresh.contains("covers 4 messages"))

            let forged = try await web.post("/threads/launch/summary", "refresh=1", cookie: session.cookie)
            #expect(forged.status == 403, "Summarize and Refresh need the page's CSRF token")
        }
    }

    @Test("Issue 35: on a busy machine a long conversation is not summarized by itself: Summarize is offered, and works")
    func busyMachine() async throws {
        let writer = Self.writer()
        try await WebFixture.with(generator: writer, idleness: MachineIdleness(cores: 2, loadAverage: { 3.0 })) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=launch", cookie: session.cookie).text
            #expect(page.contains("data-state=\"offer\"") && !page.contains("data-state=\"pending\""))
            #expect(writer.requests.isEmpty)
            let fragment = try await web.post("/threads/launch/summary?fragment=1", "csrf=\(session.csrf)&refresh=0", cookie: session.cookie)
            #expect(fragment.text.contains("data-state=\"summary\""))
        }
    }

    @Test("AC-A-06: shorter conversations, and all with the setting off, offer Summarize (a form); the script's post gets the fragment")
    func summarizeOnRequest() async throws {
        try await WebFixture.with(generator: Self.writer()) { web in
            try await web.store(Self.launchThread(accountId: web.account.id, threadId: "short", count: 2))
            try await web.store(Self.launchThread(accountId: web.account.id, threadId: "long", count: 3, first: 10))
            let session = try await web.signIn()
            let short = try await web.get("/mail?box=inbox&t=short", cookie: session.cookie).text
            #expect(short.contains("data-state=\"offer\"") && !short.contains("data-auto"))
            #expect(short.contains(">Summarize</button>"))

            web.app.settingsStore.autoSummarize = false
            let long = try await web.get("/mail?box=inbox&t=long", cookie: session.cookie).text
            #expect(long.contains("data-state=\"offer\""), "the setting off: on request only")

            let fragment = try await web.post("/threads/short/summary?fragment=1", "csrf=\(session.csrf)&refresh=0", cookie: session.cookie)
            #expect(fragment.status == 200)
            #expect(fragment.text.hasPrefix("<section class=\"summary-panel\"") && fragment.text.contains("covers 2 messages"))
        }
    }

    @Test("AC-A-06: without a writing model the summary is the key sentences, labelled as such, with the way to Settings → On-device AI")
    func extractiveSummary() async throws {
        try await WebFixture.with(generator: ScriptedTextGenerator(installed: false)) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let fragment = try await web.get("/threads/launch/summary", cookie: session.cookie).text
            #expect(fragment.contains(">Key sentences</span>"))
            #expect(fragment.contains("No writing model installed"))
            #expect(fragment.contains("<a href=\"/settings/ai\">Settings → On-device AI</a>"))
            #expect(!fragment.contains("Written on this device by"))
        }
    }

    @Test("A summary that cannot be written says why in the panel, with Try again; the page around it is whole")
    func summaryFailure() async throws {
        let writer = Self.writer()
        writer.fail("Rewrite these key sentences", with: AIError.modelUnreadable(path: "/models/x.gguf", reason: "truncated <file>"))
        try await WebFixture.with(generator: writer) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let fragment = try await web.get("/threads/launch/summary", cookie: session.cookie)
            #expect(fragment.status == 500)
            #expect(fragment.text.hasPrefix("<section class=\"summary-panel\"") && fragment.text.contains("data-state=\"failed\""))
            // Issue 29: the words say what happened and what to do; the path and the reason are detail.
            #expect(fragment.text.contains("role=\"alert\"><p>The summary could not be written. The AI model&#39;s files can&#39;t be read. "
                + "Remove the model and download it again in Settings → On-device AI.</p><details class=\"problem-detail\"><summary>Details</summary><pre>"),
                    "\(fragment.text)")
            #expect(fragment.text.contains("/models/x.gguf: truncated &lt;file&gt;"), "the detail, escaped")
            #expect(fragment.text.contains(">Try again</button>"))
            let missing = try await web.get("/threads/nothing-here/summary", cookie: session.cookie)
            #expect(missing.status == 500 && missing.text.contains("<p>The summary could not be written. That conversation is no longer here"))
            #expect(missing.text.contains("<pre>there is no conversation with id &#39;nothing-here&#39;"), "the id only in the detail")
        }
    }

    @Test("AC-A-05: suggested replies stream as server-sent events, one per suggestion as it is written, then done; each opens the composer with its text")
    func replyStream() async throws {
        try await WebFixture.with(generator: Self.writer()) { web in
            let thread = Self.launchThread(accountId: web.account.id)
            try await web.store(thread)
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=launch", cookie: session.cookie).text
            let src = try #require(page.firstMatch(of: /id="reply-suggestions"[^>]*data-src="([^"]+)"/).map { String($0.1) })
            #expect(page.contains("data-state=\"loading\"") && page.contains(">Suggested replies</span>"))
            #expect(page.contains("&amp;replies=1#reply-suggestions\">Suggest replies</a>"), "a link for pages without JavaScript")

            let reply = try await web.get(src.replacingOccurrences(of: "&amp;", with: "&"), cookie: session.cookie,
                                          headers: [("Accept", "text/event-stream")])
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("text/event-stream") == true)
            #expect(reply.headers["cache-control"] == "no-store")
            let events = reply.text.components(separatedBy: "\n\n").compactMap { block -> (String, [String: Any])? in
                guard let name = block.firstMatch(of: /event: (\w+)/)?.1, let data = block.firstMatch(of: /data: (.*)/)?.1,
                      let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
                return (String(name), json)
            }
            #expect(events.map(\.0) == ["suggestions", "suggestions", "suggestions", "done"])
            #expect(events.map { ($0.1["suggestions"] as? [Any])?.count ?? -1 } == [1, 2, 3, 3], "the first arrives alone, as soon as it is written")
            let final = try #require(events.last?.1)
            #expect(final["source"] as? String == "model")
            let items = try #require(final["suggestions"] as? [[String: String]])
            #expect(items.map { $0["intent"] } == ["accept", "alternative", "question"])
            #expect(items[0]["text"] == "Yes, that works for me.", "the plain yes comes at once")
            #expect(items[2]["text"] == "Could you send the slides before we meet?", "the written reply names what was asked")
            let latest = thread[2].id
            for item in items {
                #expect(item["href"] == "/compose?kind=reply&email=\(WebForm.escape(latest))&return=\(WebForm.escape("/mail?box=inbox&t=launch"))&body=\(WebForm.escape(item["text"] ?? ""))")
            }
            let html = try #require(final["html"] as? String)
            #expect(html.contains("<a class=\"suggestion\"") && html.contains("Reply with: </span>"))
            #expect((final["announcement"] as? String)?.hasPrefix("3 suggested replies: ") == true)
        }
    }

    @Test("AC-A-05: without JavaScript, 'Suggest replies' renders the page with them; without a model the group says how to get one")
    func repliesWithoutScript() async throws {
        try await WebFixture.with(generator: Self.writer()) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=launch&replies=1", cookie: session.cookie).text
            #expect(page.contains("data-state=\"ready\""))
            #expect(page.matches(of: /<a class="suggestion" href="\/compose\?kind=reply&amp;email=/).count == 3)
            #expect(page.contains("role=\"status\" aria-live=\"polite\">3 suggested replies: "))
        }
        try await WebFixture.with(generator: ScriptedTextGenerator(modelId: AIModelCatalog.generationModelId, installed: false)) { web in
            try await web.store(Self.launchThread(accountId: web.account.id))
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=launch&replies=1", cookie: session.cookie).text
            #expect(!page.contains("class=\"suggestion\""))
            #expect(page.contains("Download a model to enable smart replies: run <code>vaultmail ai download smollm2-135m-instruct</code> or open <a href=\"/settings/ai\">Settings → On-device AI</a>."))
        }
    }

    @Test("AC-A-05: a suggestion's text goes into the reply body above the signature and the quote, escaped; the composer starts after it")
    func composerPrefill() async throws {
        try await WebFixture.with(generator: Self.writer()) { web in
            let thread = Self.launchThread(accountId: web.account.id)
            try await web.store(thread)
            web.app.settingsStore.setSignature("Ada", for: web.account.id)
            let session = try await web.signIn()
            let text = "Sure </textarea><script>alert(1)</script> & \"3pm\" works."
            let page = try await web.get(ReplySuggestionsView.composeURL(emailId: thread[2].id, text: text, returnTo: "/mail?box=inbox&t=launch"),
                                         cookie: session.cookie).text
            let body = try #require(page.firstMatch(of: /<textarea id="body"[^>]*>([^<]*)<\/textarea>/))
            let escaped = "Sure &lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;3pm&quot; works."
            #expect(String(body.1).hasPrefix("\n" + escaped + "\n\n-- \nAda\n\nOn "), "\(body.1)")  // the parser drops the first newline
            #expect(String(body.1).contains("&gt; Good. Can you meet at 3pm tomorrow"), "the quote below")
            #expect(String(body.0).contains("data-cursor=\"\(text.utf16.count)\""))
            #expect(!page.contains("<script>alert(1)"))
            #expect(page.contains("<h1 id=\"compose-title\">Reply</h1>"))
        }
    }

    @Test("Settings → On-device AI: 'Summarize conversations of 3 or more messages when I open them' is saved at once")
    func autoSummarizeSetting() async throws {
        try await WebFixture.with(generator: Self.writer()) { web in
            let session = try await web.signIn()
            #expect(web.app.settingsStore.autoSummarize)
            let off = try await web.post("/settings/ai/writing", "csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(off.status == 200 && off.text.contains("summarized when you ask"))
            #expect(!web.app.settingsStore.autoSummarize)
            let on = try await web.post("/settings/ai/writing", "csrf=\(session.csrf)&autoSummarize=1", cookie: session.cookie)
            #expect(on.status == 303 && on.headers["location"]?.hasPrefix("/settings/ai?notice=") == true)
            #expect(web.app.settingsStore.autoSummarize)
            let forged = try await web.post("/settings/ai/writing", "autoSummarize=1", cookie: session.cookie, origin: "http://evil.example")
            #expect(forged.status == 403)
        }
        let page = AIModelsView(models: [], storageUsed: 0, directory: URL(fileURLWithPath: "/tmp/models"), confirmRemoval: nil, notice: nil,
                                csrf: "token", display: .init(), autoSummarize: true).render().html
        #expect(page.contains("<form method=\"post\" action=\"/settings/ai/writing\" class=\"settings-form\" data-autosave>"))
        #expect(page.contains("<input type=\"checkbox\" role=\"switch\" id=\"sw-autoSummarize\" name=\"autoSummarize\" value=\"1\" checked"))
        #expect(page.contains("<span>Summarize conversations of 3 or more messages when I open them</span></label>"))
    }
}
