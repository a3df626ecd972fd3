import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// `vaultmail reply-suggest` and `vaultmail summarize --refresh` as whole processes (issue 35,
/// AC-A-05: 3 s; long conversations: 10 s), on real mailing-list conversations of 2–6 and of
/// 10–20 messages read from the mboxes given with `--lists MBOX[,MBOX…]` (never from the repo).
/// Each process starts, opens the store, loads SmolLM2-135M-Instruct (and all-MiniLM-L6-v2) from
/// `VAULTMAIL_MODELS_DIR`, writes and exits. Part of `vaultmail-bench ai`; alone as
/// `vaultmail-bench writing --lists …`.
enum WritingProcessBenchmarks {
    static let account = MailFixtures.account(name: "bench", email: "me@example.com")

    static func run() async throws {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: "--lists"), index + 1 < arguments.count else {
            print("# writing processes: skipped — give real conversations with --lists MBOX[,MBOX...] (docs/ai-evaluation/writing.md)")
            return
        }
        let paths = arguments[index + 1].split(separator: ",").map(String.init)
        let corpus = try MailingListThreads.load(paths)
        let tool = try await VaultMailTool.locate()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-writing-\(UUID().uuidString)")
        let home = scratch.appendingPathComponent("vaultmail")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let keep = ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_WRITING_KEEP"] == "1"
        defer { if keep { print("# kept \(scratch.path)") } else { try? FileManager.default.removeItem(at: scratch) } }

        let models = scratch.appendingPathComponent("models")
        let manager = AIModelManager(directory: models)
        try manager.install(AIModelCatalog.generationModelId, from: [try AIModelFixture.installedGenerationDirectory()])
        try manager.install(AIModelCatalog.embeddingModelId, from: [try AIModelFixture.installedMiniLMDirectory()])
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_MODELS_DIR"] = models.path

        let database = try AppDatabase.open(path: home.appendingPathComponent("vaultmail.sqlite").path)
        let emails = GRDBEmailRepository(database: database)
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await emails.saveFolders(folders)
        let inbox = folders.filter { $0.folderType == .inbox }
        let samples = [("2-6", corpus.sample(2...6, limit: 12)), ("10-20", corpus.sample(10...20, limit: 8))]
        var number = 0
        for (label, threads) in samples {
            for (offset, thread) in threads.enumerated() {
                _ = try await emails.saveEmails(thread.messages.map { message in
                    number += 1
                    let from = message.from.first
                    var email = MailFixtures.email(accountId: account.id, number: number, threadId: threadId(label, offset),
                                                   from: from?.email ?? "unknown@example.org", fromName: from?.name,
                                                   subject: message.subject, date: message.date ?? Date(timeIntervalSince1970: Double(number)))
                    email.bodyPlain = message.textPlain
                    email.bodyHTML = message.textHTML
                    email.snippet = message.snippet
                    return MailFixtures.incoming(email, in: inbox)
                })
            }
        }
        print("# writing processes: \(paths.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")) — "
              + samples.map { "\($0.1.count) conversations of \($0.0) messages" }.joined(separator: ", ")
              + "; SmolLM2-135M-Instruct Q4_1 and all-MiniLM-L6-v2 installed; \(ProcessInfo.processInfo.activeProcessorCount) cores,"
              + " load average \(MachineIdleness.systemLoadAverage().map { String(format: "%.1f", $0) } ?? "?") at the start")
        _ = try await timed(tool, ["--version"], environment: environment)
        for (label, threads) in samples {
            var replies: [Double] = []
            var summaries: [Double] = []
            for offset in threads.indices {
                let id = threadId(label, offset)
                replies.append(try await timed(tool, ["--home", home.path, "reply-suggest", id], environment: environment))
                summaries.append(try await timed(tool, ["--home", home.path, "summarize", id, "--refresh"], environment: environment))
            }
            Measure.report("writing-reply-suggest-process-\(label)-median", Measure.median(replies), "ms", n: threads.count)
            Measure.report("writing-reply-suggest-process-\(label)-worst", replies.max() ?? .nan, "ms", n: threads.count)
            Measure.report("writing-summarize-process-\(label)-median", Measure.median(summaries), "ms", n: threads.count)
            Measure.report("writing-summarize-process-\(label)-worst", summaries.max() ?? .nan, "ms", n: threads.count)
        }
        let kinds = GRDBThreadSummaryRepository(database: database)
        var tally: [String: Int] = [:]
        for (label, threads) in samples {
            for offset in threads.indices {
                if let summary = try await kinds.summary(threadId: threadId(label, offset)) { tally[summary.kind.rawValue, default: 0] += 1 }
            }
        }
        print("# summaries written: " + tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    /// A thread id the tool accepts (hexadecimal, as the store's own).
    static func threadId(_ label: String, _ offset: Int) -> String {
        String(format: "%016llx", stableHash("\(label)-\(offset)"))
    }

    /// Milliseconds from the process's start to its exit; throws with its output when it fails.
    static func timed(_ tool: VaultMailTool, _ arguments: [String], environment: [String: String]) async throws -> Double {
        let started = ContinuousClock.now
        let result = try await ProcessCapture.run(tool.binary, arguments, environment: environment, timeout: .seconds(120))
        let elapsed = (ContinuousClock.now - started).millis
        guard result.exitedNormally, result.status == 0 else {
            throw VaultMailTool.Failure(description: "`vaultmail \(arguments.dropFirst(2).joined(separator: " "))` failed (status \(result.status)): "
                                        + String(decoding: result.output, as: UTF8.self))
        }
        return elapsed
    }
}
