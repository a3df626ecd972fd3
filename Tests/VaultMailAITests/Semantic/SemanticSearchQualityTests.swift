import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Search by meaning with the real all-MiniLM-L6-v2 (AC-A-07): a fixed corpus of everyday
/// mail, queries that share no word with the message they must find, and operators that
/// still narrow exactly.
@Suite("Search by meaning, real model (issue 15)", .serialized, .timeLimit(.minutes(2)))
struct SemanticSearchQualityTests {
    /// (sender, subject, body) of the corpus; the subjects are what the expectations name.
    static let corpus: [(String, String, String)] = [
        ("alice@example.com", "Quarterly budget review", "Let's go through the Q3 spending figures and next year's forecast on Thursday."),
        ("bob@example.com", "Lunch on Friday?", "There's a new ramen place near the office, want to try it?"),
        ("travel@airline.example", "Your boarding pass for AF1234", "Gate 32, boarding at 07:15. Paris CDG to New York JFK."),
        ("clinic@dental.example", "Reminder: check-up on Monday", "Your dental appointment with Dr. Lee is at 9:30."),
        ("carol@example.com", "Photos from the wedding", "Here are the pictures from Saturday, the cake was amazing."),
        ("it@example.com", "Password expires in 3 days", "Change your password before it expires to keep access to your account."),
        ("dave@example.com", "Bug in the login page", "The sign-in form crashes when the email field is empty; stack trace attached."),
        ("landlord@example.com", "Rent increase from January", "The monthly rent will go up by 50 euros starting next year."),
        ("eve@example.com", "Book club: next title", "We're reading a mystery novel for the next meeting."),
        ("shop@store.example", "Your order has shipped", "Your parcel is on its way and should arrive on Wednesday."),
        ("frank@example.com", "Football tonight", "Are you coming to watch the match at the pub?"),
        ("hr@example.com", "Holiday request approved", "Your vacation from 3 to 14 August has been approved."),
    ]

    struct World {
        let store: AppDatabase
        let semantic: SemanticSearchUseCase
        let embedded: Int
    }

    /// One world for the suite: the model reads the corpus once.
    static let shared = Task { try await world() }

    static func world() async throws -> World {
        let database = try AppDatabase.inMemory()
        let account = MailFixtures.account(name: "work")
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let emails = GRDBEmailRepository(database: database)
        try await emails.saveFolders(folders)
        try await emails.saveEmails(corpus.enumerated().map { n, mail in
            var email = MailFixtures.email(accountId: account.id, number: n + 1, threadId: "t\(n + 1)", from: mail.0, subject: mail.1)
            email.bodyPlain = mail.2
            return MailFixtures.incoming(email, in: [folders.of(.inbox)])
        })
        let library = FixedModelLibrary([AIModelCatalog.embeddingModelId: try AIModelFixture.installedMiniLMDirectory()])
        let embedder = AIModelSession(engine: MiniLMEngine(), library: library, modelId: AIModelCatalog.embeddingModelId)
        let index = GRDBSemanticIndex(database: database)
        let embedded = try await EmbedEmailsUseCase(index: index, embedder: embedder).run()
        let semantic = SemanticSearchUseCase(search: GRDBMailSearch(database: database), index: index, embedder: embedder)
        return World(store: database, semantic: semantic, embedded: embedded)
    }

    @Test("every email is read once, then nothing is pending", .timeLimit(.minutes(2)))
    func indexing() async throws {
        let world = try await Self.shared.value
        #expect(world.embedded == Self.corpus.count)
        let coverage = try await GRDBSemanticIndex(database: world.store).coverage(modelId: AIModelCatalog.embeddingModelId)
        #expect(coverage.embedded == Self.corpus.count && coverage.pending == 0)
    }

    @Test("AC-A-07 and its kin: a query finds the message that means it, sharing no word with it",
          arguments: [
              ("financial planning meeting", "Quarterly budget review"),
              ("flight ticket", "Your boarding pass for AF1234"),
              ("doctor visit", "Reminder: check-up on Monday"),
              ("wedding pictures", "Photos from the wedding"),
              ("software defect report", "Bug in the login page"),
              ("delivery status of my purchase", "Your order has shipped"),
          ])
    func meaning(query: String, expected: String) async throws {
        let world = try await Self.shared.value
        let page = try await world.semantic.threads(query)
        let subjects = page.hits.map(\.thread.subject)
        #expect(subjects.first == expected, "\(query) → \(subjects)")
    }

    @Test("operators narrow results by meaning exactly: from: keeps only that sender's mail, is:starred none")
    func operators() async throws {
        let world = try await Self.shared.value
        let other = try await world.semantic.threads("financial planning meeting from:bob")
        #expect(other.hits.allSatisfy { $0.thread.subject == "Lunch on Friday?" })
        let none = try await world.semantic.threads("financial planning meeting is:starred")
        #expect(none.hits.isEmpty)
        let exact = try await world.semantic.threads("financial planning meeting from:alice")
        #expect(exact.hits.map(\.thread.subject) == ["Quarterly budget review"])
    }

    @Test("a query no message is about finds nothing rather than noise")
    func nothing() async throws {
        let world = try await Self.shared.value
        #expect(try await world.semantic.threads("car insurance renewal").hits.isEmpty)
    }

    @Test("a word the message says still ranks it first (the word search is fused in)")
    func words() async throws {
        let world = try await Self.shared.value
        let page = try await world.semantic.threads("ramen")
        #expect(page.hits.first?.thread.subject == "Lunch on Friday?")
    }
}
