import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Categories in the store (AC-A-04, AC-A-04b): decisions stored on the email, the thread's
/// category following, the Promotions tab, the user's corrections that stick and teach.
@Suite("Categorization: use cases over the store")
struct CategorizationStoreTests {
    let store: StoreFixture
    let categories: GRDBCategoryRepository

    init() async throws {
        store = try await StoreFixture()
        categories = GRDBCategoryRepository(database: store.database)
    }

    /// Stores one email with a raw source made of `headers`.
    @discardableResult
    func add(_ number: Int, from: String = "friend@example.org", subject: String, thread: String? = nil,
             to: String = "work@example.com", headers: [String] = [], body: String = "Hello") async throws -> Email {
        var email = MailFixtures.email(accountId: "acct-work", number: number, threadId: thread, from: from, subject: subject)
        email.toAddresses = [Participant(email: to)]
        email.bodyPlain = body
        let raw = (["From: \(from)", "To: \(to)", "Subject: \(subject)"] + headers + ["", body]).joined(separator: "\r\n")
        var incoming = MailFixtures.incoming(email, in: [store.folder(.inbox)], uid: UInt32(number))
        incoming.rawSource = Array(raw.utf8)
        try await store.emails.saveEmails([incoming])
        return email
    }

    func categorize(model: ModelCategorizer? = nil) async throws -> Int {
        try await CategorizeEmailsUseCase(repository: categories, model: model, batchSize: 16).categorizePending()
    }

    @Test("AC-A-04: '50% off shoes today only!' is promotions, stored on the email; the thread and the Promotions tab follow; re-categorized to primary it stays primary")
    func specExample() async throws {
        let email = try await add(1, from: "shop@shoes.example", subject: "50% off shoes today only!")
        #expect(try await categorize() == 1)

        let stored = try #require(try await store.emails.getEmail(id: email.id))
        #expect(stored.category == .promotions)
        #expect(try await categories.decision(emailId: email.id)?.source == .header)
        #expect(try await store.emails.getThread(id: email.threadId)?.category == .promotions)
        let fetch = FetchThreadsUseCase(repository: store.emails)
        let inbox = store.folder(.inbox)
        let promotions = try await fetch.fetchThreads(accountId: "acct-work", folderId: inbox.id, category: .promotions)
        #expect(promotions.threads.map(\.id) == [email.threadId])
        #expect(try await fetch.fetchThreads(accountId: "acct-work", folderId: inbox.id, category: .primary).threads.isEmpty)
        #expect(try await store.emails.getUnreadCounts(folderId: inbox.id)[.promotions] == 1)

        let outcome = try await RecategorizeThreadUseCase(repository: categories).recategorize(threadId: email.threadId, to: .primary)
        #expect(outcome.threadEmails == 1)
        #expect(outcome.sendersTaught == ["shop@shoes.example"])
        #expect(try await store.emails.getEmail(id: email.id)?.category == .primary)
        #expect(try await categories.decision(emailId: email.id)?.source == .user)
        #expect(try await fetch.fetchThreads(accountId: "acct-work", folderId: inbox.id, category: .primary).threads.map(\.id) == [email.threadId])

        // Another run, and a run asked for this very email: the user's choice stays.
        _ = try await categorize()
        let use = CategorizeEmailsUseCase(repository: categories, model: nil)
        _ = try await use.categorize(emailIds: [email.id])
        try await categories.apply([email.id: CategoryDecision(category: .promotions, source: .header, reason: "machine")])
        #expect(try await store.emails.getEmail(id: email.id)?.category == .primary)
        #expect(try await store.emails.getThread(id: email.threadId)?.category == .primary)
    }

    @Test("The Categories service both doors use (issue 28): a message's category and who decided it; the correction, refused for 'uncategorized' and an unknown conversation")
    func categoriesService() async throws {
        let email = try await add(1, from: "shop@shoes.example", subject: "50% off shoes today only!")
        _ = try await categorize()
        let service = Categories(repository: categories)
        #expect(try await service.decision(emailId: email.id)?.category == .promotions)
        #expect(try await service.recategorize(threadId: email.threadId, to: .primary).threadEmails == 1)
        let decision = try #require(try await service.decision(emailId: email.id))
        #expect(decision.category == .primary && decision.source == .user)
        await #expect(throws: RecategorizeThreadUseCase.Failure.notACategory("uncategorized")) {
            try await service.recategorize(threadId: email.threadId, to: .uncategorized)
        }
        await #expect(throws: RecategorizeThreadUseCase.Failure.noSuchThread("no-such-thread")) {
            try await service.recategorize(threadId: "no-such-thread", to: .primary)
        }
    }

    @Test("A correction teaches: the sender's other machine-decided mail follows at once, later mail is decided by the sender (.sender), the user's own address is not taught")
    func senderTeaching() async throws {
        let first = try await add(1, from: "news@store.example", subject: "Flash sale: 30% off")
        let second = try await add(2, from: "news@store.example", subject: "Black Friday deals")
        let other = try await add(3, from: "deals@elsewhere.example", subject: "Huge savings today only")
        try await add(4, from: "work@example.com", subject: "Re: Flash sale: 30% off", thread: first.threadId)
        _ = try await categorize()
        #expect(try await store.emails.getEmail(id: second.id)?.category == .promotions)

        let outcome = try await RecategorizeThreadUseCase(repository: categories).recategorize(threadId: first.threadId, to: .primary)
        #expect(outcome.sendersTaught == ["news@store.example"])
        #expect(outcome.otherEmailsMoved == 1)
        #expect(try await categories.decision(emailId: second.id) ==
                CategoryDecision(category: .primary, source: .sender, reason: "you put mail from news@store.example in primary"))
        #expect(try await store.emails.getThread(id: second.threadId)?.category == .primary)
        #expect(try await store.emails.getEmail(id: other.id)?.category == .promotions)
        #expect(try await categories.senderCategories(accountId: "acct-work", addresses: ["work@example.com"]).isEmpty)

        let later = try await add(5, from: "News@Store.example", subject: "Cyber Monday: 50% off")
        let reply = try await add(6, from: "friend@example.org", subject: "Re: Flash sale", thread: first.threadId)
        _ = try await categorize()
        #expect(try await categories.decision(emailId: later.id)?.source == .sender)
        #expect(try await store.emails.getEmail(id: later.id)?.category == .primary)
        #expect(try await categories.decision(emailId: reply.id)?.source == .user, "new mail in a corrected conversation follows it")
    }

    @Test("A correction of list mail teaches the list, not each poster: the list's later mail follows, the posters' own mail does not")
    func listTeaching() async throws {
        let list = ["List-Id: Developers <dev.lists.example.org>", "List-Post: <mailto:dev@lists.example.org>"]
        let first = try await add(1, from: "ann@example.org", subject: "[dev] build broken", headers: list)
        try await add(2, from: "bob@example.org", subject: "Re: [dev] build broken", thread: first.threadId, headers: list)
        let direct = try await add(3, from: "bob@example.org", subject: "Lunch?", to: "someone@example.net")
        _ = try await categorize()
        #expect(try await store.emails.getThread(id: first.threadId)?.category == .forums)

        let outcome = try await RecategorizeThreadUseCase(repository: categories).recategorize(threadId: first.threadId, to: .primary)
        #expect(outcome.sendersTaught.isEmpty)
        #expect(outcome.listsTaught == ["dev.lists.example.org"])
        #expect(try await categories.decision(emailId: direct.id)?.source == .fallback, "bob's own mail is not taught")

        let later = try await add(4, from: "carol@example.org", subject: "[dev] release plan", headers: list)
        _ = try await categorize()
        #expect(try await categories.decision(emailId: later.id) ==
                CategoryDecision(category: .primary, source: .sender, reason: "you put mail from the mailing list <dev.lists.example.org> in primary"))
    }

    @Test("Without a model: the fallback (the lean, else primary) says how to get a model; once a model is installed those emails are read again")
    func fallbackThenModel() async throws {
        // Sent to someone else, so the rules only lean primary.
        let person = try await add(1, from: "friend@example.org", subject: "offer photos", to: "someone@example.net")
        let embedder = SwitchableEmbedder()
        let model = ModelCategorizer(embedder: embedder, examples: [
            .primary: ["lunch friends"], .social: ["photos tagged friend"], .promotions: ["sale offer"],
            .updates: ["receipt order"], .forums: ["patch list"],
        ], neighbours: 1)
        #expect(try await categorize(model: model) == 1)
        let fallback = try #require(try await categories.decision(emailId: person.id))
        #expect(fallback.source == .fallback)
        #expect(fallback.category == .primary)
        #expect(fallback.reason.contains("Download a model to enable categories"))
        #expect(try await categorize(model: model) == 0, "without a model the fallback is not read again")

        await embedder.install()
        #expect(try await categorize(model: model) == 1)
        let decided = try #require(try await categories.decision(emailId: person.id))
        #expect(decided.source == .model)
        #expect(decided.category == .promotions, "'offer' is nearest to the promotions example; social is not open to a person's mail")
        #expect(decided.reason.contains("nearest to the written examples of promotions"))
        #expect(try await categorize(model: model) == 0)
    }

    @Test("AC-A-04b: 50 uncategorized emails are all categorized well within 60 s, in batches, newest first")
    func fiftyEmails() async throws {
        let subjects = ["Your order has shipped", "Lunch on Friday?", "[dev] Re: build broken", "40% off everything", "New follower"]
        for number in 1...50 {
            try await add(number, from: number % 5 == 4 ? "notification@facebookmail.com" : "sender\(number % 5)@example.org",
                          subject: subjects[number % 5],
                          headers: number % 5 == 2 ? ["List-Id: <dev.lists.example.org>", "List-Post: <mailto:dev@lists.example.org>"] : [])
        }
        let pendingFirst = try await categories.pendingInputs(limit: 3, includingFallback: false)
        #expect(pendingFirst.map(\.subject) == [subjects[0], subjects[4], subjects[3]], "newest first")
        let started = ContinuousClock.now
        #expect(try await categorize() == 50)
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(60))
        #expect(try await categories.pendingInputs(limit: 100, includingFallback: false).isEmpty)
        print("AC-A-04b: 50 emails categorized by the header rules in \(elapsed)")
    }

    @Test("AC-A-04b: results appear progressively: each batch is its own commit, which the change feed reports to the thread list",
          .timeLimit(.minutes(5)))
    func progressive() async throws {
        for number in 1...40 { try await add(number, from: "news@store.example", subject: "Weekly deals \(number)") }
        var changes = GRDBMailChangeFeed(database: store.database).changes().makeAsyncIterator()
        let use = CategorizeEmailsUseCase(repository: categories, model: nil, batchSize: 16)
        #expect(try await use.categorizePending(maxBatches: 1) == 16)
        #expect(await changes.next() != nil, "the first batch was reported before the rest were read")
        #expect(try await categories.pendingInputs(limit: 100, includingFallback: false).count == 24)
        let inbox = try await store.emails.getThreads(folderId: store.folder(.inbox).id, category: .promotions, cursor: nil, limit: 50)
        #expect(inbox.threads.count == 16, "the newest 16 conversations are already in their tab")
        #expect(try await use.categorizePending() == 24)
    }

    @Test("The store reads header fields from the raw source and the opening of the body")
    func inputsFromStore() async throws {
        let email = try await add(1, from: "dev@example.org", subject: "[dev] hello",
                                  headers: ["List-Id: Dev list", " <dev.lists.example.org>", "Precedence: list"], body: "First line\n\nsecond")
        let input = try #require(try await categories.inputs(emailIds: [email.id]).first)
        #expect(input.headers["list-id"] == "Dev list <dev.lists.example.org>")
        #expect(input.headers["precedence"] == "list")
        #expect(input.openingText == "First line second")
        #expect(input.ownAddresses == ["work@example.com"])
        #expect(input.currentSource == nil)
    }
}

/// An embedder whose model can be installed during a test: bag-of-words vectors over a
/// small hashed vocabulary, so texts sharing words are near.
actor SwitchableEmbedder: TextEmbedder {
    nonisolated let modelId = "test-bag-of-words"
    nonisolated let dimensions = 64
    private var installed = false

    func install() { installed = true }
    func isAvailable() async -> Bool { installed }

    func embed(_ texts: [String]) async throws -> [[Float]] {
        guard installed else { throw AIError.modelNotInstalled(modelId: modelId, feature: "categories") }
        return texts.map { text in
            var vector = [Float](repeating: 0, count: dimensions)
            for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
                var hash: UInt32 = 2166136261
                for byte in word.utf8 { hash = (hash ^ UInt32(byte)) &* 16777619 }
                vector[Int(hash % UInt32(dimensions))] += 1
            }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : vector
        }
    }
}
