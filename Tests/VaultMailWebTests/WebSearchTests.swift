import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// Search in the web app (issue 14), over a real socket against the in-memory store.
@Suite("Web app search (issue 14)", .serialized)
@MainActor
struct WebSearchTests {
    func storeMail(_ web: WebFixture) async throws {
        let id = web.account.id
        try await web.store((1...30).map { n in
            var email = MailFixtures.email(accountId: id, number: n, threadId: "t\(n)", from: "p\(n)@example.org",
                                           fromName: "Person \(n)", subject: n.isMultiple(of: 3) ? "Invoice \(n)" : "Lunch \(n)")
            email.bodyPlain = n.isMultiple(of: 3) ? "Your invoice <\(n)> is attached." : "Shall we eat?"
            return email
        })
    }

    @Test("/mail/search?q= shows matching conversations as the thread list, matches marked, rows opening within the search")
    func resultsPage() async throws {
        try await WebFixture.with { web in
            try await storeMail(web)
            let session = try await web.signIn()
            let page = try await web.get("/mail/search?q=invoice", cookie: session.cookie)
            #expect(page.status == 200)
            let text = page.text
            #expect(text.contains("Results for “invoice”"))
            #expect(text.matches(of: /class="row-link"/).count == 10)
            #expect(!text.contains("Lunch 1<"))
            #expect(text.contains("Your <mark>invoice</mark> &lt;30&gt; is attached."), "HTML in mail is escaped, matches marked")
            #expect(text.contains("href=\"/mail/search?q=invoice&amp;t=t30\""))
            let open = try await web.get("/mail/search?q=invoice&t=t30", cookie: session.cookie).text
            #expect(open.contains("id=\"conversation\""))
            #expect(open.contains("Results for “invoice”"))
        }
    }

    @Test("The results fragment and list refreshes page with the query; an empty result says so")
    func fragments() async throws {
        try await WebFixture.with { web in
            try await storeMail(web)
            for n in 31...60 {
                try await web.store([MailFixtures.email(accountId: web.account.id, number: n, subject: "Invoice \(n)")])
            }
            let session = try await web.signIn()
            let pane = try await web.get("/mail/search/results?q=invoice", cookie: session.cookie).text
            #expect(pane.hasPrefix("<section class=\"list-pane\""))
            #expect(pane.matches(of: /class="row-link"/).count == 25)
            let next = try #require(pane.firstMatch(of: /data-next="([^"]+)"/)?.1).replacingOccurrences(of: "&amp;", with: "&")
            #expect(next.hasPrefix("/mail/list?q=invoice&cursor="))
            let rows = try await web.get(next, cookie: session.cookie).text
            #expect(rows.matches(of: /class="row-link"/).count == 15)
            let refresh = try await web.get("/mail/list?box=inbox&q=invoice&limit=50", cookie: session.cookie).text
            #expect(refresh.matches(of: /class="row-link"/).count == 25)
            let none = try await web.get("/mail/search/results?q=zanzibar", cookie: session.cookie).text
            #expect(none.contains("No conversations match “zanzibar”."))
        }
    }

    @Test("A query the parser cannot read shows its error in the page, with the part marked — never a 500")
    func badQuery() async throws {
        try await WebFixture.with { web in
            try await storeMail(web)
            let session = try await web.signIn()
            let page = try await web.get("/mail/search?q=" + WebForm.escape("invoice (from:bob"), cookie: session.cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("This search cannot be read: this &quot;(&quot; is never closed; add a &quot;)&quot;."))
            #expect(page.text.contains("<code>invoice <mark>(</mark>from:bob</code>"))
            let fragment = try await web.get("/mail/search/results?q=form:x", cookie: session.cookie)
            #expect(fragment.status == 400)
            #expect(fragment.text.contains("role=\"alert\""))
            let rows = try await web.get("/mail/list?q=form:x", cookie: session.cookie)
            #expect(rows.status == 400)
            #expect(rows.text.contains("unknown operator"))
        }
    }
}

/// Search by meaning in the web app (issue 15, AC-A-07): the mode switch, results fused from
/// the vectors, and the words a person reads when there is no model. Vectors here are
/// hand-made (`FixedTextEmbedder`); the real model's sense is tested in VaultMailAITests.
@Suite("Web app search by meaning (issue 15)", .serialized)
@MainActor
struct WebSemanticSearchTests {
    static let model = "test-model"
    static let embedder = FixedTextEmbedder(modelId: model, vectors: ["financial planning": [1, 0, 0]])

    func storeMail(_ web: WebFixture) async throws {
        let id = web.account.id
        let subjects = ["Quarterly budget review", "Lunch on Friday", "Team offsite"]
        let stored = try await web.store(subjects.enumerated().map { n, subject in
            var email = MailFixtures.email(accountId: id, number: n + 1, threadId: "t\(n + 1)", subject: subject)
            email.bodyPlain = "Message \(n + 1)"
            return email
        })
        let vectors: [[Float]] = [[0.8, 0.6, 0], [0, 1, 0], [0, 0, 1]]
        let bySubject = Dictionary(uniqueKeysWithValues: stored.map { ($0.subject, $0.id) })
        try await GRDBSemanticIndex(database: web.database).save(
            subjects.enumerated().map { (bySubject[$1]!, [vectors[$0]]) }, modelId: Self.model)
    }

    @Test("By meaning lists what the words mean, with the switch back to words; the query's URL keeps the mode")
    func byMeaning() async throws {
        try await WebFixture.with(embedder: Self.embedder) { web in
            try await storeMail(web)
            let session = try await web.signIn()
            let words = try await web.get("/mail/search?q=" + WebForm.escape("financial planning"), cookie: session.cookie).text
            #expect(words.contains("No conversations match “financial planning”."))
            #expect(words.contains("<a href=\"/mail/search?q=financial%20planning&amp;meaning=1\">By meaning</a>"))
            let page = try await web.get("/mail/search?q=" + WebForm.escape("financial planning") + "&meaning=1", cookie: session.cookie)
            #expect(page.status == 200)
            #expect(page.text.matches(of: /class="row-link"/).count == 1)
            #expect(page.text.contains("Quarterly budget review"))
            #expect(page.text.contains("href=\"/mail/search?q=financial%20planning&amp;meaning=1&amp;t=t1\""))
            #expect(page.text.contains("aria-current=\"page\">By meaning</a>"))
            let pane = try await web.get("/mail/search/results?q=" + WebForm.escape("financial planning") + "&meaning=1", cookie: session.cookie).text
            #expect(pane.contains("Quarterly budget review"))
        }
    }

    @Test("Without a model, search by meaning says how to get one instead of failing")
    func noModel() async throws {
        let missing = FixedTextEmbedder(modelId: Self.model, vectors: [:], installed: false)
        try await WebFixture.with(embedder: missing) { web in
            try await storeMail(web)
            let session = try await web.signIn()
            let page = try await web.get("/mail/search?q=budget&meaning=1", cookie: session.cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("Download a model to enable search by meaning"))
        }
    }
}
