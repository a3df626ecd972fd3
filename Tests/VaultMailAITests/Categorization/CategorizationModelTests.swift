import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Categories with the real model (all-MiniLM-L6-v2; `make deps` installs it).
@Suite("Categorization: with the model")
struct CategorizationModelTests {
    /// A store with `count` emails that no header rule decides (people writing to someone else,
    /// no list or bulk headers), so the model reads every one.
    static func store(_ subjects: [(String, String)]) async throws -> (AppDatabase, [Email]) {
        let database = try AppDatabase.inMemory()
        let account = MailFixtures.account(name: "work")
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let emails = GRDBEmailRepository(database: database)
        try await emails.saveFolders(folders)
        var stored: [Email] = []
        for (n, (subject, body)) in subjects.enumerated() {
            var email = MailFixtures.email(accountId: account.id, number: n + 1, threadId: "t\(n + 1)", from: "person\(n)@example.org", subject: subject)
            email.toAddresses = [Participant(email: "someone@example.net")]
            email.bodyPlain = body
            stored.append(email)
            try await emails.saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])
        }
        return (database, stored)
    }

    static func model() throws -> ModelCategorizer {
        let library = FixedModelLibrary([AIModelCatalog.embeddingModelId: try AIModelFixture.installedMiniLMDirectory()])
        return ModelCategorizer(embedder: AIModelSession(engine: MiniLMEngine(), library: library, modelId: AIModelCatalog.embeddingModelId))
    }

    @Test("AC-A-04b: 50 uncategorized emails, every one read by the model, are categorized well within 60 s", .timeLimit(.minutes(1)))
    func fiftyWithModel() async throws {
        let kinds = [
            ("Dinner on Friday?", "We are cooking on Friday, would you like to come over around seven?"),
            ("Make money fast from home", "Dear friend, earn thousands a week with this simple system, click here today."),
            ("Notes from the call", "Here is what we agreed and who does what before the deadline next week."),
            ("Cheap watches and bags", "Luxury brands at the lowest prices, free delivery on every order, buy now."),
            ("Photos from the trip", "I finally sorted the pictures from the mountains, here are the best ones."),
        ]
        let (database, emails) = try await Self.store((0..<50).map { kinds[$0 % kinds.count] })
        let repository = GRDBCategoryRepository(database: database)
        let model = try Self.model()
        _ = try await model.scores([])   // load the model first: its load is not categorization
        let started = ContinuousClock.now
        let count = try await CategorizeEmailsUseCase(repository: repository, model: model).categorizePending()
        let elapsed = ContinuousClock.now - started
        print("AC-A-04b: 50 emails categorized by the model in \(elapsed)")
        #expect(count == 50)
        #expect(elapsed < .seconds(60))
        var bySubject: [String: Set<AICategory>] = [:]
        for email in emails {
            let decision = try #require(try await repository.decision(emailId: email.id))
            #expect(decision.source == .model)
            bySubject[email.subject, default: []].insert(decision.category)
        }
        #expect(bySubject["Dinner on Friday?"] == [.primary])
        #expect(bySubject["Make money fast from home"] == [.promotions])
        #expect(bySubject["Cheap watches and bags"] == [.promotions])
        #expect(bySubject["Notes from the call"] == [.primary])
    }

    @Test("AC-A-04 with a model installed: the spec's subject is still promotions (the rules decide before the model), a person's mail primary")
    func specExampleWithModel() async throws {
        let (database, emails) = try await Self.store([
            ("50% off shoes today only!", "The biggest shoe sale of the year."),
            ("Can you meet at 3pm tomorrow?", "I would like to go over the plan with you before Friday."),
        ])
        let repository = GRDBCategoryRepository(database: database)
        #expect(try await CategorizeEmailsUseCase(repository: repository, model: try Self.model()).categorizePending() == 2)
        let sale = try #require(try await repository.decision(emailId: emails[0].id))
        #expect(sale.category == .promotions && sale.source == .header)
        let meeting = try #require(try await repository.decision(emailId: emails[1].id))
        #expect(meeting.category == .primary && meeting.source == .model)
        #expect(meeting.reason.hasPrefix("nearest to the written examples of primary"))
    }
}
