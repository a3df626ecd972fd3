import Foundation
import Testing
import VaultMailTesting

/// The built tool's on-device AI on processors this machine does not have (issue 27): Debian's
/// qemu-user runs the real binary as a Nehalem (SSE4.2, no AVX: x86-64-v2) and as a Haswell
/// (AVX2, FMA, no AVX-512: x86-64-v3), and it runs natively. Each syncs a small conversation
/// against real Dovecot (loading the sentence model and categorizing with it), searches it by
/// meaning, summarizes it and suggests replies with the writing model: every path answers
/// alike and none dies on a signal. The choice of code is read back from `vaultmail ai status`.
@Suite("On-device AI on other processors, under qemu (issue 27)", .serialized)
struct ProcessorPortabilityTests {
    struct Processor: Sendable {
        /// qemu's processor model, nil for this machine's own processor.
        let model: String?
        /// llama.cpp's CPU variant and OpenBLAS's kernels expected on it (nil: whatever fits this machine).
        let llamaVariant: String?
        let openBLASCore: String?

        var testDescription: String { model ?? "native" }
    }

    static let processors = [
        Processor(model: nil, llamaVariant: nil, openBLASCore: nil),
        Processor(model: "Nehalem", llamaVariant: "sse42", openBLASCore: "Nehalem"),
        Processor(model: "Haswell", llamaVariant: "haswell", openBLASCore: "Haswell"),
    ]

    /// What one processor answered.
    struct Answers: Equatable, CustomStringConvertible {
        var category: String?
        var categorySource: String?
        var meaningFirst: String?
        var summaryKind: String?
        var replySource: String?

        var description: String {
            "category \(category ?? "-") by \(categorySource ?? "-"), by meaning first \(meaningFirst ?? "-"), "
                + "summary \(summaryKind ?? "-"), replies by \(replySource ?? "-")"
        }
    }

    @Test("Model load, categorizing, search by meaning, a summary and reply suggestions: the same answers natively, as a Nehalem and as a Haswell",
          .timeLimit(.minutes(45)))
    func aiPaths() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: EndToEndWorld.qemu), "qemu-user is missing: scripts/install-deps.sh installs it")
        var answers: [String: Answers] = [:]
        for processor in Self.processors {
            answers[processor.testDescription] = try await run(on: processor)
        }
        let native = try #require(answers["native"])
        #expect(native == Answers(category: native.category, categorySource: "model", meaningFirst: "Lunch on Friday?",
                                  summaryKind: native.summaryKind, replySource: "model"), "\(native)")
        #expect(["model", "extractiveFallback"].contains(native.summaryKind), "the writing model wrote the summary (kept, or checked and replaced): \(native)")
        for (name, answer) in answers {
            #expect(answer == native, "\(name) answered \(answer); natively: \(native)")
        }
    }

    func run(on processor: Processor) async throws -> Answers {
        var answers = Answers()
        try await EndToEndWorld.with { world in
            let clock = ContinuousClock()
            func run(_ arguments: [String], natively: Bool = false) async throws -> [String: Any] {
                let start = clock.now
                // Emulated, a command runs 100–300 times slower than natively (on this session's AMD
                // EPYC a Haswell's first sync, which loads the sentence model, passed 300 s).
                let output = try await world.vaultmail(arguments, errors: false, emulating: natively ? nil : processor.model, timeout: .seconds(900))
                print("\(processor.testDescription): vaultmail \(arguments.joined(separator: " ")): \(clock.now - start)")
                #expect(output.status == 0, "vaultmail \(arguments.joined(separator: " ")) on \(processor.testDescription) exited \(output.status): \(output.text)")
                return arguments.contains("--json") ? try ToolJSON.object(output.text) : ["text": output.text]
            }
            try await installModels(world)
            let asking = "<lunch-1@example.org>"
            try world.deliver(EndToEndWorld.message(
                "Lunch on Friday?", from: "Grace Hopper <grace@example.org>", messageId: asking,
                body: "Hi Ada, are you free for lunch on Friday at noon? The new Thai place opened next to the office."))
            try world.deliver(EndToEndWorld.message(
                "Re: Lunch on Friday?", from: "Grace Hopper <grace@example.org>",
                headers: ["In-Reply-To: \(asking)", "References: \(asking)"],
                body: "I can book a table for two if you like. Let me know by Thursday."))
            // Bulk mail the headers leave to the sentence model.
            try world.deliver(EndToEndWorld.message(
                "Your weekly picks", from: "Corner Shop <noreply@shop.example>", headers: ["Precedence: bulk"],
                body: "New arrivals this week: linen shirts, summer dresses and sandals in every size."))
            try await world.addAccount()

            // The sync loads the sentence model and categorizes the new mail with it. It runs
            // natively: emulated, a Haswell's took over 7 minutes on this session's processor, and
            // the same kernels are run emulated below by the search by meaning (the query's vector).
            _ = try await run(["sync"], natively: true)
            let status = try await run(["ai", "status"])["text"] as? String ?? ""
            if let variant = processor.llamaVariant {
                #expect(status.contains("writing model: llama.cpp \(variant) "), "\(status)")
            }
            if let core = processor.openBLASCore {
                #expect(status.contains("sentence model: OpenBLAS \(core) kernels"), "\(status)")
            }
            let found = try await run(["search", "--json", "--messages", "arrivals"])
            let bulkId = try #require((found["results"] as? [[String: Any]])?.first?["id"] as? String, "\(found)")
            let why = try await run(["why-category", bulkId, "--json"])
            answers.category = why["category"] as? String
            answers.categorySource = why["source"] as? String

            let meaning = try await run(["search", "--semantic", "--json", "a meal together this week"])
            let first = (meaning["results"] as? [[String: Any]])?.first
            answers.meaningFirst = (first?["subject"] as? String).map { $0.hasPrefix("Re: ") ? String($0.dropFirst(4)) : $0 }
            let threadId = try #require(first?["threadId"] as? String ?? first?["id"] as? String, "\(meaning)")

            let summary = try await run(["summarize", threadId, "--json"])
            answers.summaryKind = summary["kind"] as? String
            #expect(((summary["text"] as? String) ?? "").count > 20, "\(summary)")

            let replies = try await run(["reply-suggest", threadId, "--json"])
            answers.replySource = replies["source"] as? String
            let suggestions = (replies["suggestions"] as? [[String: Any]]) ?? []
            #expect(!suggestions.isEmpty && suggestions.allSatisfy { !(($0["text"] as? String) ?? "").isEmpty }, "\(replies)")
        }
        return answers
    }

    /// Both on-device models, from the files `make deps` fetched, installed natively.
    func installModels(_ world: EndToEndWorld) async throws {
        let miniLM = try AIModelFixture.installedMiniLMDirectory()
        let embedding = try await world.vaultmail(["ai", "install", "all-minilm-l6-v2", miniLM.path])
        try #require(embedding.status == 0, "\(embedding.text)")
        let writer = try AIModelFixture.installedGenerationDirectory()
        let generation = try await world.vaultmail(["ai", "install", "smollm2-135m-instruct", writer.path])
        try #require(generation.status == 0, "\(generation.text)")
    }
}
