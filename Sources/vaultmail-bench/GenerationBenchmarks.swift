import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench generation` (issue 16): the writing model, SmolLM2-135M-Instruct (Q4_1
/// GGUF) on llama.cpp, on this machine's cores. Figures, medians unless said:
/// - `generation-model-load`: the GGUF file loaded (memory-mapped) with its context, then unloaded;
/// - `generation-first-token`, `generation-tokens-per-second`, `generation-prompt-tokens-per-second`:
///   the engine alone, on the reply prompt of a meeting request;
/// - `smart-reply-first` / `smart-reply-set`: `SmartReplyUseCase.stream` on a one-message
///   meeting request, to its first suggestion and to the complete set;
/// - `summary-5-messages`: `SummarizeThreadUseCase.summarize(refresh: true)` on a 5-message
///   conversation about a project deadline;
/// - memory of this process: before the model, loaded, peak, after unloading.
/// Every figure runs through the same `GenerationSession` the daemon uses.
enum GenerationBenchmarks {
    static let rounds = 11
    static let account = MailFixtures.account(name: "bench", email: "me@example.com")

    static func run() async throws {
        let modelDirectory = try AIModelFixture.installedGenerationDirectory()
        let cpu = AIBenchmarks.cpuModel()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("# generation: SmolLM2-135M-Instruct Q4_1 (llama.cpp, CPU, \(cores) threads\(cpu.map { ", \($0)" } ?? ""));"
              + " conversations constructed for the bench in a store under the temporary directory")
        let before = try ProcessStatus.memory(of: getpid())
        try engineFigures(modelDirectory: modelDirectory)
        let afterEngine = try ProcessStatus.memory(of: getpid())

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-generation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = try AppDatabase.open(path: scratch.appendingPathComponent("vaultmail.sqlite").path)
        let emails = GRDBEmailRepository(database: database)
        let accounts = GRDBAccountRepository(database: database)
        try await seed(emails: emails, accounts: accounts)

        let library = FixedModelLibrary([AIModelCatalog.generationModelId: modelDirectory])
        let session = GenerationSession(engine: LlamaEngine(), library: library, modelId: AIModelCatalog.generationModelId)
        let replies = SmartReplyUseCase(emails: emails, accounts: accounts, generator: session, embedder: nil,
                                        semanticIndex: nil, replyHistory: nil)
        let recorder = RecordingTextGenerator(session)
        let summaries = SummarizeThreadUseCase(emails: emails, summaries: GRDBThreadSummaryRepository(database: database),
                                               generator: recorder, embedder: nil, clock: SystemWallClock())
        try await useCaseFigures(replies: replies, summaries: summaries)
        if let written = recorder.lastWritten { print("# the model's summary before the fact guard: \(written.replacingOccurrences(of: "\n", with: " / "))") }
        let loaded = try ProcessStatus.memory(of: getpid())
        session.unload()
        let unloaded = try ProcessStatus.memory(of: getpid())
        let peak = peakResidentMiB()

        Measure.report("generation-memory-before-load", before.residentMiB, "MiB", n: 1)
        Measure.report("generation-memory-loaded", loaded.residentMiB, "MiB", n: 1)
        Measure.report("generation-memory-peak", peak, "MiB", n: 1)
        Measure.report("generation-memory-unloaded", unloaded.residentMiB, "MiB", n: 1)
        print("# memory before the model: \(before.summary); after the engine figures (unloaded): \(afterEngine.summary);"
              + " loaded, after the replies and summaries: \(loaded.summary); unloaded again: \(unloaded.summary); peak \(String(format: "%.1f", peak)) MiB"
              + " (the weights are memory-mapped: file-backed pages, shared with the page cache)")
    }

    /// The engine alone: load, first token, decoding and prompt speed.
    static func engineFigures(modelDirectory: URL) throws {
        var loads: [Double] = []
        for _ in 0..<rounds {
            let engine = LlamaEngine()
            let started = ContinuousClock.now
            try engine.load(from: modelDirectory)
            loads.append((ContinuousClock.now - started).millis)
            engine.unload()
        }
        Measure.report("generation-model-load", Measure.median(loads), "ms", n: rounds)

        let engine = LlamaEngine()
        try engine.load(from: modelDirectory)
        defer { engine.unload() }
        var firstTokens: [Double] = []
        for round in 0..<rounds {
            let statistics = try engine.generate(replyRequest(round: round)) { _ in true }
            firstTokens.append(statistics.timeToFirstToken.millis)
        }
        Measure.report("generation-first-token", Measure.median(firstTokens), "ms", n: rounds)

        let story = GenerationRequest(turns: [ChatTurn(.user, "Write a long story about a lighthouse keeper.")], maxTokens: 128)
        var speeds: [Double] = []
        var promptSpeeds: [Double] = []
        for round in 0..<5 {
            speeds.append(try engine.generate(story) { _ in true }.tokensPerSecond)
            let longPrompt = GenerationRequest(turns: [ChatTurn(.user, "Round \(round). "
                + String(repeating: "The budget meeting moved to Friday. ", count: 70) + "Say OK.")], maxTokens: 1)
            let statistics = try engine.generate(longPrompt) { _ in true }
            promptSpeeds.append(Double(statistics.promptTokens) / (statistics.timeToFirstToken / .seconds(1)))
        }
        Measure.report("generation-tokens-per-second", Measure.median(speeds), "tokens/s", n: 5)
        Measure.report("generation-prompt-tokens-per-second", Measure.median(promptSpeeds), "tokens/s", n: 5)
    }

    /// The reply prompt of a meeting request. Each round's prompt starts differently, so none
    /// reuses the last one's context.
    static func replyRequest(round: Int, maxTokens: Int = 32) -> GenerationRequest {
        GenerationRequest(turns: [
            ChatTurn(.system, "Round \(round). You write short, polite email replies for the user. Write one reply of one or two sentences."),
            ChatTurn(.user, "Email from Anna Berg, subject \"Budget review\":\n\nHi, can you meet at 3pm tomorrow to go over the Q3 budget? "
                     + "I'd like to agree on the numbers before Friday.\n\nAnna\n\nWrite a reply that accepts."),
        ], answerPrefix: "Sure", maxTokens: maxTokens, stop: ["\n"])
    }

    /// The use cases as the web app and the command line call them.
    static func useCaseFigures(replies: SmartReplyUseCase, summaries: SummarizeThreadUseCase) async throws {
        var firsts: [Double] = []
        var sets: [Double] = []
        var example: ReplySuggestions?
        for _ in 0..<7 {
            let started = ContinuousClock.now
            var first: Double?
            for try await partial in replies.stream(threadId: "bench-meeting") {
                if first == nil, !partial.suggestions.isEmpty { first = (ContinuousClock.now - started).millis }
                example = partial
            }
            sets.append((ContinuousClock.now - started).millis)
            firsts.append(first ?? sets.last!)
        }
        Measure.report("smart-reply-first", Measure.median(firsts), "ms", n: 7)
        Measure.report("smart-reply-set", Measure.median(sets), "ms", n: 7)
        if let example {
            print("# replies (\(example.source.rawValue)): " + example.suggestions.map { "[\($0.intent.rawValue)] \($0.text)" }.joined(separator: " | "))
        }

        var times: [Double] = []
        var summary: ThreadSummary?
        for _ in 0..<5 {
            let started = ContinuousClock.now
            summary = try await summaries.summarize(threadId: "bench-deadline", refresh: true)
            times.append((ContinuousClock.now - started).millis)
        }
        Measure.report("summary-5-messages", Measure.median(times), "ms", n: 5)
        if let summary { print("# summary (\(summary.kind.rawValue)): \(summary.text)") }
    }

    /// A meeting request and a 5-message conversation about a deadline.
    static func seed(emails: GRDBEmailRepository, accounts: GRDBAccountRepository) async throws {
        try await accounts.addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await emails.saveFolders(folders)
        let inbox = folders.filter { $0.folderType == .inbox }
        func message(_ number: Int, thread: String, from: (String, String), subject: String, body: String) -> IncomingEmail {
            var email = MailFixtures.email(accountId: account.id, number: number, threadId: thread, from: from.1, fromName: from.0,
                                           subject: subject)
            email.bodyPlain = body
            email.snippet = String(body.prefix(100))
            return MailFixtures.incoming(email, in: inbox)
        }
        let anna = ("Anna Berg", "anna@example.org")
        let tom = ("Tom Reed", "tom@example.org")
        let maria = ("Maria Lopez", "maria@example.org")
        let me = ("Me", account.email)
        _ = try await emails.saveEmails([
            message(1, thread: "bench-meeting", from: anna, subject: "Budget review",
                    body: "Hi, can you meet at 3pm tomorrow to go over the Q3 budget? I'd like to agree on the numbers before Friday.\n\nAnna"),
            message(2, thread: "bench-deadline", from: maria, subject: "Website launch date",
                    body: "Hi all, the launch is planned for March 3. Tom, is the checkout page on track? Maria"),
            message(3, thread: "bench-deadline", from: tom, subject: "Re: Website launch date",
                    body: "The checkout page needs another week: the payment tests keep failing. Can we move the launch to March 10?"),
            message(4, thread: "bench-deadline", from: me, subject: "Re: Website launch date",
                    body: "March 10 works for marketing if we know by Wednesday. I can update the announcement."),
            message(5, thread: "bench-deadline", from: maria, subject: "Re: Website launch date",
                    body: "Agreed: we move the launch to March 10. Tom owns the payment fixes, and you update the announcement by Wednesday."),
            message(6, thread: "bench-deadline", from: tom, subject: "Re: Website launch date",
                    body: "Thanks, I'll send a status update on Monday."),
        ])
    }

    /// The process's peak resident memory (VmHWM), MiB.
    static func peakResidentMiB() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
}

