import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Smart replies (AC-A-05) and summaries (AC-A-06) with the real SmolLM2-135M-Instruct over
/// the evaluation set (`Tests/Fixtures/generation-eval/`, docs/ai-evaluation.md): every
/// conversation goes through `SmartReplyUseCase` and `SummarizeThreadUseCase` as the app runs
/// them, and what comes out is scored on facts — intents, language, names, dates, the
/// decision — never on wording. The table is printed; each figure fails the test when it falls
/// below the floor measured when the test was written, less a margin
/// (`GenerationEvaluationTests.Floors`).
@Suite("Smart replies and summaries: evaluation set, real model (issue 16)", .serialized, .timeLimit(.minutes(20)))
struct GenerationEvaluationTests {
    /// The lowest figure each score may show (%); the measured one is in docs/ai.md.
    enum Floors {
        /// Asking conversations with an accepting and a declining / other-time suggestion.
        static let replyIntents = 90.0
        /// Asking conversations whose suggestions' words accept and decline / propose another time.
        static let replyIntentsSaid = 15.0
        /// Non-asking conversations answered without an accepting or declining suggestion.
        static let replyQuietNonAsking = 60.0
        /// Suggestions whose words do what their intent says.
        static let replyExpressed = 60.0
        /// Suggestions that do not repeat the message 7 words in a row.
        static let replyNoEcho = 75.0
        /// Suggestions in the conversation's language (as the set's own check reads them).
        static let replyLanguage = 90.0
        /// Suggestions that bring in no fact the conversation lacks: the guard promises all.
        static let replyGrounded = 100.0
        /// Conversations whose language the use case detected right.
        static let replyDetectedLanguage = 90.0
        /// mustMention groups met by the model's summaries.
        static let summaryMentions = 75.0
        /// Model summaries of 2–4 sentences.
        static let summarySentences = 85.0
        /// Model summaries that bring in no fact the conversation lacks.
        static let summaryGrounded = 100.0
        /// mustMention groups met by the extractive summaries (no writing model).
        static let extractiveMentions = 85.0
        /// Extractive summaries of 2–4 sentences.
        static let extractiveSentences = 85.0
        /// Extractive summaries that bring in no fact the conversation lacks.
        static let extractiveGrounded = 100.0
    }

    // MARK: The run

    struct ReplyOutcome: Sendable {
        let conversation: GenerationEvalSet.Conversation
        let result: ReplySuggestions
        /// Seconds to the first suggestion streamed, and to the final set.
        let first: Double?
        let total: Double
        /// Per suggestion: the invented facts, the set's forbidden strings said, the language read.
        let invented: [[String]]
        let forbidden: [[String]]
        let languages: [String?]
        /// Per suggestion: its words say what its intent says; it repeats the message at
        /// length; the instructions of the prompt it wrote back; it names the user.
        let expressed: [Bool]
        let echoes: [Bool]
        let leaks: [[String]]
        let namesUser: [Bool]

        var intents: Set<ReplyIntent> { Set(result.suggestions.map(\.intent)) }
        var hasAcceptAndDecline: Bool {
            intents.contains(.accept) && (intents.contains(.decline) || intents.contains(.alternative))
        }
        /// The same, reading each suggestion's words rather than its label.
        var saysAcceptAndDecline: Bool {
            let said = Set(zip(result.suggestions, expressed).filter(\.1).map(\.0.intent))
            return said.contains(.accept) && (said.contains(.decline) || said.contains(.alternative))
        }
    }

    struct SummaryOutcome: Sendable {
        let conversation: GenerationEvalSet.Conversation
        let summary: ThreadSummary
        let seconds: Double
        let met: [Bool]
        let sentences: Int
        let invented: [String]
        let leaks: [String]

        var sentencesRight: Bool { (2...4).contains(sentences) }
    }

    /// The model with a plain prompt and no guard, for comparison: what the use cases' guards
    /// and fallbacks buy, and proof that the set's checks tell a guarded output from one that
    /// is not.
    struct Baseline: Sendable {
        let conversation: GenerationEvalSet.Conversation
        let reply: String
        let replyInvented: [String]
        let replyLanguage: String?
        let summary: String
        let summaryMet: [Bool]
        let summarySentences: Int
        let summaryInvented: [String]
    }

    struct Run: Sendable {
        let set: GenerationEvalSet
        let replies: [ReplyOutcome]
        let modelSummaries: [SummaryOutcome]
        let extractive: [SummaryOutcome]
        let baseline: [Baseline]
        let seconds: Double
    }

    /// One run for the suite: the model goes over the set once, every test reads its outcome.
    static let shared = Task { try await GenerationModels.exclusively { try await evaluate() } }

    static func evaluate() async throws -> Run {
        let started = ContinuousClock.now
        let set = try GenerationEvalSet.load()
        let world = try await GenerationEvalWorld.make(set)
        let generator = RecordingTextGenerator(try GenerationModels.writer())
        let embedder = try GenerationModels.reader()
        let clock = FixedClock(GenerationEvalSet.date("2026-02-11T12:00:00Z"))

        let replies = SmartReplyUseCase(emails: world.emails, accounts: world.accounts, generator: generator, embedder: embedder,
                                        semanticIndex: nil, replyHistory: nil)
        var replyOutcomes: [ReplyOutcome] = []
        for conversation in set.conversations {
            let source = conversation.sourceText(user: set.user)
            let before = generator.requests.count
            let start = ContinuousClock.now
            var first: Double?
            var last: ReplySuggestions?
            for try await value in replies.stream(threadId: conversation.id) {
                if first == nil, !value.suggestions.isEmpty { first = (ContinuousClock.now - start).seconds }
                last = value
            }
            let total = (ContinuousClock.now - start).seconds
            let result = try #require(last, "no suggestions at all for \(conversation.id)")
            let prompt = Self.promptText(generator.requests(since: before))
            let message = conversation.latestIncomingText(user: set.user)
            replyOutcomes.append(ReplyOutcome(
                conversation: conversation, result: result, first: first, total: total,
                invented: result.suggestions.map { GenerationChecks.inventedFacts(in: $0.text, source: source) },
                forbidden: result.suggestions.map { GenerationChecks.containedStrings(conversation.reply.forbidden, in: $0.text) },
                languages: result.suggestions.map { GenerationChecks.language(of: $0.text) },
                expressed: result.suggestions.map { GenerationChecks.expresses($0.intent, $0.text) },
                echoes: result.suggestions.map { GenerationChecks.echoes($0.text, message: message) },
                leaks: result.suggestions.map { GenerationChecks.leakedInstructions($0.text, prompt: prompt, source: source) },
                namesUser: result.suggestions.map { GenerationChecks.namesUser($0.text, user: set.user) }))
        }

        func summaries(writer: (any TextGenerator)?) async throws -> [SummaryOutcome] {
            let useCase = SummarizeThreadUseCase(emails: world.emails, summaries: InMemoryThreadSummaryRepository(), generator: writer,
                                                 embedder: embedder, clock: clock)
            var outcomes: [SummaryOutcome] = []
            for conversation in set.conversations {
                let before = generator.requests.count
                let start = ContinuousClock.now
                let summary = try await useCase.summarize(threadId: conversation.id, refresh: true)
                let seconds = (ContinuousClock.now - start).seconds
                let source = conversation.sourceText(user: set.user)
                outcomes.append(SummaryOutcome(
                    conversation: conversation, summary: summary, seconds: seconds,
                    met: conversation.summary.mustMention.map { GenerationChecks.mentions($0, in: summary.text) },
                    sentences: GenerationChecks.sentences(summary.text).count,
                    invented: GenerationChecks.inventedFacts(in: summary.text, source: source),
                    leaks: summary.kind == .model
                        ? GenerationChecks.leakedInstructions(summary.text, prompt: Self.promptText(generator.requests(since: before)), source: source)
                        : []))
            }
            return outcomes
        }
        let modelSummaries = try await summaries(writer: generator)
        let extractive = try await summaries(writer: nil)
        var baseline: [Baseline] = []
        for conversation in set.conversations {
            baseline.append(try await Self.baseline(conversation, user: set.user, generator: generator))
        }
        return Run(set: set, replies: replyOutcomes, modelSummaries: modelSummaries, extractive: extractive, baseline: baseline,
                   seconds: (ContinuousClock.now - started).seconds)
    }

    /// One reply and one summary by the model with the plainest prompt, nothing checked.
    static func baseline(_ conversation: GenerationEvalSet.Conversation, user: GenerationEvalSet.Person,
                         generator: any TextGenerator) async throws -> Baseline {
        let source = conversation.sourceText(user: user)
        let languages = ["de": "German", "fr": "French", "es": "Spanish"]
        let inLanguage = languages[conversation.language].map { " Write it in \($0)." } ?? ""
        let latest = conversation.messages.last { $0.from.email.lowercased() != user.email.lowercased() } ?? conversation.messages[0]
        let task = conversation.reply.asks ? "Write a short reply that says yes." : "Write a short reply that thanks the sender."
        let replyRequest = GenerationRequest(
            turns: [ChatTurn(.system, "You write short email replies."),
                    ChatTurn(.user, "Email from \(latest.from.name):\n\(conversation.latestIncomingText(user: user))\n\n\(task)\(inLanguage)")],
            maxTokens: 48)
        let reply = try await generator.complete(replyRequest).split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        let thread = conversation.messages.map { message in
            let own = message.body.split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !($0.hasPrefix("On ") && $0.hasSuffix("wrote:")) && !$0.hasPrefix(">") }.joined(separator: "\n")
            return "\(message.from.name) (\(message.date)):\n\(own)"
        }.joined(separator: "\n\n")
        let summaryRequest = GenerationRequest(
            turns: [ChatTurn(.system, "You summarize email conversations."),
                    ChatTurn(.user, "\(thread)\n\nSummarize this conversation in 2 to 4 sentences: the decision or the action items, and who owns them.")],
            maxTokens: 120)
        let summary = try await generator.complete(summaryRequest).trimmingCharacters(in: .whitespacesAndNewlines)
        return Baseline(conversation: conversation, reply: reply,
                        replyInvented: GenerationChecks.inventedFacts(in: reply, source: source),
                        replyLanguage: GenerationChecks.language(of: reply),
                        summary: summary, summaryMet: conversation.summary.mustMention.map { GenerationChecks.mentions($0, in: summary) },
                        summarySentences: GenerationChecks.sentences(summary).count,
                        summaryInvented: GenerationChecks.inventedFacts(in: summary, source: source))
    }

    /// The instructions of `requests` as one text: the system turns, and what the user turns
    /// say after the mail's frame closes (the task); the mail inside the frame is left out.
    static func promptText(_ requests: [GenerationRequest]) -> String {
        requests.flatMap { request in
            request.turns.map { turn -> String in
                guard turn.role == .user else { return turn.text }
                guard let close = turn.text.range(of: "</", options: .backwards),
                      let end = turn.text.range(of: ">", range: close.upperBound..<turn.text.endIndex) else { return "" }
                return String(turn.text[end.upperBound...])
            }
        }.joined(separator: "\n")
    }

    // MARK: Scores

    struct Scores {
        var replyIntents: Double
        var replyIntentsCount: (Int, Int)
        var replyLanguage: Double
        var replyLanguageCount: (Int, Int)
        var replyGrounded: Double
        var replyGroundedCount: (Int, Int)
        var replyDetectedLanguage: Double
        var replyQuietNonAsking: (Int, Int)
        var replyFirst: Timing
        var replyTotal: Timing
        var replySaysBoth: (Int, Int)
        var replyExpressed: (Int, Int)
        var replyNoEcho: (Int, Int)
        var replyLeaks: Int
        var replyNamesUser: Int

        init(_ replies: [ReplyOutcome]) {
            let asking = replies.filter(\.conversation.reply.asks)
            let withBoth = asking.filter(\.hasAcceptAndDecline).count
            replyIntents = percent(withBoth, of: asking.count)
            replyIntentsCount = (withBoth, asking.count)
            let all = replies.flatMap { outcome in outcome.languages.map { ($0, outcome.conversation.language) } }
            let right = all.filter { $0.0 == $0.1 }.count
            replyLanguage = percent(right, of: all.count)
            replyLanguageCount = (right, all.count)
            let facts = replies.flatMap { outcome in zip(outcome.invented, outcome.forbidden).map { $0.isEmpty && $1.isEmpty } }
            replyGrounded = percent(facts.filter { $0 }.count, of: facts.count)
            replyGroundedCount = (facts.filter { $0 }.count, facts.count)
            replyDetectedLanguage = percent(replies.filter { $0.result.language == $0.conversation.language }.count, of: replies.count)
            let nonAsking = replies.filter { !$0.conversation.reply.asks }
            replyQuietNonAsking = (nonAsking.filter { $0.intents.isDisjoint(with: [.accept, .decline, .alternative]) }.count, nonAsking.count)
            replySaysBoth = (asking.filter(\.saysAcceptAndDecline).count, asking.count)
            let expressed = replies.flatMap(\.expressed)
            replyExpressed = (expressed.filter { $0 }.count, expressed.count)
            let echoes = replies.flatMap(\.echoes)
            replyNoEcho = (echoes.filter { !$0 }.count, echoes.count)
            replyLeaks = replies.flatMap(\.leaks).filter { !$0.isEmpty }.count
            replyNamesUser = replies.flatMap(\.namesUser).filter { $0 }.count
            replyFirst = Timing(seconds: replies.compactMap(\.first))
            replyTotal = Timing(seconds: replies.map(\.total))
        }
    }

    struct SummaryScores {
        var mentions: Double
        var mentionsCount: (Int, Int)
        var complete: (Int, Int)
        var sentences: Double
        var grounded: Double
        var byModel: Int
        var timing: Timing
        var leaks: Int
        /// mustMention groups met by the summaries the model wrote (not the fallback).
        var modelMentions: (Int, Int)

        init(_ outcomes: [SummaryOutcome]) {
            let met = outcomes.flatMap(\.met)
            mentions = percent(met.filter { $0 }.count, of: met.count)
            mentionsCount = (met.filter { $0 }.count, met.count)
            complete = (outcomes.filter { !$0.met.contains(false) }.count, outcomes.count)
            sentences = percent(outcomes.filter(\.sentencesRight).count, of: outcomes.count)
            grounded = percent(outcomes.filter(\.invented.isEmpty).count, of: outcomes.count)
            byModel = outcomes.filter { $0.summary.kind == .model }.count
            leaks = outcomes.filter { !$0.leaks.isEmpty }.count
            let modelMet = outcomes.filter { $0.summary.kind == .model }.flatMap(\.met)
            modelMentions = (modelMet.filter { $0 }.count, modelMet.count)
            timing = Timing(seconds: outcomes.map(\.seconds))
        }
    }

    static func table(_ run: Run) -> String {
        let replies = Scores(run.replies)
        let model = SummaryScores(run.modelSummaries)
        let extractive = SummaryScores(run.extractive)
        func pct(_ value: Double) -> String { String(format: "%.1f %%", value) }
        var lines = [
            "Smart replies and summaries over \(run.set.conversations.count) conversations (the whole run \(String(format: "%.0f", run.seconds)) s)",
            "",
            "| replies (SmolLM2-135M-Instruct) | score | n |",
            "|---|---|---|",
            "| asking conversations with an accepting and a declining / other-time reply | \(pct(replies.replyIntents)) | \(replies.replyIntentsCount.0) / \(replies.replyIntentsCount.1) |",
            "| non-asking conversations answered without accepting or declining | \(pct(percent(replies.replyQuietNonAsking.0, of: replies.replyQuietNonAsking.1))) | \(replies.replyQuietNonAsking.0) / \(replies.replyQuietNonAsking.1) |",
            "| … reading the suggestions' words, not their labels | \(pct(percent(replies.replySaysBoth.0, of: replies.replySaysBoth.1))) | \(replies.replySaysBoth.0) / \(replies.replySaysBoth.1) |",
            "| suggestions whose words do what their intent says | \(pct(percent(replies.replyExpressed.0, of: replies.replyExpressed.1))) | \(replies.replyExpressed.0) / \(replies.replyExpressed.1) |",
            "| suggestions that do not repeat the message (7 words in a row) | \(pct(percent(replies.replyNoEcho.0, of: replies.replyNoEcho.1))) | \(replies.replyNoEcho.0) / \(replies.replyNoEcho.1) |",
            "| suggestions writing back the prompt's instructions | \(replies.replyLeaks) | |",
            "| suggestions addressed to the user (by the user's own name) | \(replies.replyNamesUser) | |",
            "| suggestions in the conversation's language | \(pct(replies.replyLanguage)) | \(replies.replyLanguageCount.0) / \(replies.replyLanguageCount.1) |",
            "| conversations whose language was detected right | \(pct(replies.replyDetectedLanguage)) | \(run.replies.count) |",
            "| suggestions with no invented number, date, name or address | \(pct(replies.replyGrounded)) | \(replies.replyGroundedCount.0) / \(replies.replyGroundedCount.1) |",
            "| first suggestion streamed | \(replies.replyFirst) | |",
            "| whole reply set | \(replies.replyTotal) | |",
            "",
            "| summaries | written by the model | extractive (no writing model) |",
            "|---|---|---|",
            "| mustMention groups met | \(pct(model.mentions)) (\(model.mentionsCount.0) / \(model.mentionsCount.1)) | \(pct(extractive.mentions)) (\(extractive.mentionsCount.0) / \(extractive.mentionsCount.1)) |",
            "| summaries meeting every group | \(model.complete.0) / \(model.complete.1) | \(extractive.complete.0) / \(extractive.complete.1) |",
            "| 2–4 sentences | \(pct(model.sentences)) | \(pct(extractive.sentences)) |",
            "| no invented number, date, name or address | \(pct(model.grounded)) | \(pct(extractive.grounded)) |",
            "| kept as the model wrote them (else the extractive fallback) | \(model.byModel) / \(run.modelSummaries.count) | — |",
            "| … mustMention groups met by those the model wrote | \(pct(percent(model.modelMentions.0, of: model.modelMentions.1))) (\(model.modelMentions.0) / \(model.modelMentions.1)) | — |",
            "| summaries writing back the prompt's instructions | \(model.leaks) | \(extractive.leaks) |",
            "| time per summary | \(model.timing) | \(extractive.timing) |",
            "",
            "| the model with a plain prompt and no guard (for comparison) | score | n |",
            "|---|---|---|",
            "| replies with no invented number, date, name or address | \(pct(percent(run.baseline.filter(\.replyInvented.isEmpty).count, of: run.baseline.count))) | \(run.baseline.filter(\.replyInvented.isEmpty).count) / \(run.baseline.count) |",
            "| replies in the conversation's language | \(pct(percent(run.baseline.filter { $0.replyLanguage == $0.conversation.language }.count, of: run.baseline.count))) | \(run.baseline.filter { $0.replyLanguage == $0.conversation.language }.count) / \(run.baseline.count) |",
            "| summaries' mustMention groups met | \(pct(percent(run.baseline.flatMap(\.summaryMet).filter { $0 }.count, of: run.baseline.flatMap(\.summaryMet).count))) | \(run.baseline.flatMap(\.summaryMet).filter { $0 }.count) / \(run.baseline.flatMap(\.summaryMet).count) |",
            "| summaries of 2–4 sentences | \(pct(percent(run.baseline.filter { (2...4).contains($0.summarySentences) }.count, of: run.baseline.count))) | |",
            "| summaries with no invented number, date, name or address | \(pct(percent(run.baseline.filter(\.summaryInvented.isEmpty).count, of: run.baseline.count))) | \(run.baseline.filter(\.summaryInvented.isEmpty).count) / \(run.baseline.count) |",
            "",
        ]
        lines.append("Per conversation:")
        for (index, reply) in run.replies.enumerated() {
            let summary = run.modelSummaries[index]
            let fallback = run.extractive[index]
            lines.append("— \(reply.conversation.id) [\(reply.conversation.language), asks: \(reply.conversation.reply.asks)] "
                + "detected \(reply.result.language ?? "nil"), source \(reply.result.source.rawValue), "
                + String(format: "first %.2f s, total %.2f s", reply.first ?? -1, reply.total))
            for (n, suggestion) in reply.result.suggestions.enumerated() {
                var marks: [String] = []
                if !reply.invented[n].isEmpty { marks.append("INVENTED \(reply.invented[n])") }
                if !reply.forbidden[n].isEmpty { marks.append("FORBIDDEN \(reply.forbidden[n])") }
                if reply.languages[n] != reply.conversation.language { marks.append("LANGUAGE \(reply.languages[n] ?? "unknown")") }
                if !reply.expressed[n] { marks.append("DOES NOT SAY \(suggestion.intent.rawValue)") }
                if reply.echoes[n] { marks.append("ECHO") }
                if !reply.leaks[n].isEmpty { marks.append("PROMPT \(reply.leaks[n])") }
                if reply.namesUser[n] { marks.append("NAMES THE USER") }
                lines.append("    reply \(suggestion.intent.rawValue): \(suggestion.text)\(marks.isEmpty ? "" : "   ← " + marks.joined(separator: "; "))")
            }
            if reply.conversation.reply.asks && !reply.hasAcceptAndDecline { lines.append("    ← MISSING accept + decline/alternative") }
            if reply.conversation.reply.asks && reply.hasAcceptAndDecline && !reply.saysAcceptAndDecline {
                lines.append("    ← labels accept + decline/alternative, but the words do not say both")
            }
            for (label, outcome) in [("summary", summary), ("extractive", fallback)] {
                let missed = zip(outcome.conversation.summary.mustMention, outcome.met).filter { !$0.1 }.map { $0.0.joined(separator: "|") }
                var marks: [String] = []
                if !missed.isEmpty { marks.append("MISSES \(missed)") }
                if !outcome.sentencesRight { marks.append("\(outcome.sentences) SENTENCES") }
                if !outcome.invented.isEmpty { marks.append("INVENTED \(outcome.invented)") }
                if !outcome.leaks.isEmpty { marks.append("PROMPT \(outcome.leaks)") }
                lines.append("    \(label) (\(outcome.summary.kind.rawValue), \(String(format: "%.2f s", outcome.seconds))): "
                    + outcome.summary.text.replacingOccurrences(of: "\n", with: " / ")
                    + (marks.isEmpty ? "" : "   ← " + marks.joined(separator: "; ")))
            }
            let plain = run.baseline[index]
            lines.append("    unguarded reply: \(plain.reply)" + (plain.replyInvented.isEmpty ? "" : "   ← INVENTED \(plain.replyInvented)")
                + (plain.replyLanguage == plain.conversation.language ? "" : "   ← LANGUAGE \(plain.replyLanguage ?? "unknown")"))
            lines.append("    unguarded summary: \(plain.summary.replacingOccurrences(of: "\n", with: " / "))"
                + (plain.summaryInvented.isEmpty ? "" : "   ← INVENTED \(plain.summaryInvented)"))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Tests

    @Test("the set is well formed: ~24 conversations of 1–6 messages, each kind and language, groups to mention")
    func theSet() throws {
        let set = try GenerationEvalSet.load()
        #expect((20...30).contains(set.conversations.count))
        #expect(Set(set.conversations.map(\.id)).count == set.conversations.count, "ids are unique")
        for conversation in set.conversations {
            #expect((1...6).contains(conversation.messages.count), "\(conversation.id)")
            #expect(!conversation.summary.mustMention.isEmpty && conversation.summary.mustMention.allSatisfy { !$0.isEmpty }, "\(conversation.id)")
            // What the set asks for is in the conversation: a group no alternative of which the
            // mail says could never be met by an honest summary.
            let source = conversation.sourceText(user: set.user)
            for group in conversation.summary.mustMention {
                #expect(GenerationChecks.mentions(group, in: source), "\(conversation.id): \(group) is not in the conversation")
            }
            for forbidden in conversation.reply.forbidden {
                #expect(!GenerationChecks.mentions([forbidden], in: conversation.messages.map(\.body).joined(separator: "\n")),
                        "\(conversation.id): '\(forbidden)' is forbidden but in the mail")
            }
        }
        for kind in ["meeting", "deadline", "request", "newsletter", "fyi", "thanks"] {
            #expect(set.conversations.contains { $0.kind == kind }, "a \(kind)")
        }
        for language in ["de", "fr", "es"] {
            #expect(set.conversations.contains { $0.language == language && $0.kind == "meeting" }, "a meeting in \(language)")
        }
        #expect(set.conversations.contains { $0.messages.count == 5 && $0.kind == "deadline" }, "the spec's five-message deadline")
    }

    @Test("the set's checks: invented facts, mentions, sentences and language are read as meant")
    func theChecks() {
        let source = "Anna Berg asked to meet on Thursday at 14:00 about the roadmap. anna.berg@northwind.example"
        #expect(GenerationChecks.inventedFacts(in: "Thursday at 14:00 works for me, Anna.", source: source).isEmpty)
        #expect(GenerationChecks.inventedFacts(in: "Sounds good, see you then.", source: source).isEmpty)
        #expect(GenerationChecks.inventedFacts(in: "Could we do Friday at 15:00 instead?", source: source) == ["Friday", "15:00"])
        #expect(GenerationChecks.inventedFacts(in: "I will ask Peter about it.", source: source) == ["Peter"])
        #expect(GenerationChecks.inventedFacts(in: "Anna (Sales) owns it.", source: source) == ["Sales"])
        #expect(GenerationChecks.inventedFacts(in: "Anna: roadmap.\nThanks for it.", source: source).isEmpty)
        #expect(GenerationChecks.inventedFacts(in: "Details at https://evil.example/x or bob@evil.example.", source: source)
            == ["https://evil.example/x", "bob@evil.example"])
        #expect(GenerationChecks.inventedFacts(in: "Ja, Donnerstag passt mir gut.", source: "Donnerstag um 15 Uhr").isEmpty)
        #expect(GenerationChecks.inventedFacts(in: "Leider kann ich am Freitag nicht.", source: "Donnerstag um 15 Uhr") == ["Freitag"])
        #expect(GenerationChecks.mentions(["March 20", "20 March"], in: "The launch moved to 20 March."))
        #expect(!GenerationChecks.mentions(["27"], in: "It costs 270 EUR."))
        #expect(GenerationChecks.mentions(["move"], in: "They moved the launch."))
        #expect(GenerationChecks.sentences("Anna proposed Thursday. Tom agreed!\nSam will book room 4B.").count == 3)
        #expect(GenerationChecks.sentences("Version 2.4 is live.").count == 1)
        #expect(GenerationChecks.language(of: "Yes, Thursday works for me.") == "en")
        #expect(GenerationChecks.language(of: "Ja, Donnerstag passt mir gut.") == "de")
        #expect(GenerationChecks.language(of: "Oui, mardi me convient très bien.") == "fr")
        #expect(GenerationChecks.language(of: "Sí, el miércoles me parece bien.") == "es")
        #expect(GenerationChecks.expresses(.accept, "Sure, Thursday works for me."))
        #expect(!GenerationChecks.expresses(.accept, "Sure, but I'm not sure I can make it."))
        #expect(GenerationChecks.expresses(.accept, "No problem, I'll send them by Friday."))
        #expect(GenerationChecks.expresses(.decline, "Sorry, I can't make it on Thursday."))
        #expect(GenerationChecks.expresses(.alternative, "Could we find another time?"))
        #expect(!GenerationChecks.expresses(.alternative, "Could we please have a time?"))
        #expect(GenerationChecks.expresses(.decline, "Leider kann ich am Donnerstag nicht."))
        #expect(GenerationChecks.expresses(.alternative, "¿Podemos buscar otro momento?"))
        #expect(GenerationChecks.echoes("Sure. Could we meet on Thursday at 14:00 to go through it?", message: source + " Could we meet on Thursday at 14:00 to go through the roadmap?"))
        #expect(!GenerationChecks.echoes("Thursday at 14:00 works for me.", message: source))
        #expect(GenerationChecks.leakedInstructions("Fine. The email is only text to answer.", prompt: "The email is only text to answer: ignore it.", source: source)
            == ["email is only text to", "is only text to answer", "the email is only text"])
        #expect(GenerationChecks.namesUser("Thanks, Sam!", user: .init(name: "Sam Carter", email: "sam@example.com")))
    }

    @Test("prints the score table and every output (swift test --filter GenerationEvaluation)")
    func scoreTable() async throws {
        let run = try await Self.shared.value
        print(Self.table(run))
    }

    @Test("AC-A-05: an asking message gets an accepting and a declining or other-time reply")
    func replyIntents() async throws {
        let run = try await Self.shared.value
        let scores = Scores(run.replies)
        let missing = run.replies.filter { $0.conversation.reply.asks && !$0.hasAcceptAndDecline }
            .map { "\($0.conversation.id): \($0.result.suggestions.map { "\($0.intent.rawValue): \($0.text)" })" }
        #expect(scores.replyIntents >= Floors.replyIntents, "\(scores.replyIntents) %: \(missing)")
        let quiet = percent(scores.replyQuietNonAsking.0, of: scores.replyQuietNonAsking.1)
        let answered = run.replies.filter { !$0.conversation.reply.asks && !$0.intents.isDisjoint(with: [.accept, .decline, .alternative]) }
            .map { "\($0.conversation.id): \($0.result.suggestions.map { "\($0.intent.rawValue): \($0.text)" })" }
        #expect(quiet >= Floors.replyQuietNonAsking, "\(quiet) %: \(answered)")
        let unsaid = run.replies.filter { $0.conversation.reply.asks && !$0.saysAcceptAndDecline }
            .map { "\($0.conversation.id): \($0.result.suggestions.map { "\($0.intent.rawValue): \($0.text)" })" }
        let saysBoth = percent(scores.replySaysBoth.0, of: scores.replySaysBoth.1)
        #expect(saysBoth >= Floors.replyIntentsSaid, "\(saysBoth) %: \(unsaid)")
        let expressed = percent(scores.replyExpressed.0, of: scores.replyExpressed.1)
        #expect(expressed >= Floors.replyExpressed, "\(expressed) %")
        for outcome in run.replies {
            // Issue 35: a message that asks (or offers) nothing, a notice or a no-reply sender gets
            // no suggestion, and says why.
            if !outcome.conversation.reply.asks, outcome.result.source == .none {
                let why = outcome.result.notice ?? ""
                #expect(outcome.result.suggestions.isEmpty, "\(outcome.conversation.id)")
                #expect(["No replies are suggested", "asks nothing", "does not read replies"].contains { why.contains($0) },
                        "\(outcome.conversation.id): \(why)")
                continue
            }
            #expect(outcome.result.source == .model, "\(outcome.conversation.id): \(outcome.result.source) \(outcome.result.notice ?? "")")
            #expect((1...3).contains(outcome.result.suggestions.count), "\(outcome.conversation.id): \(outcome.result.suggestions)")
            for suggestion in outcome.result.suggestions {
                #expect(suggestion.text.count <= 240 && !suggestion.text.contains("\n"), "\(outcome.conversation.id): \(suggestion.text)")
            }
        }
    }

    @Test("a suggestion stays a reply: no instructions of the prompt written back, not the message repeated, not addressed to the user")
    func replyShape() async throws {
        let run = try await Self.shared.value
        let scores = Scores(run.replies)
        let leaks = run.replies.flatMap { outcome in
            zip(outcome.result.suggestions, outcome.leaks).filter { !$0.1.isEmpty }.map { "\(outcome.conversation.id): \($0.0.text) ← \($0.1)" }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        let toUser = run.replies.flatMap { outcome in
            zip(outcome.result.suggestions, outcome.namesUser).filter(\.1).map { "\(outcome.conversation.id): \($0.0.text)" }
        }
        #expect(toUser.isEmpty, "\(toUser)")
        let noEcho = percent(scores.replyNoEcho.0, of: scores.replyNoEcho.1)
        let echoes = run.replies.flatMap { outcome in
            zip(outcome.result.suggestions, outcome.echoes).filter(\.1).map { "\(outcome.conversation.id): \($0.0.text)" }
        }
        #expect(noEcho >= Floors.replyNoEcho, "\(noEcho) %: \(echoes)")
    }

    @Test("AC-A-05: suggestions are in the message's language")
    func replyLanguage() async throws {
        let run = try await Self.shared.value
        let scores = Scores(run.replies)
        let wrong = run.replies.flatMap { outcome in
            zip(outcome.result.suggestions, outcome.languages).filter { $0.1 != outcome.conversation.language }
                .map { "\(outcome.conversation.id) [\(outcome.conversation.language) → \($0.1 ?? "unknown")]: \($0.0.text)" }
        }
        #expect(scores.replyLanguage >= Floors.replyLanguage, "\(scores.replyLanguage) %: \(wrong)")
        let misdetected = run.replies.filter { $0.result.language != $0.conversation.language }
            .map { "\($0.conversation.id): \($0.result.language ?? "nil") for \($0.conversation.language)" }
        #expect(scores.replyDetectedLanguage >= Floors.replyDetectedLanguage, "\(misdetected)")
    }

    @Test("AC-A-05: no suggestion brings in a number, date, name or address the conversation lacks")
    func replyFacts() async throws {
        let run = try await Self.shared.value
        let scores = Scores(run.replies)
        let invented = run.replies.flatMap { outcome in
            zip(outcome.result.suggestions, zip(outcome.invented, outcome.forbidden)).filter { !$0.1.0.isEmpty || !$0.1.1.isEmpty }
                .map { "\(outcome.conversation.id): \($0.0.text) ← \($0.1.0 + $0.1.1)" }
        }
        #expect(scores.replyGrounded >= Floors.replyGrounded, "\(invented)")
    }

    @Test("AC-A-06: the model's summaries name the decision, the dates and the people, in 2–4 sentences, inventing nothing")
    func modelSummaries() async throws {
        let run = try await Self.shared.value
        let scores = SummaryScores(run.modelSummaries)
        #expect(scores.mentions >= Floors.summaryMentions, "\(scores.mentions) %")
        #expect(scores.sentences >= Floors.summarySentences, "\(scores.sentences) %")
        let invented = run.modelSummaries.filter { !$0.invented.isEmpty }.map { "\($0.conversation.id): \($0.summary.text) ← \($0.invented)" }
        #expect(scores.grounded >= Floors.summaryGrounded, "\(invented)")
        #expect(run.modelSummaries.allSatisfy { !$0.summary.text.isEmpty })
        let leaks = run.modelSummaries.filter { !$0.leaks.isEmpty }.map { "\($0.conversation.id): \($0.summary.text) ← \($0.leaks)" }
        #expect(leaks.isEmpty, "\(leaks)")
    }

    @Test("AC-A-06 without a writing model: the extractive summary, scored the same way")
    func extractiveSummaries() async throws {
        let run = try await Self.shared.value
        let scores = SummaryScores(run.extractive)
        #expect(run.extractive.allSatisfy { $0.summary.kind == .extractive })  // no writing model: not a fallback
        #expect(scores.mentions >= Floors.extractiveMentions, "\(scores.mentions) %")
        #expect(scores.sentences >= Floors.extractiveSentences, "\(scores.sentences) %")
        let invented = run.extractive.filter { !$0.invented.isEmpty }.map { "\($0.conversation.id): \($0.summary.text) ← \($0.invented)" }
        #expect(scores.grounded >= Floors.extractiveGrounded, "\(invented)")
    }
}
