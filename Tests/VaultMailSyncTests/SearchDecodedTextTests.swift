import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailStore
import VaultMailTesting

/// What search reads of a message is its decoded text (issue 31): a message parsed as the sync
/// parses it, stored, then searched. Each message is written for one rule.
@Suite("Search reads decoded text (issue 31)")
struct SearchDecodedTextTests {
    /// Stores each raw message as the sync would (parsed by GMime) and returns the search.
    static func searchOver(_ messages: [String]) async throws -> SearchMailUseCase {
        let database = try AppDatabase.inMemory()
        let account = MailFixtures.account()
        try await GRDBAccountRepository(database: database).addAccount(account)
        let repository = GRDBEmailRepository(database: database)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await repository.saveFolders(folders)
        let parser = GMimeMessageParser()
        for (index, raw) in messages.enumerated() {
            let parsed = parser.parse(Array(raw.utf8))
            var email = MailFixtures.email(accountId: account.id, number: index + 1)
            email.subject = parsed.subject
            email.bodyPlain = parsed.textPlain
            email.bodyHTML = parsed.textHTML
            try await repository.saveEmails([MailFixtures.incoming(email, in: [folders[0]], uid: UInt32(index + 1))])
        }
        return SearchMailUseCase(search: GRDBMailSearch(database: database))
    }

    static func subjects(_ search: SearchMailUseCase, _ query: String) async throws -> [String] {
        try await search.messages(query).hits.map(\.email.subject).sorted()
    }

    @Test("A word split by a quoted-printable soft line break is found whole; =E9 is é")
    func quotedPrintableSoftBreaks() async throws {
        let search = try await Self.searchOver(["""
            Subject: soft break
            Content-Type: text/plain; charset=iso-8859-1
            Content-Transfer-Encoding: quoted-printable

            The configu=
            ration of the caf=E9 printer.

            """])
        #expect(try await Self.subjects(search, "configuration") == ["soft break"])
        #expect(try await Self.subjects(search, "configu").isEmpty)
        #expect(try await Self.subjects(search, "café") == ["soft break"])
    }

    @Test("Base64 text in another charset is found by its words; an HTML-only message by its text, not its markup")
    func base64CharsetsAndHTMLOnly() async throws {
        let body = Data("Grüße aus München: the meeting moved.".data(using: .isoLatin1)!).base64EncodedString()
        let search = try await Self.searchOver(["""
            Subject: latin base64
            Content-Type: text/plain; charset=iso-8859-1
            Content-Transfer-Encoding: base64

            \(body)

            """, """
            Subject: html only
            Content-Type: text/html; charset=utf-8

            <html><head><style>.agenda { color: red }</style></head><body><p>The <b>agenda</b> for Tues<i>day</i>.</p></body></html>

            """])
        #expect(try await Self.subjects(search, "münchen") == ["latin base64"])
        #expect(try await Self.subjects(search, "meeting") == ["latin base64"])
        #expect(try await Self.subjects(search, "agenda") == ["html only"])
        #expect(try await Self.subjects(search, "tuesday") == ["html only"])
        #expect(try await Self.subjects(search, "color").isEmpty, "style sheets are not text")
    }
}
