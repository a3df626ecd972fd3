import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// The llama.cpp engine over the real SmolLM2-135M-Instruct GGUF (AC-A-01, AC-A-02).
@Suite("LlamaEngine", .serialized)
struct LlamaEngineTests {
    static let question = [
        ChatTurn(.system, "You answer in one short sentence."),
        ChatTurn(.user, "What is the capital of France?"),
    ]

    @Test("says no model is available in a folder without a GGUF file, and refuses to generate unloaded")
    func unavailableWithoutModel() throws {
        let engine = LlamaEngine()
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(!engine.isModelAvailable(at: empty))
        #expect(!engine.isModelLoaded)
        #expect(throws: AIError.modelNotLoaded) {
            _ = try engine.generate(GenerationRequest(turns: Self.question)) { _ in true }
        }
        #expect(throws: AIError.self) { try engine.load(from: empty) }
    }

    @Test("a file that is not GGUF is refused with an error naming it")
    func corruptModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a model".utf8).write(to: folder.appendingPathComponent("broken.gguf"))
        let engine = LlamaEngine()
        #expect(engine.isModelAvailable(at: folder))
        do {
            try engine.load(from: folder)
            Issue.record("a broken file loaded")
        } catch let error as AIError {
            #expect(error.description.contains("broken.gguf"))
        }
        #expect(!engine.isModelLoaded)
    }

    @Test("loads the GGUF model, answers a simple prompt coherently, streams pieces, and unloads")
    func generatesAndUnloads() throws {
        let directory = try AIModelFixture.installedGenerationDirectory()
        let engine = LlamaEngine(threads: 2)
        try engine.load(from: directory)
        #expect(engine.isModelLoaded)
        var pieces: [String] = []
        let statistics = try engine.generate(GenerationRequest(turns: Self.question, maxTokens: 24)) { piece in
            pieces.append(piece)
            return true
        }
        let answer = pieces.joined()
        #expect(answer.contains("Paris"), "answer: \(answer)")
        #expect(pieces.count > 1, "the text arrives in pieces as it is decoded")
        #expect(statistics.generatedTokens > 0 && statistics.generatedTokens <= 24)
        #expect(statistics.promptTokens > 10)
        #expect(statistics.timeToFirstToken <= statistics.total)
        engine.unload()
        #expect(!engine.isModelLoaded)
        #expect(throws: AIError.modelNotLoaded) {
            _ = try engine.generate(GenerationRequest(turns: Self.question)) { _ in true }
        }
    }

    @Test("stops at a stop string without emitting it, at the token limit, and when the reader says stop")
    func stopConditions() throws {
        let engine = LlamaEngine(threads: 2)
        try engine.load(from: try AIModelFixture.installedGenerationDirectory())
        defer { engine.unload() }
        let count = [ChatTurn(.user, "Count from 1 to 20, separated by commas.")]

        var text = ""
        _ = try engine.generate(GenerationRequest(turns: count, answerPrefix: "1, 2, 3,", maxTokens: 60, stop: ["6"])) { text += $0; return true }
        #expect(!text.contains("6"), "text: \(text)")
        #expect(text.contains("4, 5"), "text: \(text)")

        let limited = try engine.generate(GenerationRequest(turns: count, maxTokens: 5)) { _ in true }
        #expect(limited.generatedTokens == 5)

        var calls = 0
        let stopped = try engine.generate(GenerationRequest(turns: count, maxTokens: 60)) { _ in calls += 1; return calls < 3 }
        #expect(calls == 3)
        #expect(stopped.generatedTokens <= 4)
    }

    @Test("the answer continues the given opening, and a second request is not confused by the first")
    func answerPrefixAndFreshContext() throws {
        let engine = LlamaEngine(threads: 2)
        try engine.load(from: try AIModelFixture.installedGenerationDirectory())
        defer { engine.unload() }
        var first = ""
        _ = try engine.generate(GenerationRequest(turns: Self.question, maxTokens: 16)) { first += $0; return true }
        var again = ""
        _ = try engine.generate(GenerationRequest(turns: Self.question, maxTokens: 16)) { again += $0; return true }
        #expect(first == again, "greedy decoding over a cleared context repeats itself")
        var continued = ""
        _ = try engine.generate(GenerationRequest(turns: Self.question, answerPrefix: "The capital of France is", maxTokens: 8)) {
            continued += $0
            return true
        }
        #expect(continued.contains("Paris"), "continued: \(continued)")
        #expect(!continued.contains("The capital of France is"), "the opening is not repeated")
    }

    @Test("a prompt that begins like the last one reuses its context and writes what a fresh context writes")
    func sharedPrefix() throws {
        let directory = try AIModelFixture.installedGenerationDirectory()
        func request(_ task: String) -> GenerationRequest {
            GenerationRequest(turns: [
                ChatTurn(.system, "You write short email replies."),
                ChatTurn(.user, "Email from Anna: can you meet at 3pm tomorrow to go over the budget?\n\n\(task)"),
            ], answerPrefix: "", maxTokens: 20, stop: ["\n"])
        }
        let accept = request("Write a reply that says yes.")
        let decline = request("Write a reply that politely says no.")
        let warm = LlamaEngine(threads: 2)
        try warm.load(from: directory)
        defer { warm.unload() }
        _ = try warm.generate(accept) { _ in true }
        var reused = ""
        let statistics = try warm.generate(decline) { reused += $0; return true }
        let cold = LlamaEngine(threads: 2)
        try cold.load(from: directory)
        defer { cold.unload() }
        var fresh = ""
        let coldStatistics = try cold.generate(decline) { fresh += $0; return true }
        #expect(reused == fresh)
        #expect(statistics.promptTokens == coldStatistics.promptTokens)
        #expect(coldStatistics.reusedPromptTokens == 0)
        #expect(statistics.reusedPromptTokens > 20 && statistics.reusedPromptTokens < statistics.promptTokens,
                "only the differing end is evaluated: \(statistics.reusedPromptTokens) of \(statistics.promptTokens) reused")
    }

    @Test("a prompt longer than the context is refused with the sizes")
    func promptTooLong() throws {
        let engine = LlamaEngine(contextTokens: 256, threads: 2)
        try engine.load(from: try AIModelFixture.installedGenerationDirectory())
        defer { engine.unload() }
        let long = String(repeating: "budget meeting tomorrow ", count: 200)
        #expect {
            _ = try engine.generate(GenerationRequest(turns: [ChatTurn(.user, long)], maxTokens: 32)) { _ in true }
        } throws: { error in
            guard case AIError.promptTooLong(let tokens, let limit) = error else { return false }
            return tokens > limit && limit == 224
        }
    }
}
