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

    /// A rephrasing of the thread's key sentences that passes the checks.
    static let rephrased = "Anna needs the Q3 budget before the board meeting on Friday. Bob can prepare it by Thursday. "
        + "Anna agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning."

    func use(_ repository: MockEmailRepository, _ summaries: InMemoryThreadSummaryRepository = InMemoryThreadSummaryRepository(),
             generator: (any TextGenerator)? = nil, embedder: (any TextEmbedder)? = nil) -> SummarizeThreadUseCase {
        SummarizeThreadUseCase(emails: repository, summaries: summaries, generator: generator, embedder: embedder, clock: clock)
    }

    @Test("AC-A-06: the model rephrases the key sentences only; kept when it names everyone and keeps each line's content")
    func modelSummary() async throws {
        let writer = ScriptedTextGenerator(rules: [.init(match: SummaryPrompt.instruction, answer: """
            Anna said they need the Q3 budget before the board meeting on Friday. Bob can prepare it by Thursday. \
            Anna then agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning.
            """)])
        let summaries = InMemoryThreadSummaryRepository()
        let summary = try await use(try await F.repository(Self.thread), summaries, generator: writer).summarize(threadId: "t1")
        #expect(summary.kind == .model)
        #expect(summary.modelId == "scripted-writer")
        #expect(summary.text.hasPrefix("Anna said they need the Q3 budget"))
        #expect(summary.messageCount == 3 && summary.latestEmailId == Self.thread[2].id)
        #expect(summary.createdAt == clock.now)
        #expect(summaries.saveCount == 1)
        let request = try #require(writer.requests.first)
        #expect(request.key == "summary:t1" && request.maxTokens == SummaryPrompt.maxTokens)
        let prompt = try #require(request.turns.last?.text)
        #expect(prompt.contains("Bob: I can prepare it by Thursday."), "the key sentences, with their senders")
        #expect(!prompt.contains("weather") && !prompt.contains("lake"), "the model never reads what the key sentences left out")
    }

    @Test("Issue 35: a model summary worse than the key sentences is not used — an invented fact, a person left out, a line's content lost")
    func worseThanExtractive() async throws {
        let cases = [
            "Anna and Bob will meet at the Hilton on Monday at 9am. Bob will prepare the budget.",
            "Someone needs the Q3 budget before the board meeting on Friday. It will be prepared by Thursday and reviewed on Friday morning.",
            "Anna talked about the budget. Bob said something about Thursday.",
        ]
        for answer in cases {
            let writer = ScriptedTextGenerator(fallback: answer)
            let summary = try await use(try await F.repository(Self.thread), generator: writer).summarize(threadId: "t1")
            #expect(summary.kind == .extractiveFallback, "labelled: the model wrote, its text failed the checks")
            #expect(summary.modelId == nil)
            #expect(!summary.text.contains("Hilton"))
            #expect(summary.text.contains("Anna: We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning."))
        }
        let lines = ["Anna: We need the Q3 budget before the board meeting on Friday.", "Bob: I can prepare it by Thursday."]
        let sources = Self.thread.map { $0.bodyPlain ?? "" } + ["Anna Berg", "Bob Stone"]
        #expect(ConversationSummarizer.check("Anna needs the budget on Friday. It is ready by Thursday.", lines: lines, sources: sources)
                == .failure(.init(description: "it does not name Bob")))
        #expect(ConversationSummarizer.check("Anna needs the Q3 budget before the board meeting on Friday.", lines: lines, sources: sources)
                == .failure(.init(description: "1 usable sentence (2–4 needed)")))
        #expect(ConversationSummarizer.check("Anna needs the budget before the board meets. Bob can prepare the budget.", lines: lines,
                                             sources: sources) == .failure(.init(description: "it leaves out \"Bob: I can prepare it by Thursday.\"")))
    }

    @Test("Cached while current: a revisit asks no model; new mail makes it stale; refresh makes it again")
    func freshness() async throws {
        let writer = ScriptedTextGenerator(fallback: Self.rephrased)
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
        let writer = ScriptedTextGenerator(fallback: Self.rephrased, installed: false)
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

    @Test("Issue 35: a long conversation costs the model what a short one does: it reads 2–4 key sentences, never the messages")
    func longConversation() async throws {
        let emails = (1...20).map { index in
            F.email(index, from: "p\(index)@example.org", name: "Person\(index) Test",
                    body: "Item \(index) of the plan needs a decision from the team by the end of the week. " + String(repeating: "More detail here. ", count: 40))
        }
        let writer = ScriptedTextGenerator(fallback: "Nothing useful.")
        let summary = try await use(try await F.repository(emails), generator: writer).summarize(threadId: "t1")
        let prompt = try #require(writer.requests.first?.turns.last?.text)
        #expect(prompt.count < 1_500, "\(prompt.count) characters")
        #expect((2...4).contains(summary.text.split(separator: "\n").count))
        #expect(summary.kind == .extractiveFallback)
    }

    @Test("Issue 35: the key sentences spread over the people who wrote: who asked and who answered")
    func namesPeople() async throws {
        let emails = [
            F.email(1, body: "Can we move the release review to Thursday afternoon? The current slot clashes with the audit."),
            F.email(2, from: "bob@example.org", name: "Bob Stone",
                    body: "Thursday works for me. I will update the calendar invite. I will also tell the auditors. I will book the room."),
            F.email(3, from: "cleo@example.org", name: "Cleo Park", body: "Fine with me, I will bring the release notes."),
        ]
        let summary = try await use(try await F.repository(emails)).summarize(threadId: "t1")
        let senders = Set(summary.text.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(senders == ["Anna", "Bob", "Cleo"], "\(summary.text)")
    }
}
