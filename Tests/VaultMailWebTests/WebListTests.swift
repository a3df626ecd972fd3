import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 29's last list affordances over a real socket: the window title counts the list shown,
/// "Mark all as read" marks exactly the list's unread conversations (without the script), and
/// the optional date headings.
@Suite("Web app: the title's count, Mark all as read, date headings (issue 29)", .serialized)
@MainActor
struct WebListTests {
    struct Counts: Decodable {
        var title: String
        var unread: Int
    }

    struct Unread: Decodable { var ids: [String] }

    static let json = [("Accept", "application/json")]

    static func counts(_ web: WebFixture, _ cookie: String, _ query: String) async throws -> Counts {
        let reply = try await web.get("/mail/counts?\(query)", cookie: cookie, headers: json)
        #expect(reply.status == 200)
        return try JSONDecoder().decode(Counts.self, from: Data(reply.text.utf8))
    }

    static func box(_ folder: Folder) -> String { WebForm.escape("f:\(folder.id)") }

    @Test("Issue 29: the window title counts the folder shown (not the inbox on every folder), on the page and from /mail/counts alike")
    func titleCountsTheListShown() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store((1...3).map { MailFixtures.email(accountId: id, number: $0) })
            try await web.store((4...5).map { MailFixtures.email(accountId: id, number: $0) }, in: .archive)
            try await web.store([MailFixtures.email(accountId: id, number: 6)], in: .spam)
            try await web.store([MailFixtures.email(accountId: id, number: 7, isRead: true)], in: .sent)
            let session = try await web.signIn()
            let cases: [(query: String, title: String)] = [
                ("box=inbox", "Inbox (3) — VaultMail"),
                ("box=\(Self.box(web.folders.of(.inbox)))", "Inbox (3) — VaultMail"),
                ("box=\(Self.box(web.folders.of(.archive)))", "Archive (2) — VaultMail"),
                ("box=\(Self.box(web.folders.of(.spam)))", "Junk (1) — VaultMail"),
                ("box=\(Self.box(web.folders.of(.sent)))", "Sent — VaultMail"),
            ]
            for (query, title) in cases {
                let page = try await web.get("/mail?\(query)", cookie: session.cookie).text
                #expect(page.contains("<title>\(title)</title>"), "\(query): \(page.firstMatch(of: /<title>[^<]*<\/title>/).map { String($0.0) } ?? "no title")")
                #expect(try await Self.counts(web, session.cookie, query).title == title, "\(query): the live title differs")
            }
            // A change: the archive's title follows, the inbox's stays.
            let archived = try await web.store([MailFixtures.email(accountId: id, number: 8)], in: .archive)
            #expect(try await Self.counts(web, session.cookie, "box=\(Self.box(web.folders.of(.archive)))").title == "Archive (3) — VaultMail")
            _ = try await web.post("/actions", "action=read&t[]=\(archived[0].threadId)&csrf=\(session.csrf)", cookie: session.cookie, extra: Self.json)
            #expect(try await Self.counts(web, session.cookie, "box=\(Self.box(web.folders.of(.archive)))").title == "Archive (2) — VaultMail")
            #expect(try await Self.counts(web, session.cookie, "box=inbox").title == "Inbox (3) — VaultMail")
        }
    }

    @Test("Issue 29: Mark all as read without the script marks exactly the list's unread conversations — its tab, none newer than the list drew, no other folder — and says how many")
    func markAllReadWithoutTheScript() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, subject: "Team sync", category: .primary),
                MailFixtures.email(accountId: id, number: 2, subject: "Lunch?", category: .primary),
                MailFixtures.email(accountId: id, number: 3, subject: "Read already", isRead: true, category: .primary),
                MailFixtures.email(accountId: id, number: 4, subject: "50% off shoes", category: .promotions),
            ])
            try await web.store([MailFixtures.email(accountId: id, number: 5, subject: "Old invoice")], in: .archive)
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&cat=primary", cookie: session.cookie).text
            let newest = ThreadListView.millis(MailFixtures.referenceDate.addingTimeInterval(3 * 60))
            #expect(page.contains("<button class=\"tool mark-all\" id=\"mark-all\" name=\"read\" value=\"all\""), "no Mark all as read")
            #expect(page.contains("<span>Mark all as read</span></button>"), "its label is not visible text")
            #expect(page.contains("<input type=\"hidden\" name=\"box\" value=\"inbox\"><input type=\"hidden\" name=\"cat\" value=\"primary\">"))
            #expect(page.contains("<input type=\"hidden\" name=\"upto\" value=\"\(newest)\">"), "the bound is not the newest row's time")
            #expect(page.contains("<kbd>Shift+C</kbd></td><td>Mark all as read (the list shown)"), "not in the shortcuts dialog")

            // What it would mark, as the script asks: Primary's two unread.
            let named = try await web.get("/mail/unread?box=inbox&cat=primary&upto=\(newest)", cookie: session.cookie, headers: Self.json)
            #expect(try JSONDecoder().decode(Unread.self, from: Data(named.text.utf8)).ids == ["thread-\(id)-2", "thread-\(id)-1"])
            // Mail that arrives after the list was drawn is newer than its bound: it stays unread.
            try await web.store([MailFixtures.email(accountId: id, number: 9, subject: "Just in", category: .primary)])

            let posted = try await web.post("/actions", "read=all&box=inbox&cat=primary&upto=\(newest)&return=%2Fmail%3Fbox%3Dinbox%26cat%3Dprimary&csrf=\(session.csrf)",
                                            cookie: session.cookie)
            #expect(posted.status == 303)
            let location = try #require(posted.headers["location"])
            #expect(location.hasPrefix("/mail?box=inbox&cat=primary&notice=") && location.removingPercentEncoding?.contains("Marked 2 conversations read.") == true, "\(location)")
            let unread = { (n: Int) in try await web.app.emailRepository.getThread(id: "thread-\(id)-\(n)")?.isUnread == true }
            #expect(try await !unread(1), "Primary's unread conversations are not read")
            #expect(try await !unread(2), "Primary's unread conversations are not read")
            #expect(try await unread(4), "another tab's conversation was marked read")
            #expect(try await unread(5), "another folder's conversation was marked read")
            #expect(try await unread(9), "mail newer than the list drew was marked read")

            // The whole inbox now (the script's path, JSON): the promotion and the new one.
            let all = try await web.post("/actions", "read=all&box=inbox&csrf=\(session.csrf)", cookie: session.cookie, extra: Self.json)
            #expect(all.status == 200 && all.text.contains("\"done\":2"), "\(all.text)")
            #expect(try await !unread(4))
            #expect(try await !unread(9))
            #expect(try await unread(5))
            let after = try await web.get("/mail?box=inbox", cookie: session.cookie).text
            #expect(after.contains("name=\"read\" value=\"all\" title=\"Mark every unread conversation of this list read (Shift+C)\" hidden>"),
                    "offered with no unread mail left")
            #expect(try await Self.counts(web, session.cookie, "box=inbox").unread == 0)
            #expect(try await Self.counts(web, session.cookie, "box=\(Self.box(web.folders.of(.archive)))").unread == 1)

            // Not offered on the Outbox; a list it cannot name is refused in words.
            #expect(!(try await web.get("/mail?box=outbox", cookie: session.cookie).text.contains("mark-all")))
            let outbox = try await web.get("/mail/unread?box=outbox", cookie: session.cookie, headers: Self.json)
            #expect(outbox.status == 400 && outbox.text.contains("The Outbox holds nothing to mark read."))
            let nowhere = try await web.post("/actions", "read=all&box=nowhere&csrf=\(session.csrf)", cookie: session.cookie, extra: Self.json)
            #expect(nowhere.status == 400 && nowhere.text.contains("Unknown mailbox. Reload the page and try again."))
            let category = try await web.post("/actions", "read=all&box=inbox&cat=spam&csrf=\(session.csrf)", cookie: session.cookie, extra: Self.json)
            #expect(category.status == 400 && category.text.contains("There is no category"))
        }
    }

    /// The list's date headings and rows in page order: `#Heading` or a thread id.
    static func order(_ html: String) -> [String] {
        html.matches(of: /<li class="date-heading"><h2>([^<]+)<\/h2><\/li>|<li class="row[^"]*" data-id="([^"]+)"/).map { match in
            match.1.map { "#\($0)" } ?? String(match.2 ?? "")
        }
    }

    @Test("Issue 29: date headings (off by default, a setting) head each group once, before its first row; a later page continues its group without repeating it; none on search results")
    func dateHeadings() async throws {
        // One "now" for the app and the expected headings: none may pass midnight between them.
        let clock = FixedClock(Date(), timeZone: .current)
        try await WebFixture.with(clock: clock) { web in
            let id = web.account.id
            let now = clock.now
            // 24 conversations 12 hours apart, then two 100 days back: the 25th row and the 26th (page 2) share a month.
            let dates = (0..<24).map { now.addingTimeInterval(-Double($0) * 43_200 - 60) }
                + [now.addingTimeInterval(-100 * 86_400), now.addingTimeInterval(-100 * 86_400 - 60)]
            try await web.store(dates.enumerated().map { MailFixtures.email(accountId: id, number: $0.offset, subject: "Item \($0.offset)", date: $0.element) })
            let session = try await web.signIn()
            let off = try await web.get("/mail", cookie: session.cookie).text
            #expect(!off.contains("date-heading"), "headings while the setting is off")
            let settings = try await web.get("/settings", cookie: session.cookie).text
            #expect(settings.contains("id=\"sw-dateHeadings\" name=\"dateHeadings\" value=\"1\""), "no setting")
            _ = try await web.post("/settings/general", "dateHeadings=1&markReadOnOpen=1&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(await web.web.mail.preferences.dateHeadings())

            let relative = RelativeDate(now: clock.now, timeZone: clock.timeZone)
            var expected: [String] = []
            for (n, date) in dates.prefix(25).enumerated() {
                let heading = "#" + relative.heading(for: date)
                if !expected.contains(heading) { expected.append(heading) }
                expected.append("thread-\(id)-\(n)")
            }
            let page = try await web.get("/mail", cookie: session.cookie).text
            #expect(Self.order(page) == expected)
            #expect(Set(expected.filter { $0.hasPrefix("#") }).count >= 4, "\(expected)")

            // The next page, as endless scrolling asks for it: the 26th row, under the 25th's heading.
            let next = try #require(page.firstMatch(of: /data-next="([^"]+)"/)?.1).replacingOccurrences(of: "&amp;", with: "&")
            let more = try await web.get(String(next), cookie: session.cookie).text
            #expect(Self.order(more) == ["thread-\(id)-25"], "\(Self.order(more))")
            // A live refresh reads the rows from the top again: the same headings.
            let refreshed = try await web.get("/mail/list?box=inbox&limit=30", cookie: session.cookie).text
            #expect(Self.order(refreshed) == expected + ["thread-\(id)-25"])

            let search = try await web.get("/mail/search?q=Item", cookie: session.cookie).text
            #expect(search.contains("class=\"row") && !search.contains("date-heading"), "headings on search results")
        }
    }
}
