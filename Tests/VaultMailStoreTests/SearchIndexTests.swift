import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

/// The FTS5 index and the query language over the store (issue 14), on the production
/// migrator with an in-memory database.
@Suite("Search index (issue 14)")
struct SearchIndexTests {
    let store: StoreFixture
    let search: SearchMailUseCase
    let clock = FixedClock(MailFixtures.referenceDate.addingTimeInterval(86_400), timeZone: TimeZone(identifier: "Europe/Paris")!)

    init() async throws {
        store = try await StoreFixture(accounts: ["work", "home"])
        search = SearchMailUseCase(search: GRDBMailSearch(database: store.database), clock: clock)
        try await addCorpus()
    }

    /// Minutes after the fixtures' reference date (2026-01-15 12:00 UTC).
    static func at(_ minutes: Double) -> Date { MailFixtures.referenceDate.addingTimeInterval(minutes * 60) }

    func add(_ number: Int, account: String = "acct-work", in types: [FolderType] = [.inbox], attachments: [String] = [],
             _ configure: (inout Email) -> Void) async throws {
        var email = MailFixtures.email(accountId: account, number: number)
        email.dateReceived = Self.at(Double(number))
        configure(&email)
        let folders = types.map { store.folder($0, account: account) }
        var incoming = MailFixtures.incoming(email, in: folders, uid: UInt32(number))
        incoming.attachments = attachments.map { Attachment(emailId: email.id, filename: $0, mimeType: "application/octet-stream", sizeBytes: 10) }
        try await store.emails.saveEmails([incoming])
    }

    func addCorpus() async throws {
        try await add(1, attachments: ["Invoice-2024.pdf"]) {
            $0.fromAddress = "jose@example.org"; $0.fromName = "José Müller"; $0.subject = "Café invoice"
            $0.bodyPlain = "Please find the invoice for the crème brûlée order attached."; $0.threadId = "T-invoice"
        }
        try await add(2) {
            $0.fromAddress = "ivan@mail.ru"; $0.fromName = "Иван Петров"; $0.subject = "Привет из Москвы"
            $0.bodyPlain = "Встреча завтра в офисе. Ёлка стоит."; $0.isRead = true; $0.isStarred = true
        }
        try await add(3, in: [.archive]) {
            $0.fromAddress = "eleni@example.gr"; $0.fromName = "Ελένη"; $0.subject = "Καλημέρα"
            $0.bodyPlain = "Η συνάντηση είναι αύριο."; $0.isRead = true
        }
        try await add(4) {
            $0.fromAddress = "tanaka@example.jp"; $0.fromName = "田中"; $0.subject = "会議の件"
            $0.bodyPlain = "明日の東京都での会議について、よろしくお願いします。"
        }
        try await add(5, in: [.spam]) {
            $0.fromAddress = "newsletter@shop.example.com"; $0.fromName = nil; $0.subject = "Big sale"
            $0.bodyPlain = "Unsubscribe any time."; $0.aiCategory = AICategory.promotions.rawValue
        }
        try await add(6, attachments: ["receipt.txt"]) {
            $0.fromAddress = "bob@example.net"; $0.fromName = "Bob"; $0.subject = "Re: Café invoice"
            $0.bodyPlain = "The invoice is paid, thanks."; $0.threadId = "T-invoice"
            $0.toAddresses = [Participant(name: "José Müller", email: "jose@example.org")]
            $0.ccAddresses = [Participant(name: "Carol Finance", email: "carol@corp.example")]
            $0.isRead = true
        }
        try await add(7) {
            $0.fromAddress = "reports@corp.example"; $0.fromName = "Reports"; $0.subject = "Q3"
            $0.bodyPlain = nil; $0.bodyHTML = "<p>The <b>quarterly report</b> is ready.</p><style>.invoice{}</style>"
        }
        try await add(8, account: "acct-home") {
            $0.fromAddress = "mum@family.example"; $0.fromName = "Mum"; $0.subject = "Sunday lunch"
            $0.bodyPlain = "Bring the report cards and the invoice from the garage."
        }
    }

    /// Subjects of the matching conversations' newest matching emails, newest first.
    func subjects(_ query: String, sort: SearchSort = .newest) async throws -> [String] {
        try await search.threads(query, options: SearchOptions(sort: sort)).hits.map(\.thread.subject)
    }

    /// Subjects of the matching messages, newest first.
    func messages(_ query: String) async throws -> [String] {
        try await search.messages(query).hits.map(\.email.subject)
    }

    @Test("Words match accented Latin text with or without accents, in any case")
    func accentedLatin() async throws {
        #expect(try await messages("cafe") == ["Re: Café invoice", "Café invoice"])
        #expect(try await messages("CRÈME brulee") == ["Café invoice"])
        #expect(try await messages("muller") == ["Re: Café invoice", "Café invoice"], "the sender's and a recipient's name")
    }

    @Test("Cyrillic and Greek: case and accents never decide; ё matches е")
    func cyrillicAndGreek() async throws {
        #expect(try await messages("привет") == ["Привет из Москвы"])
        #expect(try await messages("ВСТРЕЧА") == ["Привет из Москвы"])
        #expect(try await messages("елка") == ["Привет из Москвы"])
        #expect(try await messages("καλημερα") == ["Καλημέρα"])
        #expect(try await messages("ΣΥΝΆΝΤΗΣΗ") == ["Καλημέρα"])
        #expect(try await messages("from:ελενη") == ["Καλημέρα"])
    }

    @Test("CJK words are found inside text written without spaces, and marked in the snippet")
    func cjk() async throws {
        #expect(try await messages("東京") == ["会議の件"])
        #expect(try await messages("東京都") == ["会議の件"])
        #expect(try await messages("会議") == ["会議の件"])
        #expect(try await messages("京") == ["会議の件"], "one character")
        #expect(try await messages("大阪").isEmpty)
        #expect(try await messages("subject:会議") == ["会議の件"])
        #expect(try await messages("subject:東京").isEmpty, "東京 is only in the body")
        let hit = try #require(try await search.messages("東京").hits.first)
        #expect(hit.highlight?.segments.contains(.init(text: "東京", isMatch: true)) == true, "\(String(describing: hit.highlight))")
    }

    @Test("Addresses match by any part: domain, part of a name, a substring; short values by word prefix")
    func addresses() async throws {
        #expect(try await messages("from:example.org") == ["Café invoice"])
        #expect(try await messages("from:jose@example.org") == ["Café invoice"])
        #expect(try await messages("from:xample.or") == ["Café invoice"], "a substring")
        #expect(try await messages("from:\"José Müller\"") == ["Café invoice"])
        #expect(try await messages("from:jose") == ["Café invoice"])
        #expect(try await messages("from:bo") == ["Re: Café invoice"], "two letters: a word prefix")
        #expect(try await messages("to:jose") == ["Re: Café invoice"])
        #expect(try await messages("cc:corp.example") == ["Re: Café invoice"])
        #expect(try await messages("cc:carol") == ["Re: Café invoice"])
        #expect(try await messages("from:corp.example") == ["Q3"])
        #expect(try await messages("example.org") == ["Re: Café invoice", "Café invoice"], "a bare address is a phrase of its words")
    }

    @Test("A phrase matches words next to each other in order; subject: looks in the subject only")
    func phrases() async throws {
        #expect(try await messages("\"quarterly report\"") == ["Q3"], "the text of an HTML-only body")
        #expect(try await messages("\"report quarterly\"").isEmpty)
        #expect(try await messages("\"invoice is paid\"") == ["Re: Café invoice"])
        #expect(try await messages("subject:invoice") == ["Re: Café invoice", "Café invoice"])
        #expect(try await messages("subject:report").isEmpty)
        #expect(try await messages("invoice").count == 3, "body and subject")
        #expect(try await messages("invoic*").count == 3)
        #expect(try await messages("style").isEmpty, "HTML styles are not text")
    }

    @Test("Negation, OR, parentheses and their combinations")
    func booleans() async throws {
        #expect(try await messages("invoice -paid") == ["Sunday lunch", "Café invoice"])
        #expect(try await messages("invoice -from:bob") == ["Sunday lunch", "Café invoice"])
        #expect(try await messages("invoice -\"is paid\"") == ["Sunday lunch", "Café invoice"])
        #expect(try await messages("привет OR καλημερα") == ["Καλημέρα", "Привет из Москвы"])
        #expect(try await messages("(from:bob OR from:ivan) is:starred") == ["Привет из Москвы"])
        #expect(try await messages("-invoice -is:read").map { $0 }.sorted() == ["Big sale", "Q3", "会議の件"])
        #expect(try await messages("invoice (is:starred OR has:attachment)") == ["Re: Café invoice", "Café invoice"])
        #expect(try await messages("report OR -in:inbox").sorted() == ["Big sale", "Q3", "Sunday lunch", "Καλημέρα"])
        #expect(try await messages("NOT (invoice OR report OR from:example.org)").sorted() == ["Big sale", "Καλημέρα", "Привет из Москвы", "会議の件"])
        #expect(try await messages("-from:example") == ["Привет из Москвы"], "every other sender has example in the address")
    }

    @Test("has:, filename:, is:, in:, account:, category:")
    func operators() async throws {
        #expect(try await messages("has:attachment") == ["Re: Café invoice", "Café invoice"])
        #expect(try await messages("filename:pdf") == ["Café invoice"])
        #expect(try await messages("filename:invoice-2024") == ["Café invoice"])
        #expect(try await messages("filename:tx") == ["Re: Café invoice"], "two letters: the attachment names themselves")
        #expect(try await messages("-filename:pdf has:attachment") == ["Re: Café invoice"])
        #expect(try await messages("is:starred") == ["Привет из Москвы"])
        #expect(try await messages("is:unread").sorted() == ["Big sale", "Café invoice", "Q3", "Sunday lunch", "会議の件"])
        #expect(try await messages("is:read").count == 3)
        #expect(try await messages("in:archive") == ["Καλημέρα"])
        #expect(try await messages("in:junk") == ["Big sale"])
        #expect(try await messages("in:Spam") == ["Big sale"])
        #expect(try await messages("in:inbox account:home") == ["Sunday lunch"])
        #expect(try await messages("in:nowhere").isEmpty)
        #expect(try await messages("account:HOME") == ["Sunday lunch"])
        #expect(try await messages("category:promotions") == ["Big sale"])
        #expect(try await messages("-category:uncategorized") == ["Big sale"])
        let scoped = try await search.messages("invoice", account: "work").hits.map(\.email.subject)
        #expect(scoped == ["Re: Café invoice", "Café invoice"])
    }

    @Test("after:, before:, older_than:, newer_than: at day boundaries in the user's time zone")
    func dates() async throws {
        // Mail at 23:30 and 00:30 Paris time, either side of midnight on 2026-01-20 (UTC+1).
        try await add(20) { $0.subject = "late"; $0.dateReceived = Date(timeIntervalSince1970: 1_768_861_800) } // 22:30 UTC 19 Jan
        try await add(21) { $0.subject = "early"; $0.dateReceived = Date(timeIntervalSince1970: 1_768_865_400) } // 23:30 UTC 19 Jan
        #expect(try await messages("after:2026-01-20") == ["early"])
        #expect(try await messages("after:2026/01/19 before:2026/01/20") == ["late"])
        #expect(try await messages("before:2026-01-15").isEmpty)
        #expect(try await messages("after:2026-01-15 before:2026-01-16").count == 8)
        clock.set(Date(timeIntervalSince1970: 1_768_865_400 + 3_600)) // an hour after "early"
        #expect(try await messages("newer_than:1d").sorted() == ["early", "late"])
        #expect(try await messages("older_than:1d").count == 8)
    }

    @Test("Results are conversations newest first, with the newest matching message's highlighted snippet")
    func conversations() async throws {
        let page = try await search.threads("invoice")
        #expect(page.hits.map(\.thread.subject) == ["Sunday lunch", "Café invoice"])
        let invoice = try #require(page.hits.last)
        #expect(invoice.thread.id == "T-invoice")
        #expect(invoice.thread.messageCount == 2)
        let paid = try #require(try await store.emails.getEmails(threadId: "T-invoice").last)
        #expect(invoice.emailId == paid.id)
        #expect(invoice.highlight?.text == "The invoice is paid, thanks.")
        #expect(invoice.highlight?.segments.filter(\.isMatch).map(\.text) == ["invoice"])
        #expect(try await search.count("invoice") == 2)
        #expect(try await search.count("invoice", messages: true) == 3)
        #expect(try await search.count("from:jose") == 1)
        let noWords = try #require(try await search.threads("is:starred").hits.first)
        #expect(noWords.highlight?.text == "Preview of message 2", "with no words, the matching message's own snippet")
    }

    @Test("Relevance ranks the better match first, and pages by offset")
    func relevance() async throws {
        try await add(30) { $0.subject = "invoice invoice"; $0.bodyPlain = "invoice, invoice and invoice"; $0.dateReceived = Self.at(-600) }
        let ranked = try await search.threads("invoice", options: SearchOptions(sort: .relevance, limit: 2))
        #expect(ranked.hits.first?.thread.subject == "invoice invoice")
        #expect(ranked.nextCursor == .offset(2))
        let rest = try await search.threads("invoice", options: SearchOptions(sort: .relevance, limit: 2, cursor: ranked.nextCursor))
        #expect(rest.hits.count == 1)
        #expect(rest.nextCursor == nil)
        #expect(Set((ranked.hits + rest.hits).map(\.thread.id)).count == 3)
    }

    @Test("Cursor paging visits every conversation and message once")
    func paging() async throws {
        for number in 100..<160 {
            try await add(number) { $0.subject = "bulk \(number)"; $0.bodyPlain = "bulk mailing"; $0.dateReceived = Self.at(Double(number / 2)) }
        }
        let threads = try await everyPage { try await search.threads("bulk", options: SearchOptions(limit: 25, cursor: $0)).ids(\.thread.id) }
        #expect(threads.count == 60)
        #expect(Set(threads).count == 60)
        let messages = try await everyPage { try await search.messages("bulk", options: SearchOptions(limit: 7, cursor: $0)).ids(\.email.id) }
        #expect(messages.count == 60)
        #expect(Set(messages).count == 60)
    }

    /// The ids of every page, following the cursors from the first page to the last.
    func everyPage(_ page: (SearchCursor?) async throws -> (ids: [String], next: SearchCursor?)) async throws -> [String] {
        var ids: [String] = []
        var cursor: SearchCursor?
        repeat {
            let (more, next) = try await page(cursor)
            ids += more
            cursor = next
        } while cursor != nil
        return ids
    }

    @Test("The index follows every insert, update and delete at once, and the threads' moves")
    func keptInSync() async throws {
        #expect(try await messages("zanzibar").isEmpty)
        try await add(40, attachments: ["zanzibar-map.png"]) { $0.subject = "Trip"; $0.bodyPlain = "Off to Zanzibar" }
        #expect(try await messages("zanzibar") == ["Trip"])
        #expect(try await messages("filename:zanzibar") == ["Trip"])
        let email = try #require(try await search.messages("zanzibar").hits.first?.email)
        try await store.database.writer.write { db in
            try db.execute(sql: "UPDATE email SET bodyPlain = 'Off to Madagascar', subject = 'Trip 2' WHERE id = ?", arguments: [email.id])
        }
        #expect(try await messages("zanzibar").isEmpty)
        #expect(try await messages("madagascar") == ["Trip 2"])
        #expect(try await messages("filename:zanzibar") == ["Trip 2"], "the attachment is still there")
        // An action deletes it for good (Trash → gone), the sync expunges another.
        try await store.emails.deleteThread(id: email.threadId)
        try await store.emails.deleteThread(id: email.threadId)
        #expect(try await messages("madagascar").isEmpty)
        #expect(try await messages("filename:zanzibar").isEmpty)
        let sync = GRDBSyncRepository(database: store.database)
        try await sync.removeLinks(folderId: store.folder(.archive).id, uids: [3], keepingOrphans: false)
        #expect(try await messages("καλημερα").isEmpty)
        // Re-threading keeps the message findable, under its new conversation.
        try await store.database.rethread(emailId: try #require(try await search.messages("привет").hits.first).email.id, to: "T-invoice")
        #expect(try await search.threads("привет").hits.map(\.thread.id) == ["T-invoice"])
        try await expectIndexComplete()
    }

    @Test("Removing an account removes its mail from the index")
    func accountRemoval() async throws {
        try await store.accounts.removeAccount(id: "acct-home")
        #expect(try await messages("lunch").isEmpty)
        try await expectIndexComplete()
    }

    /// Every email has its index rows and no index row is left without its email.
    func expectIndexComplete() async throws {
        let counts = try await store.database.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM email") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM searchDocument d JOIN email e ON e.id = d.emailId") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM emailSearch") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM emailFieldSearch") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM searchDocument") ?? -1)
        }
        #expect(counts.0 == counts.1 && counts.1 == counts.2 && counts.2 == counts.3 && counts.3 == counts.4, "\(counts)")
    }

    @Test("A query the parser cannot read is reported as such, not as a store failure")
    func invalidQuery() async throws {
        await #expect(throws: SearchError.self) { try await search.threads("from:") }
        do {
            _ = try await search.threads("invoice (")
            Issue.record("an open parenthesis should not parse")
        } catch {
            guard case .invalidQuery(let problem) = error else { Issue.record("expected invalidQuery, got \(error)"); return }
            #expect(problem.position == 8)
        }
    }
}

extension SearchPage {
    /// The page's ids and where the next page starts.
    func ids(_ id: (Hit) -> String) -> (ids: [String], next: SearchCursor?) {
        (hits.map(id), nextCursor)
    }
}
