import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 33's Unsubscribe without the script: the More menu's link opens a page that asks,
/// its form posts and comes back with what happened; what is not offered says why; the
/// Subscriptions page lists and sorts. (The script's dialog: `WebAppUnsubscribeTests`.)
@Suite("Web app: Unsubscribe and Subscriptions without the script (issue 33)", .serialized)
struct WebUnsubscribeTests {
    static func raw(_ headers: [String]) -> [UInt8] {
        Array((["From: Sender <sender@example.org>", "Subject: x"] + headers + ["", "Body", ""]).joined(separator: "\r\n").utf8)
    }

    @Test("The More menu links to a question page; its form sends the list's mailto: and comes back with a notice; Subscriptions shows Unsubscribed",
          .timeLimit(.minutes(5)))
    func withoutScript() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            let inbox = web.folders.of(.inbox)
            let list = MailFixtures.email(accountId: id, number: 1, threadId: "7d1e", from: "linus@example.net", fromName: "Linus", subject: "[dev] A patch", date: Date().addingTimeInterval(-3600))
            let shop = MailFixtures.email(accountId: id, number: 2, threadId: "5b0c", from: "deals@shop.example", fromName: "Shop", subject: "Deals", date: Date().addingTimeInterval(-7200))
            let person = MailFixtures.email(accountId: id, number: 3, threadId: "9e3a", from: "grace@example.org", subject: "Lunch", date: Date().addingTimeInterval(-600))
            let sources: [(Email, [UInt8])] = [
                (list, Self.raw(["List-Id: Developers <dev.lists.example.net>",
                                 "List-Unsubscribe: <https://lists.example.net/options/dev>, <mailto:dev-request@lists.example.net?subject=unsubscribe>"])),
                (shop, Self.raw(["List-Unsubscribe: <https://shop.example/prefs?u=1>"])),
                (person, Self.raw([])),
            ]
            try await web.app.emailRepository.saveEmails(sources.map { email, raw in
                IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: inbox.id, uid: nil)], rawSource: raw)
            })
            let session = try await web.signIn()
            // The list's rows: Unsubscribe on the list mail that offers a way VaultMail uses, on no other.
            func rows() async throws -> [String: String] {
                let list = try await web.get("/mail?box=inbox", cookie: session.cookie).text
                return Dictionary(uniqueKeysWithValues: list.matches(of: /<li class="row[^"]*" data-id="([^"]+)".*?<\/li>/.dotMatchesNewlines()).map { (String($0.1), String($0.0)) })
            }
            let before = try await rows()
            #expect(before["7d1e"]?.contains(#"class="row-action unsubscribe-row" href="/unsubscribe?id=\#(list.id)&amp;return=%2Fmail%3Fbox%3Dinbox" aria-label="Unsubscribe from Linus""#) == true,
                    "\(before["7d1e"] ?? "")")
            #expect(before["5b0c"]?.contains("unsubscribe-row") == false, "a web page only: not offered")
            #expect(before["9e3a"]?.contains("unsubscribe-row") == false, "a person's mail")

            let page = try await web.get("/mail?box=inbox&t=7d1e", cookie: session.cookie).text
            let href = try #require(page.firstMatch(of: /class="menu-item unsubscribe-item" href="([^"]+)"/)?.1)
            #expect(page.contains("data-confirm=\"Unsubscribe from Developers? Sends an email to dev-request@lists.example.net.\""))
            let question = try await web.get(String(href).replacingOccurrences(of: "&amp;", with: "&"), cookie: session.cookie)
            #expect(question.status == 200)
            #expect(question.text.contains("<h1>Unsubscribe from Developers?</h1><p>Sends an email to dev-request@lists.example.net.</p>"))
            #expect(await web.transport.sent.isEmpty, "asking sends nothing")

            let posted = try await web.post("/unsubscribe", "id=\(list.id)&return=%2Fsubscriptions&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(posted.status == 303)
            #expect(posted.headers["location"]?.hasPrefix("/subscriptions?notice=Unsubscribe%20email%20sent%20to%20dev-request%40lists.example.net.") == true,
                    "\(posted.headers["location"] ?? "")")
            let sent = try #require(await web.transport.sent.first)
            #expect(sent.envelope.recipients == ["dev-request@lists.example.net"])
            #expect(String(decoding: sent.message, as: UTF8.self).contains("Subject: unsubscribe"))

            #expect(try await rows()["7d1e"]?.contains("unsubscribe-row") == false, "once unsubscribed, the row offers it no more")

            let subscriptions = try await web.get("/subscriptions?sort=name", cookie: session.cookie).text
            #expect(subscriptions.contains("<th scope=\"col\" aria-sort=\"ascending\"><a href=\"/subscriptions?sort=name\">Sender</a></th>"))
            let developers = try #require(subscriptions.range(of: "Developers"))
            let shopRow = try #require(subscriptions.range(of: ">Shop<"))
            #expect(developers.lowerBound < shopRow.lowerBound, "sorted by name")
            #expect(subscriptions.contains("<span class=\"subs-done\">Unsubscribed "))
            #expect(subscriptions.contains("Not offered<span class=\"visually-hidden\">: the sender offers only a web page"))
            #expect(!subscriptions.contains("Lunch") && !subscriptions.contains("grace@example.org"), "a person's mail is no subscription")

            // Not offered: the question page is not shown, the notice says why; the script's JSON says it too.
            let webOnly = try await web.get("/unsubscribe?id=\(shop.id)&return=%2Fmail%3Fbox%3Dinbox", cookie: session.cookie)
            #expect(webOnly.status == 303)
            #expect(webOnly.headers["location"]?.hasPrefix("/mail?box=inbox&notice=Unsubscribing%20is%20not%20offered") == true)
            let json = try await web.post("/unsubscribe", "id=\(person.id)&csrf=\(session.csrf)", cookie: session.cookie,
                                          extra: [("Accept", "application/json")])
            #expect(json.status == 400)
            #expect(json.text.contains("\"succeeded\":false"))
            #expect(json.text.contains("Unsubscribing is not offered: the message has no List-Unsubscribe header"))
            // Only VaultMail's own pages are places to go back to.
            let away = try await web.post("/unsubscribe", "id=\(person.id)&return=https%3A%2F%2Fevil.example&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(away.headers["location"]?.hasPrefix("/mail?notice=") == true, "\(away.headers["location"] ?? "")")
            #expect(await web.transport.sent.count == 1)
        }
    }
}
