import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

/// The rules that make word search find what notmuch finds (issue 31), each on a few messages
/// written for it; the agreement itself is measured on real mail by `vaultmail-bench
/// search-agree` (docs/search.md).
@Suite("Search agreement with notmuch (issue 31)")
struct SearchAgreementTests {
    let store: StoreFixture
    let search: SearchMailUseCase

    init() async throws {
        store = try await StoreFixture()
        search = SearchMailUseCase(search: GRDBMailSearch(database: store.database))
        let bodies = [
            1: "We should talk about the budget.",
            2: "They were talking about the budget all day.",
            3: "She talked to the accountants; the accounts are fine.",
            4: "The driver reports proc_thermal latency=0.",
            5: "Thanks, it was richly informative.",
        ]
        try await store.add(1...5) { email in
            let number = Int(email.subject.split(separator: " ").last ?? "") ?? 0
            email.bodyPlain = bodies[number]
        }
        try await store.add([6]) { email in
            email.subject = "Minutes"
            email.bodyPlain = "Attached."
            email.toAddresses = [Participant(name: "John Heim", email: "jheim@wisc.example")]
            email.ccAddresses = [Participant(name: "Matt Campbell", email: "mattcampbell@pobox.example")]
        }
    }

    func subjects(_ query: String) async throws -> [String] {
        try await search.messages(query).hits.map(\.email.subject).sorted()
    }

    @Test("A word typed in lower case finds its other forms by their English stem, whichever form is typed")
    func lowerCaseWordsAreStemmed() async throws {
        #expect(try await subjects("talk") == ["Message 1", "Message 2", "Message 3"])
        #expect(try await subjects("talking") == ["Message 1", "Message 2", "Message 3"])
        #expect(try await subjects("account") == ["Message 3"], "accounts → account")
        #expect(try await subjects("rich") == ["Message 5"], "richly")
        #expect(try await subjects("talk budget") == ["Message 1", "Message 2"])
    }

    @Test("A word typed with a capital first, a phrase and a prefix match the words as written")
    func capitalsPhrasesAndPrefixesAreExact() async throws {
        #expect(try await subjects("Talk") == ["Message 1"])
        #expect(try await subjects("TALKING") == ["Message 2"])
        #expect(try await subjects("\"talk about\"") == ["Message 1"])
        #expect(try await subjects("\"talking about\"") == ["Message 2"])
        #expect(try await subjects("talke*") == ["Message 3"])
        #expect(try await subjects("-talk") == ["Message 4", "Message 5", "Minutes"])
    }

    @Test("_ joins the parts of a word, as in notmuch: proc finds proc_thermal only as a whole")
    func underscoreJoinsWords() async throws {
        #expect(try await subjects("proc_thermal") == ["Message 4"])
        #expect(try await subjects("proc").isEmpty)
        #expect(try await subjects("thermal").isEmpty)
        #expect(try await subjects("proc_th*") == ["Message 4"])
    }

    @Test("to: covers To, Cc and Bcc as notmuch's does; a bare name or address word finds any of them")
    func toCoversCarbonCopies() async throws {
        #expect(try await subjects("to:mattcampbell@pobox.example") == ["Minutes"])
        #expect(try await subjects("to:jheim") == ["Minutes"])
        #expect(try await subjects("to:ma") == ["Minutes"], "a short value: a word prefix in To or Cc")
        #expect(try await subjects("cc:jheim").isEmpty, "cc: stays the Cc alone")
        #expect(try await subjects("campbell") == ["Minutes"])
        #expect(try await subjects("pobox") == ["Minutes"])
    }

    @Test("A store indexed before stems is indexed again once (v17-search-stems), with progress, and not at the next start")
    func storeIndexedBeforeStemsIsReindexedOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-stems-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        let first = try AppDatabase.open(path: path)
        let account = MailFixtures.account()
        try await GRDBAccountRepository(database: first).addAccount(account)
        let repository = GRDBEmailRepository(database: first)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await repository.saveFolders(folders)
        var email = MailFixtures.email(accountId: account.id, number: 1)
        email.bodyPlain = "They were talking about proc_thermal."
        try await repository.saveEmails([MailFixtures.incoming(email, in: [folders[0]], uid: 1)])

        // The index as the versions before issue 31 made it: no stems column, `_` between words.
        let pool = try DatabasePool(path: path)
        try await pool.write { db in
            try db.execute(sql: """
                DROP TRIGGER email_search_insert; DROP TRIGGER email_search_update; DROP TRIGGER email_search_delete;
                DROP TABLE emailSearch;
                CREATE VIRTUAL TABLE emailSearch USING fts5(
                    subject, sender, recipients, cc, body, subjectGrams, bodyGrams, folded, tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO emailSearch(rowid, subject, body) SELECT d.docId, e.subject, e.bodyPlain FROM searchDocument d JOIN email e ON e.id = d.emailId;
                DELETE FROM grdb_migrations WHERE identifier = 'v17-search-stems';
                """)
        }
        try pool.close()

        let reports = ProgressLog()
        let reopened = try AppDatabase.open(path: path) { indexed, total in reports.append(indexed, total) }
        #expect(reports.values.map { [$0.0, $0.1] } == [[1, 1]])
        let search = SearchMailUseCase(search: GRDBMailSearch(database: reopened))
        #expect(try await search.messages("talk").hits.map(\.email.id) == [email.id])
        #expect(try await search.messages("proc").hits.isEmpty)

        let again = ProgressLog()
        _ = try AppDatabase.open(path: path) { indexed, total in again.append(indexed, total) }
        #expect(again.values.isEmpty, "indexed once, not at every start")
    }
}
