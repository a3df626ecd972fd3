import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@Suite("Conversation summaries (issue 16, AC-A-06)")
struct SummarizeThreadTests {
    typealias F = WritingFixture
    let clock = FixedClock(MailFixtures.referenceDate.addingTimeInterval(86_400))

    /// Anna asks, Bob answers (quoting her), Anna decides.
    static let thread: [Email] = [
        F.email(1, body: "Hi all,\n\nWe need the Q3 budget before the board meeting on Friday. I hope you all had a nice time at the lake. Who can prepare it for us?\n\nThanks,\nAnna"),
        F.email(2, from: "bob@example.org", name: "Bob Stone",
                body: "I can prepare it by Thursday. The weather here is lovely and sunny.\n\nOn Mon, Anna Berg wrote:\n> We need the Q3 budget before the board meeting on Friday."),
        F.email(3, body: "Great. We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning.\n\nAnna"),
    ]

    func use(_ repository: MockEmailRepository, _ summaries: InMemoryThreadSummaryRepository = InMemoryThreadSummaryRepository(),
             generator: (any TextGenerator)? = nil, embedder: (any TextEmbedder)? = nil) -> SummarizeThreadUseCase {
        SummarizeThreadUseCase(emails: repository, summaries: summaries, generator: generator, embedder: embedder, clock: clock)
    }

    @Test("AC-A-06: the model's summary, checked against the conversation, with who owns what")
    func modelSummary() async throws {
        let writer = ScriptedTextGenerator(rules: [.init(match: SummaryPrompt.instruction, answer: """
            In this conversation, Anna asked for the Q3 budget before the board meeting on Friday. \
            Bob will prepare the budget by Thursday. Ada will review it on Friday morning.
            """)])
        let summaries = InMemoryThreadSummaryRepository()
        let summary = try await use(try await F.repository(Self.thread), summaries, generator: writer).summarize(threadId: "t1")
        #expect(summary.kind == .model)
        #expect(summary.modelId == "scripted-writer")
        #expect(summary.text == "Anna asked for the Q3 budget before the board meeting on Friday. Bob will prepare the budget by Thursday. Ada will review it on Friday morning.")
        #expect(summary.messageCount == 3 && summary.latestEmailId == Self.thread[2].id)
        #expect(summary.createdAt == clock.now)
        #expect(summaries.saveCount == 1)
        let request = try #require(writer.requests.first)
        #expect(request.key == "summary:t1" && request.maxTokens == SummaryPrompt.maxTokens)
        let prompt = try #require(request.turns.last?.text)
        #expect(prompt.contains("Bob Stone (Thu 15 Jan 12:02):\nI can prepare it by Thursday."))
        #expect(prompt.components(separatedBy: "We need the Q3 budget").count == 2, "Bob's quote of Anna is not repeated")
    }

    @Test("An invented fact is dropped; with fewer than two sentences left the summary is the extractive one, labelled so")
    func inventedFacts() async throws {
        let writer = ScriptedTextGenerator(fallback: "Anna and Bob will meet at the Hilton on Monday at 9am. Bob will prepare the budget.")
        let summary = try await use(try await F.repository(Self.thread), generator: writer).summarize(threadId: "t1")
        #expect(summary.kind == .extractiveFallback, "the model wrote, its text failed the checks: labelled so")
        #expect(summary.modelId == nil)
        #expect(!summary.text.contains("Hilton"))
        #expect(summary.text.contains("Anna: We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning."))
    }

    @Test("Cached while current: a revisit asks no model; new mail makes it stale; refresh makes it again")
    func freshness() async throws {
        let writer = ScriptedTextGenerator(fallback: "Bob will prepare the budget by Thursday. Ada will review it on Friday.")
        let repository = try await F.repository(Self.thread)
        let summaries = InMemoryThreadSummaryRepository()
        let use = use(repository, summaries, generator: writer)
        #expect(try await use.cached(threadId: "t1") == nil)
        let first = try await use.summarize(threadId: "t1")
        #expect(try await use.cached(threadId: "t1") == first)
        #expect(try await use.summarize(threadId: "t1") == first)
        #expect(writer.requests.count == 1, "a current summary is never made again")

        let folders = MailFixtures.standardFolders(accountId: F.account.id)
        try await repository.saveEmails([MailFixtures.incoming(F.email(4, from: "bob@example.org", name: "Bob Stone", body: "Done, the budget is in the shared folder."),
                                                               in: [folders.of(.inbox)])])
        #expect(try await use.cached(threadId: "t1") == nil, "new mail makes it stale")
        #expect(try await use.stored(threadId: "t1") == first, "and the stale one is still there to show, with Refresh")
        #expect(try await use.stored(threadId: "t9") == nil)
        let second = try await use.summarize(threadId: "t1")
        #expect(second.messageCount == 4 && second.latestEmailId == F.email(4, body: nil).id)
        #expect(writer.requests.count == 2)
        _ = try await use.summarize(threadId: "t1", refresh: true)
        #expect(writer.requests.count == 3)
        #expect(summaries.saveCount == 3)
    }

    @Test("Key sentences made for want of a writing model are written again once one is installed; a fallback is kept")
    func extractiveUntilModel() async throws {
        let repository = try await F.repository(Self.thread)
        let summaries = InMemoryThreadSummaryRepository()
        let writer = ScriptedTextGenerator(fallback: "Bob will prepare the budget by Thursday. Ada will review it on Friday.", installed: false)
        let use = use(repository, summaries, generator: writer)
        #expect(try await use.summarize(threadId: "t1").kind == .extractive)
        #expect(try await use.cached(threadId: "t1") != nil, "current while no model is installed")
        writer.setInstalled(true)
        #expect(try await use.cached(threadId: "t1") == nil, "a model is there now: stale")
        #expect(try await use.summarize(threadId: "t1").kind == .model)

        let inventing = ScriptedTextGenerator(fallback: "Anna will fly to Paris on Monday.")
        let again = self.use(try await F.repository(Self.thread), InMemoryThreadSummaryRepository(), generator: inventing)
        #expect(try await again.summarize(threadId: "t1").kind == .extractiveFallback)
        #expect(try await again.cached(threadId: "t1") != nil, "the model failed the checks: not asked again on every visit")
        _ = try await again.summarize(threadId: "t1")
        #expect(inventing.requests.count == 1)
    }

    @Test("Extractive without vectors: the decision and the action items, by sender, in conversation order; no greeting or sign-off")
    func extractiveByPosition() async throws {
        let summary = try await use(try await F.repository(Self.thread)).summarize(threadId: "t1")
        #expect(summary.kind == .extractive && summary.modelId == nil)
        let lines = summary.text.split(separator: "\n").map(String.init)
        #expect(lines == [
            "Anna: We need the Q3 budget before the board meeting on Friday.",
            "Bob: I can prepare it by Thursday.",
            "Anna: We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning.",
        ])
    }

    @Test("Extractive with vectors: the sentences nearest the conversation's centre win over the first ones")
    func extractiveByVectors() async throws {
        let body = """
            Quick note before the weekend about parking.
            The kitchen is closed today for cleaning.
            The launch moves to the new plan with the team.
            The launch team approved the new plan today.
            The plan for the launch is now final.
            """
        let sentences = MessageText.sentences(body)
        let vectors: [[Float]] = [[0, 1, 0], [0, 0, 1], [1, 0, 0], [0.8, 0.6, 0], [0.8, 0, 0.6]]
        let embedder = FixedTextEmbedder(modelId: "mini", vectors: Dictionary(uniqueKeysWithValues: zip(sentences, vectors)))
        let summary = try await use(try await F.repository([F.email(1, body: body)]), embedder: embedder).summarize(threadId: "t1")
        #expect(summary.kind == .extractive)
        #expect(summary.modelId == "mini")
        #expect(summary.text.split(separator: "\n").count == 2)
        #expect(!summary.text.contains("parking") && !summary.text.contains("kitchen"))
        #expect(summary.text.contains("Anna: The launch team approved the new plan today."))
    }

    @Test("Bad input gets a clear result: no text at all, an unknown conversation, a model not installed")
    func badInput() async throws {
        let empty = [F.email(1, body: nil), F.email(2, from: "bob@example.org", name: "Bob Stone", body: "  ", html: "<img src=x>")]
        let summary = try await use(try await F.repository(empty)).summarize(threadId: "t1")
        #expect(summary.text == "2 messages from Anna and Bob, with no text to summarize.")
        await #expect(throws: WritingError.threadNotFound("zz")) { try await use(try await F.repository([])).summarize(threadId: "zz") }

        let absent = ScriptedTextGenerator(installed: false)
        let extractive = try await use(try await F.repository(Self.thread), generator: absent).summarize(threadId: "t1")
        #expect(extractive.kind == .extractive && absent.requests.isEmpty)
    }

    @Test("A long conversation keeps the newest messages within the prompt's budget")
    func longConversation() {
        let messages = (0..<30).map { index in
            SummaryPrompt.Message(sender: "Person \(index)", date: MailFixtures.referenceDate.addingTimeInterval(Double(index) * 3600),
                                  text: String(repeating: "word\(index) ", count: 100))
        }
        let text = SummaryPrompt.conversation(messages, timeZone: TimeZone(identifier: "UTC")!)
        #expect(text.count <= SummaryPrompt.conversationBudget + 100)
        #expect(text.contains("Person 29 ("))
        #expect(!text.contains("Person 0 ("))
        #expect(text.hasPrefix("("), "says how many earlier messages were left out")
    }
}
