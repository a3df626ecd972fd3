import Foundation
import Testing
import VaultMailCore
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// What the server renders and does, over a real socket against the in-memory store.
@Suite("Web app pages and actions (issue 12)", .serialized)
@MainActor
struct WebPagesTests {
    @Test("AC-U-03: a row says who, what, when and its state in one label; unread is bold with a dot, never colour alone")
    func rows() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, threadId: "t1", from: "john@example.org", fromName: "John Smith", subject: "Lunch?"),
                MailFixtures.email(accountId: id, number: 2, threadId: "t1", from: "sarah@example.org", fromName: "Sarah Lee", subject: "Re: Lunch?", isRead: true),
                MailFixtures.email(accountId: id, number: 3, threadId: "t1", from: "john@example.org", fromName: "John Smith", subject: "Re: Lunch?", isRead: true, isStarred: true),
            ])
            let session = try await web.signIn()
            let page = try await web.get("/mail", cookie: session.cookie).text
            let label = try #require(page.firstMatch(of: /class="row-link" href="[^"]+" aria-label="([^"]+)"/)?.1)
            #expect(label.hasPrefix("From John, Sarah (3), Lunch?, Preview of message 3, "), "\(label)")
            #expect(label.hasSuffix(", unread, starred"), "\(label)")
            #expect(page.contains("class=\"row unread\""))
            #expect(page.contains("<span class=\"unread-mark\" aria-hidden=\"true\"></span>"))
            #expect(page.contains("aria-pressed=\"true\""), "the star button says it is on")
            #expect(!page.contains("class=\"tabs\""), "no category tabs while no mail is categorized (E-02)")
            #expect(page.contains("<title>Inbox (1) — VaultMail</title>"))
        }
    }

    @Test("NOTIF-11: a muted conversation's row carries the struck-through bell and says \"muted\" in its label, in the list, its next pages and search; others do not")
    func mutedRows() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, threadId: "quiet", subject: "Invoice for March"),
                MailFixtures.email(accountId: id, number: 2, threadId: "loud", subject: "Invoice for April"),
            ])
            let session = try await web.signIn()
            let muted = try await web.post("/actions", "action=mute&t[]=quiet&csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(muted.status == 200, "\(muted.text)")
            for path in ["/mail", "/mail/list?box=inbox", "/mail/search?q=invoice"] {
                let page = try await web.get(path, cookie: session.cookie).text
                let rows = Dictionary(uniqueKeysWithValues: page.matches(of: /<li class="row[^"]*" data-id="([^"]+)".*?<\/li>/.dotMatchesNewlines()).map { (String($0.1), String($0.0)) })
                #expect(Set(rows.keys) == ["quiet", "loud"], "\(path)")
                let quiet = rows["quiet"] ?? "", loud = rows["loud"] ?? ""
                #expect(quiet.contains("class=\"muted-mark\" title=\"Muted: never notifies\"") && quiet.contains(", muted\""), "\(path): \(quiet)")
                #expect(!loud.contains("muted-mark") && !loud.contains(", muted\""), "\(path): \(loud)")
            }
        }
    }

    @Test("Issue 33: Notify me from a conversation's More menu, listed in Settings and stopped there; what notifications show and the server vouching for VIPs are set in Settings")
    func notifyMeAndPrivacy() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([MailFixtures.email(accountId: id, number: 1, threadId: "plan", subject: "Release plan")])
            let session = try await web.signIn()
            let before = try await web.get("/mail?box=inbox&t=plan", cookie: session.cookie).text
            #expect(before.contains("value=\"watch\"") && before.contains("Notify me about replies"), "the More menu offers it")
            let watched = try await web.post("/actions", "action=watch&t[]=plan&csrf=\(session.csrf)", cookie: session.cookie,
                                             extra: [("Accept", "application/json")])
            #expect(watched.status == 200 && watched.text.contains("notify me"), "\(watched.text)")
            let after = try await web.get("/mail?box=inbox&t=plan", cookie: session.cookie).text
            #expect(after.contains("value=\"unwatch\"") && after.contains("· notify me"), "the conversation says so")

            let form = "csrf=\(session.csrf)&notifications=1&sound=1&quietStart=22:00&quietEnd=07:00&content=sender&authserv:\(id)=MX.Example.net"
            let saved = try await web.post("/settings/notifications", form, cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(saved.status == 200, "\(saved.text)")
            let settings = try await web.get("/settings", cookie: session.cookie).text
            #expect(settings.contains(#"name="content" value="sender" checked"#), "\(settings)")
            #expect(settings.contains(#"name="authserv:\#(id)" value="mx.example.net""#))
            #expect(settings.contains("id=\"watched-list\"") && settings.contains("Release plan"))

            let refused = try await web.post("/settings/notifications", form.replacingOccurrences(of: "MX.Example.net", with: "mx%20example"),
                                             cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(refused.status == 400 && refused.text.contains("is not a server name"), "\(refused.text)")

            let stopped = try await web.post("/settings/unwatch", "t=plan&csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(stopped.status == 200, "\(stopped.text)")
            #expect(!(try await web.get("/settings", cookie: session.cookie).text).contains("Release plan"))
        }
    }

    @Test("AC-U-05: Drafts shows how many drafts it holds, read or not; the count follows a new draft")
    func draftsCount() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([MailFixtures.email(accountId: id, number: 1, threadId: "d1", subject: "Half a thought", isRead: true),
                                 MailFixtures.email(accountId: id, number: 2, threadId: "d2", subject: "Another", isRead: true)], in: .drafts)
            try await web.store([MailFixtures.email(accountId: id, number: 3, threadId: "inbox-1", isRead: true)])
            let session = try await web.signIn()
            func draftsEntry() async throws -> String {
                let page = try await web.get("/mail", cookie: session.cookie).text
                return String(try #require(page.firstMatch(of: /<li[^>]*><a[^>]*>(?:(?!<\/li>).)*Drafts(?:(?!<\/li>).)*<\/li>/.dotMatchesNewlines())).0)
            }
            let entry = try await draftsEntry()
            #expect(entry.contains(#"<span class="count"><span class="visually-hidden">, </span>2<span class="visually-hidden"> drafts</span></span>"#), "\(entry)")
            try await web.store([MailFixtures.email(accountId: id, number: 4, threadId: "d3", isRead: true)], in: .drafts)
            #expect(try await draftsEntry().contains(">3<span class=\"visually-hidden\"> drafts"))
        }
    }

    @Test("Issue 33: Remind me if nobody answers, in the More menu of a conversation the user wrote in; set, shown, cancelled; refused where the user wrote nothing")
    func followUpReminder() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([MailFixtures.email(accountId: id, number: 1, threadId: "roof", from: web.account.email, subject: "Quote for the roof", isRead: true)], in: .sent)
            try await web.store([MailFixtures.email(accountId: id, number: 2, threadId: "news", subject: "Newsletter")])
            let session = try await web.signIn()
            let offered = try await web.get("/mail?box=all:sent&t=roof", cookie: session.cookie).text
            #expect(offered.contains(#"name="one" value="remind:3d:roof">Remind me in 3 days if nobody answers"#), "\(offered)")
            #expect(!(try await web.get("/mail?box=inbox&t=news", cookie: session.cookie).text).contains("remind:"), "nothing to wait on")

            let set = try await web.post("/actions", "one=remind:3d:roof&csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(set.status == 200 && set.text.contains("you'll be reminded"), "\(set.text)")
            let shown = try await web.get("/mail?box=all:sent&t=roof", cookie: session.cookie).text
            #expect(shown.contains("if nobody answers</span>") && shown.contains(#"value="unremind:roof">Cancel the reminder"#), "\(shown)")
            let refused = try await web.post("/actions", "one=remind:3d:news&csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(refused.status == 400 && refused.text.contains("You haven't written in that conversation"), "\(refused.text)")
            let cancelled = try await web.post("/actions", "one=unremind:roof&csrf=\(session.csrf)", cookie: session.cookie, extra: [("Accept", "application/json")])
            #expect(cancelled.status == 200, "\(cancelled.text)")
            #expect(try await web.get("/mail?box=all:sent&t=roof", cookie: session.cookie).text.contains("value=\"remind:1d:roof\""))
        }
    }

    @Test("Category tabs appear once mail is categorized and filter the list")
    func categoryTabs() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, subject: "50% off shoes", category: .promotions),
                MailFixtures.email(accountId: id, number: 2, subject: "Team sync", category: .primary),
            ])
            let session = try await web.signIn()
            let all = try await web.get("/mail", cookie: session.cookie).text
            #expect(all.contains("class=\"tabs\""))
            #expect(all.contains("Promotions <span class=\"count\">1"))
            #expect(all.contains("<span class=\"pill cat-promotions\">Promotions</span>"))
            #expect(!all.contains("pill cat-primary"), "mail in Primary carries no pill: only mail sorted out of it is marked")
            let promotions = try await web.get("/mail?box=inbox&cat=promotions", cookie: session.cookie).text
            #expect(promotions.contains("50% off shoes") && !promotions.contains("Team sync"))
            #expect(!promotions.contains("class=\"pill cat-"), "in a category's tab no row repeats its category (issue 29)")
        }
    }

    @Test("AC-U-05: a conversation shows oldest first, read messages folded, the unread one open; opening marks it read")
    func conversation() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store([
                MailFixtures.email(accountId: id, number: 1, threadId: "plan", subject: "Plan", isRead: true),
                MailFixtures.email(accountId: id, number: 2, threadId: "plan", subject: "Re: Plan", isRead: true),
                MailFixtures.email(accountId: id, number: 3, threadId: "plan", subject: "Re: Plan"),
            ])
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=inbox&t=plan", cookie: session.cookie).text
            let opened = page.matches(of: /<details class="msg"( open)?>/).map { $0.1 != nil }
            #expect(opened == [false, false, true])
            let bodies = page.matches(of: /Body of message (\d)/).map { String($0.1) }
            #expect(bodies == ["1", "2", "3"])
            try await waitUntil("the conversation marked read", timeout: .seconds(10)) {
                try await web.app.emailRepository.getThread(id: "plan")?.unreadCount == 0
            }
            let gone = try await web.get("/mail?box=inbox&t=nothing-here", cookie: session.cookie)
            #expect(gone.status == 404)
            #expect(gone.text.contains("This conversation no longer exists"))
        }
    }

    @Test("AC-U-04: actions change the store through the use cases: archive, star, read, mute, VIP; JSON for the script, a redirect for a form")
    func actions() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            let stored = try await web.store((1...3).map { MailFixtures.email(accountId: id, number: $0, from: "grace@example.org") })
            let (a, b, c) = (stored[0].threadId, stored[1].threadId, stored[2].threadId)
            let session = try await web.signIn()
            let json = [("Accept", "application/json")]

            let archived = try await web.post("/actions", "action=archive&t[]=\(a)&t[]=\(b)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(archived.status == 200)
            #expect(archived.text.contains("\"done\":2"))
            let inbox = try await web.app.emailRepository.getThreads(folderId: web.folders.of(.inbox).id, category: nil, cursor: nil, limit: 10)
            #expect(inbox.threads.map(\.id) == [c])

            let starred = try await web.post("/actions", "one=star:\(c)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(starred.status == 200)
            #expect(try await web.app.emailRepository.getThread(id: c)?.isStarred == true)
            // A row's own buttons (issue 29) name their conversation, whatever else is selected.
            _ = try await web.post("/actions", "action=read&t[]=\(b)&t[]=\(c)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            let rowUnread = try await web.post("/actions", "one=unread:\(c)&t[]=\(b)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(rowUnread.status == 200 && rowUnread.text.contains("\"done\":1"), "\(rowUnread.text)")
            #expect(try await web.app.emailRepository.getThread(id: c)?.unreadCount ?? 0 > 0)
            #expect(try await web.app.emailRepository.getThread(id: b)?.unreadCount == 0, "the selection is left alone")

            let form = try await web.post("/actions", "action=read&t[]=\(c)&csrf=\(session.csrf)&return=%2Fmail%3Fbox%3Dinbox", cookie: session.cookie)
            #expect(form.status == 303)
            #expect(form.headers["location"] == "/mail?box=inbox")
            #expect(try await web.app.emailRepository.getThread(id: c)?.unreadCount == 0)

            _ = try await web.post("/actions", "action=mute&t[]=\(c)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(web.app.settingsStore.mutedThreadIds.contains(c))
            _ = try await web.post("/actions", "one=vip:grace@example.org&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(web.app.settingsStore.isVIP("grace@example.org"))

            let empty = try await web.post("/actions", "action=archive&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(empty.status == 400)
            #expect(empty.text.contains("Select one or more conversations first"))
            let evil = try await web.post("/actions", "action=read&t[]=\(c)&csrf=\(session.csrf)&return=https%3A%2F%2Fevil.example", cookie: session.cookie)
            #expect(evil.headers["location"] == "/mail", "a return address off the app is not followed")

            // The decoder reads a list only as t[]: a repeated plain name is refused in words, with the page's headers, and changes nothing.
            let repeated = try await web.post("/actions", "action=unread&t=\(c)&t=\(a)&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(repeated.status == 400)
            #expect(repeated.text.contains("This form could not be read: it gives 't' more than once (a list is sent as 't[]')."))
            #expect(repeated.headers["content-security-policy"] == SecurityHeaders.pagePolicy)
            #expect(try await web.app.emailRepository.getThread(id: c)?.unreadCount == 0)
            let address = try await web.get("/mail?box=inbox&t=\(c)&t=\(a)", cookie: session.cookie)
            #expect(address.status == 400)
            #expect(address.text.contains("This address could not be read: it gives 't' more than once"))

            // Issue 29: the conversation's one Move control is a menu of folders, each a button of
            // its form (`one=move:FOLDER`), which works without the script.
            let archive = web.folders.of(.archive).id
            let conversation = try await web.get("/mail?box=inbox&t=\(c)", cookie: session.cookie).text
            #expect(conversation.contains("value=\"move:\(archive)\"") && !conversation.contains("<select"), "one Move menu, no folder select")
            let moved = try await web.post("/actions", "one=move:\(archive)&t[]=\(c)&csrf=\(session.csrf)&return=%2Fmail%3Fbox%3Dinbox%26t%3D\(c)&leave=%2Fmail%3Fbox%3Dinbox",
                                           cookie: session.cookie)
            #expect(moved.status == 303 && moved.headers["location"] == "/mail?box=inbox", "\(moved.status) \(moved.headers["location"] ?? "")")
            #expect(try await web.app.emailRepository.getThreads(folderId: web.folders.of(.inbox).id, category: nil, cursor: nil, limit: 10).threads.isEmpty)
        }
    }

    @Test("AC-U-05: the virtual Outbox lists queued and failed messages with their state and counts them in the sidebar")
    func outbox() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            let outbox = GRDBOutboxRepository(database: web.database)
            for (number, subject) in [(1, "Waiting"), (2, "Bounced back")] {
                let email = MailFixtures.email(accountId: id, number: number, subject: subject)
                try await outbox.saveDraft(email, attachments: [])
                try await outbox.queue(emailId: email.id, rawMessage: Array("raw".utf8), notBefore: .distantFuture, now: Date())
                if number == 2 {
                    _ = try await outbox.claim(emailId: email.id, runId: "test", now: Date(), ignoringSchedule: true, leaseUntil: .distantFuture)
                    try await outbox.markFailed(emailId: email.id, reason: "550 mailbox unavailable")
                }
            }
            let session = try await web.signIn()
            let page = try await web.get("/mail?box=outbox", cookie: session.cookie).text
            #expect(page.contains("Queued</span>") && page.contains("Waiting"))
            #expect(page.contains("Failed</span>") && page.contains("Bounced back") && page.contains("550 mailbox unavailable"))
            #expect(page.contains("formaction=\"/outbox/retry\"") && page.contains("formaction=\"/outbox/cancel\""))
            #expect(page.contains("<span class=\"box-name\">Outbox</span><span class=\"count\"><span class=\"visually-hidden\">, </span>2<span class=\"visually-hidden\"> waiting</span>"))
        }
    }

    @Test("NOTIF-06f: the conversation open in a focused window is the engine's viewed thread until it closes")
    func viewing() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            #expect(try await web.post("/viewing", "t=thread-1&state=open&csrf=\(session.csrf)", cookie: session.cookie).status == 204)
            #expect(web.app.notificationSyncCoordinator.viewingThreadId == "thread-1")
            // A page closing another conversation (a tab left behind) does not clear this one.
            _ = try await web.post("/viewing", "t=thread-0&state=closed&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(web.app.notificationSyncCoordinator.viewingThreadId == "thread-1")
            _ = try await web.post("/viewing", "t=thread-1&state=closed&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(web.app.notificationSyncCoordinator.viewingThreadId == nil)
        }
    }

    @Test("AC-N-12: the list a focused window shows is the engine's folder on screen until that window lets go")
    func folderOnScreen() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            let coordinator = web.app.notificationSyncCoordinator
            _ = try await web.post("/viewing", "box=inbox&t=&state=open&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(coordinator.folderOnScreen == FolderOnScreen(type: .inbox))
            _ = try await web.post("/viewing", "box=all:sent&t=&state=open&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(coordinator.folderOnScreen == FolderOnScreen(type: .sent))
            // The inbox tab going away (its beacon arriving late) leaves the Sent list on screen.
            _ = try await web.post("/viewing", "box=inbox&t=&state=closed&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(coordinator.folderOnScreen == FolderOnScreen(type: .sent))
            _ = try await web.post("/viewing", "box=outbox&t=&state=open&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(coordinator.folderOnScreen == nil, "the Outbox is no folder type")
            _ = try await web.post("/viewing", "box=all:sent&t=&state=open&csrf=\(session.csrf)", cookie: session.cookie)
            _ = try await web.post("/viewing", "box=all:sent&t=&state=closed&csrf=\(session.csrf)", cookie: session.cookie)
            #expect(coordinator.folderOnScreen == nil)
        }
    }

    @Test("A store commit reaches an open event stream as a change")
    func events() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            let stream = try EventStreamClient(port: web.port, cookie: session.cookie)
            defer { stream.close() }
            try await stream.waitFor("event: connection")
            try await web.store([MailFixtures.email(accountId: web.account.id, number: 9)])
            try await stream.waitFor("event: change")
            await web.web.events.publish(.newMail([NewMailSummary(threadId: "t", sender: "Grace \"G\" <x>", subject: "Hi", preview: "p")]))
            try await stream.waitFor(#"event: newmail"# + "\n" + #"data: [{"preview":"p","sender":"Grace \"G\" <x>","subject":"Hi","threadId":"t"}]"#)
        }
    }

    @Test("An attachment downloads with its name (UTF-8 too), its type and as an attachment")
    func attachment() async throws {
        try await WebFixture.with { web in
            let raw = """
                From: a@example.org\r\nTo: b@example.org\r\nSubject: Files\r\nMessage-ID: <files@example.org>\r\nMIME-Version: 1.0\r\n\
                Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n--b\r\n\
                Content-Type: text/csv; name="Übersicht 2026.csv"\r\nContent-Disposition: attachment; filename*=UTF-8''%C3%9Cbersicht%202026.csv\r\n\r\n\
                a,b\r\n1,2\r\n--b--\r\n
                """
            var email = MailFixtures.email(accountId: web.account.id, number: 1, subject: "Files")
            email.hasAttachments = true
            let attachment = Attachment(emailId: email.id, filename: "Übersicht 2026.csv", mimeType: "text/csv", sizeBytes: 9, partId: "2")
            try await web.app.emailRepository.saveEmails([IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: web.folders.of(.inbox).id)],
                                                                         attachments: [attachment], rawSource: Array(raw.utf8))])
            let session = try await web.signIn()
            let reply = try await web.get("/message/\(email.id)/attachment/\(attachment.id)", cookie: session.cookie)
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/csv")
            #expect(reply.headers["content-disposition"] == "attachment; filename=\"_bersicht 2026.csv\"; filename*=UTF-8''%C3%9Cbersicht%202026.csv")
            #expect(reply.text == "a,b\r\n1,2")
            #expect(reply.headers["content-security-policy"]?.contains("sandbox") == true)
            let missing = try await web.get("/message/\(email.id)/attachment/nope", cookie: session.cookie)
            #expect(missing.status == 404)
            #expect(missing.text.contains("reload the conversation"))
        }
    }
}
