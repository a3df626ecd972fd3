import Foundation
import Logging
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@MainActor
@Suite("Categories from the command line and in the daemon (issue 15)")
struct CategoryCommandTests {
    /// One promotion, one person's reply, one uncategorized-yet mail from the same shop.
    func session() async throws -> (CommandSession, URL) {
        try await CLIFixture.session { accountId in
            var sale = MailFixtures.email(accountId: accountId, number: 1, threadId: "5a1e1", from: "shop@shoes.example", subject: "50% off shoes today only!")
            sale.toAddresses = [Participant(email: "ada@example.com")]
            var reply = MailFixtures.email(accountId: accountId, number: 2, threadId: "1c42", from: "bob@example.org", subject: "Re: lunch")
            reply.inReplyTo = "<lunch@example.org>"
            let later = MailFixtures.email(accountId: accountId, number: 3, threadId: "0e53", from: "shop@shoes.example", subject: "Spring collection")
            return [sale, reply, later]
        }
    }

    @Test("AC-A-04 end to end: categorized after sync, `threads --category`, `why-category`, `categorize THREAD primary` sticks and teaches")
    func commands() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let summary = try #require(try await session.categorizeWaitingMail(embedder: nil))
        #expect(summary.hasPrefix("categorized 3 messages by their headers (no model installed"))
        #expect(try await session.categorizeWaitingMail(embedder: nil) == nil, "nothing waits any more")

        var query = CommandSession.ThreadQuery()
        query.category = .promotions
        query.json = true
        let promotions = try await session.threads(query)
        #expect(promotions.contains("\"id\" : \"5a1e1\""))
        #expect(!promotions.contains("1c42"))

        let saleEmail = try #require(try await session.dependencies.emails.getEmails(threadId: "5a1e1").first)
        let why = try await session.whyCategory(String(saleEmail.id.prefix(10)), json: false)
        #expect(why.contains(": promotions"))
        #expect(why.contains("decided by: its headers"))
        #expect(why.contains("its subject is an offer ('50% off')"))
        let json = try await session.whyCategory(saleEmail.id, json: true)
        #expect(json.contains("\"category\" : \"promotions\""))
        #expect(json.contains("\"source\" : \"header\""))

        let moved = try await session.categorize("5a1e1", as: .primary)
        #expect(moved.contains("is now in primary (1 message); later mail from shop@shoes.example follows"))
        query.category = .primary
        let primary = try await session.threads(query)
        #expect(primary.contains("5a1e1") && primary.contains("1c42") && primary.contains("0e53"), "the shop's other mail followed")
        _ = try await session.categorizeWaitingMail(embedder: nil)
        #expect(try await session.whyCategory(saleEmail.id, json: false).contains("decided by: you (this conversation)"))

        await #expect(throws: CommandError.self) { try await session.categorize("5a1e1", as: .uncategorized) }
    }

    @Test("why-category --json: every key present, null before the email is categorized")
    func jsonBeforeCategorizing() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let email = try #require(try await session.dependencies.emails.getEmails(threadId: "1c42").first)
        let json = try await session.whyCategory(email.id, json: true)
        #expect(json.contains("\"category\" : null") && json.contains("\"source\" : null") && json.contains("\"reason\" : null"))
        #expect(try await session.whyCategory(email.id, json: false).contains("not categorized yet"))
    }

    @Test("The daemon's indexer: a round categorizes what waits and runs the hooks; a burst of requests costs at most two rounds; new mail is categorized before notifying only when a category is muted",
          .timeLimit(.minutes(5)))
    func indexer() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let use = CategorizeEmailsUseCase(repository: session.dependencies.categoryRepository, model: nil)
        let indexer = MailIndexer(categorize: use, logger: Logger(label: "test"))
        let emails = try await session.dependencies.emails.getEmails(threadId: "5a1e1")
        #expect(await indexer.categorizeBeforeNotifying(emails, categoryFilterOn: false).first?.aiCategory == nil)
        let notified = await indexer.categorizeBeforeNotifying(emails, categoryFilterOn: true)
        #expect(notified.first?.aiCategory == AICategory.promotions.rawValue)

        // The first round is held at its hook until the rest of the burst has been asked for, so
        // the burst arrives while a round runs however busy the machine is. (Requests made
        // before a round has begun are served by that round: the burst waits until it has.)
        let rounds = Counter()
        let gate = Gate()
        await indexer.afterEachRound {
            await rounds.add()
            await gate.wait()
        }
        await indexer.scheduleRound()
        while await rounds.value == 0 { await Task.yield() }
        for _ in 0..<4 { await indexer.scheduleRound() }
        await gate.open()
        await indexer.waitUntilIdle()
        let count = await rounds.value
        #expect(count == 2, "5 requests in a burst ran \(count) rounds")
        #expect(await indexer.categorizedCount == 3)
        #expect(try await session.dependencies.categoryRepository.pendingInputs(limit: 10, includingFallback: false).isEmpty)
        await indexer.stop()
        await indexer.scheduleRound()
        #expect(await rounds.value == count, "a stopped indexer runs no more rounds")
    }
}

actor Counter {
    private(set) var value = 0
    func add() { value += 1 }
}

/// Holds whoever waits until it is opened.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
