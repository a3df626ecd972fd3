import Foundation

/// One turn of a conversation with an instruction-tuned model.
public struct ChatTurn: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable {
        case system, user, assistant
    }

    public var role: Role
    public var text: String

    public init(_ role: Role, _ text: String) {
        self.role = role
        self.text = text
    }
}

/// What to generate: the conversation (formatted with the model's own chat template), the
/// words the answer must start with, and when to stop.
public struct GenerationRequest: Sendable, Hashable {
    public var turns: [ChatTurn]
    /// Text the answer begins with, given to the model after its turn opens; the generated
    /// text continues it and does not repeat it.
    public var answerPrefix: String
    /// The most tokens generated.
    public var maxTokens: Int
    /// Generation stops before any of these (a newline ends a one-line reply).
    public var stop: [String]
    /// Requests with the same key supersede each other: a queued one is dropped when a newer
    /// one with its key arrives (the user opened another message, typed on).
    public var key: String?
    /// Generation stops at the first piece written after this instant (nil: no limit), and
    /// the text so far is the answer.
    public var deadline: ContinuousClock.Instant?

    public init(turns: [ChatTurn], answerPrefix: String = "", maxTokens: Int = 96, stop: [String] = [], key: String? = nil,
                deadline: ContinuousClock.Instant? = nil) {
        self.turns = turns
        self.answerPrefix = answerPrefix
        self.maxTokens = maxTokens
        self.stop = stop
        self.key = key
        self.deadline = deadline
    }
}

/// The spec's AIEngineProtocol for a generative model (AC-A-01, AC-A-02): llama.cpp over a
/// GGUF file in `VaultMailAI`, or any other engine that can continue a chat. Its work blocks the
/// calling thread: `GenerationSession` calls it on a thread of its own, never on the
/// cooperative pool, one call at a time.
public protocol GenerativeEngine: AIEngine {
    /// Loads the model in `directory`; a second call with the same folder does nothing.
    func load(from directory: URL) throws
    /// Frees the model's memory. Safe to call when nothing is loaded.
    func unload()
    var isModelLoaded: Bool { get }
    /// Generates for `request`. `emit` receives each piece of text as it is decoded and
    /// returns false to stop. Throws `AIError.modelNotLoaded` when no model is in memory.
    func generate(_ request: GenerationRequest, emit: (String) -> Bool) throws -> GenerationStatistics
}

extension GenerativeEngine {
    public func loadModel(path directory: URL) async throws { try load(from: directory) }
    public func unloadModel() async { unload() }
    public var isLoaded: Bool { get async { isModelLoaded } }
}

/// What one generation cost.
public struct GenerationStatistics: Sendable, Hashable {
    public var promptTokens: Int
    /// Prompt tokens the engine did not evaluate again: the beginning it shared with the last prompt.
    public var reusedPromptTokens: Int
    public var generatedTokens: Int
    /// From the request's start to the first generated token (the prompt's evaluation).
    public var timeToFirstToken: Duration
    public var total: Duration

    public init(promptTokens: Int, reusedPromptTokens: Int = 0, generatedTokens: Int, timeToFirstToken: Duration, total: Duration) {
        self.promptTokens = promptTokens
        self.reusedPromptTokens = reusedPromptTokens
        self.generatedTokens = generatedTokens
        self.timeToFirstToken = timeToFirstToken
        self.total = total
    }

    public var tokensPerSecond: Double {
        let decoding = (total - timeToFirstToken) / .seconds(1)
        return decoding > 0 ? Double(max(generatedTokens - 1, 0)) / decoding : 0
    }
}

/// What features (smart replies, summaries) use to write text. `GenerationSession`
/// implements it over any `GenerativeEngine`: one request at a time, on a thread of its own.
public protocol TextGenerator: Sendable {
    /// The catalog id of the model that writes.
    var modelId: String { get }
    /// True when the model is installed (it may not be loaded yet).
    func isAvailable() async -> Bool
    /// Streams the generated text in pieces as the model writes them. Throws
    /// `AIError.modelNotInstalled` when there is no model, `CancellationError` when a newer
    /// request with the same key superseded it before it ran. Ending the stream's consumer
    /// stops the generation.
    func generate(_ request: GenerationRequest) -> AsyncThrowingStream<String, any Error>
}

extension TextGenerator {
    /// The whole generated text.
    public func complete(_ request: GenerationRequest) async throws -> String {
        var text = ""
        for try await piece in generate(request) { text += piece }
        return text
    }

    /// The text generated before `deadline`, and whether the deadline was reached: the
    /// generator stops at the first piece written after it (a slow or busy machine gets less,
    /// never later) and this returns once it has stopped.
    public func complete(_ request: GenerationRequest, until deadline: ContinuousClock.Instant) async throws -> (text: String, cut: Bool) {
        var request = request
        request.deadline = deadline
        let text = try await complete(request)
        return (text, ContinuousClock.now >= deadline)
    }
}
