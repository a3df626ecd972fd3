import Foundation
import Testing
import VaultMailCore
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
            let page = try await web.get("/mail/search?q=" + FormFields.encode("invoice (from:bob"), cookie: session.cookie)
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
