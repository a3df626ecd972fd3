import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 29 over a real socket: the counts a change event brings (one snapshot for the title,
/// the sidebar and the tabs), drafts shown as drafts and not counted, and the setting of what
/// opens after triage.
@Suite("Web app: counts from one snapshot, drafts as drafts, what opens after triage (issue 29)")
struct WebInPlaceTests {
    struct Counts: Decodable {
        var title: String
        var sidebar: String
        var tabs: String
    }

    static func counts(_ web: WebFixture, _ cookie: String, _ query: String = "box=inbox") async throws -> Counts {
        let reply = try await web.get("/mail/counts?\(query)", cookie: cookie, headers: [("Accept", "application/json")])
        #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("application/json") == true)
        return try JSONDecoder().decode(Counts.self, from: Data(reply.text.utf8))
    }

    /// The inbox's count in the sidebar's markup, the "All" tab's in the tabs'.
    static func numbers(_ counts: Counts) -> (title: Int?, sidebar: Int?, tab: Int?) {
        let title = counts.title.firstMatch(of: /^Inbox \((\d+)\) — VaultMail$/).flatMap { Int($0.1) }
        let sidebar = counts.sidebar.firstMatch(of: /box-name">Inbox<\/span><span class="count"><span class="visually-hidden">, <\/span>(\d+)/).flatMap { Int($0.1) }
        let tab = counts.tabs.firstMatch(of: /aria-current="page">All <span class="count">(\d+)/).flatMap { Int($0.1) }
        return (title, sidebar, tab)
    }

    @Test("Issue 29: /mail/counts gives the window title, the sidebar and the tabs from one snapshot; after an archive all three say one fewer, as the page does")
    func countsAgree() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            let stored = try await web.store([
                MailFixtures.email(accountId: id, number: 1, subject: "50% off shoes", category: .promotions),
                MailFixtures.email(accountId: id, number: 2, subject: "Team sync", category: .primary),
                MailFixtures.email(accountId: id, number: 3, subject: "Lunch?", category: .primary),
            ])
            let session = try await web.signIn()
            let first = Self.numbers(try await Self.counts(web, session.cookie))
            #expect(first.title == 3 && first.sidebar == 3 && first.tab == 3, "\(first)")
            let page = try await web.get("/mail", cookie: session.cookie).text
            #expect(page.contains("<title>Inbox (3) — VaultMail</title>"), "the page's title and the live one differ")

            let json = [("Accept", "application/json")]
            let archived = try await web.post("/actions", "action=archive&t[]=\(stored[1].threadId)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(archived.status == 200)
            let after = try await Self.counts(web, session.cookie)
            let second = Self.numbers(after)
            #expect(second.title == 2 && second.sidebar == 2 && second.tab == 2, "\(second)")
            #expect(after.tabs.contains("Primary <span class=\"count\">1"))
            // Another tab: its own tab is the current one, the title still the inbox's.
            let promotions = try await Self.counts(web, session.cookie, "box=inbox&cat=promotions")
            #expect(promotions.tabs.contains("aria-current=\"page\">Promotions <span class=\"count\">1"))
            #expect(promotions.title == "Inbox (2) — VaultMail")
            #expect(try await web.get("/mail/counts?box=nowhere", cookie: session.cookie).status == 400)
        }
    }

    @Test("Issue 29: a reply not yet sent is a labelled Draft card with Edit and Discard, not a message, and is not counted in the conversation or its row")
    func draftsLookLikeDrafts() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, threadId: "plan", from: "grace@example.org", subject: "Plan", isRead: true),
                MailFixtures.email(accountId: id, number: 2, threadId: "plan", from: "alan@example.org", subject: "Re: Plan", isRead: true),
            ])
            var reply = DraftContent(accountId: id)
            reply.to = ["grace@example.org"]
            reply.subject = "Re: Plan"
            reply.body = "Thursday works.\n\nOn Mon, Grace wrote:\n> Shall we meet?"
            reply.threadId = "plan"
            let draft = try await web.web.mail.compose.saveDraft(reply, html: nil, attachments: [])
            #expect(try await web.app.emailRepository.getThread(id: "plan")?.messageCount == 2, "the draft counted as a message")

            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=plan", cookie: session.cookie).text
            #expect(page.contains("<p class=\"conv-meta\">2 messages · 1 draft</p>"))
            #expect(page.matches(of: /<li class="message( unread)?" id="m-/).count == 2, "the draft shown as a message")
            #expect(page.contains("<li class=\"message draft-card\" id=\"m-\(draft)\""))
            #expect(page.contains("<span class=\"pill draft-pill\" id=\"draft-\(draft)-label\">Draft</span>"))
            #expect(page.contains("<span class=\"draft-to\">To grace@example.org</span>"))
            #expect(page.contains("<p class=\"draft-text\">Thursday works.</p>"), "the draft's own text, without the quote")
            #expect(page.contains("href=\"/compose?kind=draft&amp;draft=\(draft)&amp;return="))
            #expect(page.contains("<button class=\"tool danger\" type=\"submit\" form=\"discard-\(draft)\""))
            #expect(page.contains("<form id=\"discard-\(draft)\" method=\"post\" action=\"/compose/discard\" hidden>"))
            #expect(page.matches(of: /class="sender">[^<]*\(2\)</).count == 1, "the row counts the draft")
            #expect(page.components(separatedBy: "Thursday works.").count == 2, "the draft's text beyond its card (the row's snippet?)")
            let thread = try #require(try await web.app.emailRepository.getThread(id: "plan"))
            #expect(thread.snippet == "Preview of message 2" && thread.participants?.contains("me@example.com") == false, "the draft shown in its row")

            // Discard, as the form posts it without the script: back to the conversation, the draft gone.
            let discarded = try await web.post("/compose/discard", "csrf=\(session.csrf)&draft=\(draft)&return=%2Fmail%3Fbox%3Dinbox%26t%3Dplan",
                                               cookie: session.cookie)
            #expect(discarded.status == 303 && discarded.headers["location"]?.hasPrefix("/mail?box=inbox&t=plan&notice=") == true)
            let after = try await web.get("/mail?box=inbox&t=plan", cookie: session.cookie).text
            #expect(!after.contains("draft-card") && after.contains("<p class=\"conv-meta\">2 messages</p>"))
        }
    }

    @Test("Issue 29: what opens after triage is a general setting (older by default), saved through Preferences and given to the page's script")
    func afterTriageSetting() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            #expect(try await web.get("/mail", cookie: session.cookie).text.contains("data-after-triage=\"older\""))
            let settings = try await web.get("/settings", cookie: session.cookie).text
            #expect(settings.contains("After archiving, deleting or moving a conversation, open"))
            #expect(settings.contains("id=\"afterTriage-older\" name=\"afterTriage\" value=\"older\" checked"))
            _ = try await web.post("/settings/general", "afterTriage=newer&markReadOnOpen=1&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(await web.web.mail.preferences.afterTriage() == .newer)
            #expect(try await web.get("/mail", cookie: session.cookie).text.contains("data-after-triage=\"newer\""))
            _ = try await web.post("/settings/general", "afterTriage=sideways&markReadOnOpen=1&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(await web.web.mail.preferences.afterTriage() == .newer, "a value not among the choices changed it")
        }
    }
}
