import Foundation
import Synchronization
import VaultMailCore

/// A `TextGenerator` for tests of what writes with a model (smart replies, summaries) apart
/// from the model: it answers each request by the first rule whose text occurs in the
/// request's turns (its instruction, the mail), streams the answer a word at a time, stops
/// before any of the request's stop strings as the engine does, and records every request.
/// Tests of what the real model writes use the real model.
public final class ScriptedTextGenerator: TextGenerator {
    /// An answer, or a failure, for requests whose turns contain `match`.
    public struct Rule: Sendable {
        public var match: String
        public var answer: String
        public var error: (any Error)?

        public init(match: String, answer: String) {
            self.match = match
            self.answer = answer
            self.error = nil
        }

        public init(match: String, error: any Error) {
            self.match = match
            self.answer = ""
            self.error = error
        }
    }

    public let modelId: String
    private let state: Mutex<State>

    private struct State {
        var rules: [Rule]
        var fallback: String
        var installed: Bool
        var requests: [GenerationRequest] = []
    }

    /// `rules` are tried in order; a request no rule matches gets `fallback`. Not `installed`,
    /// every request throws `AIError.modelNotInstalled`.
    public init(modelId: String = "scripted-writer", rules: [Rule] = [], fallback: String = "", installed: Bool = true) {
        self.modelId = modelId
        state = Mutex(State(rules: rules, fallback: fallback, installed: installed))
    }

    /// Answers requests containing `match` with `answer` (tried before the rules given earlier).
    public func answer(_ match: String, with answer: String) {
        state.withLock { $0.rules.insert(Rule(match: match, answer: answer), at: 0) }
    }

    /// Fails requests containing `match` with `error`.
    public func fail(_ match: String, with error: any Error) {
        state.withLock { $0.rules.insert(Rule(match: match, error: error), at: 0) }
    }

    public func setInstalled(_ installed: Bool) {
        state.withLock { $0.installed = installed }
    }

    /// Every request received, in order.
    public var requests: [GenerationRequest] {
        state.withLock { $0.requests }
    }

    public func isAvailable() async -> Bool {
        state.withLock { $0.installed }
    }

    public func generate(_ request: GenerationRequest) -> AsyncThrowingStream<String, any Error> {
        let (installed, rule, fallback) = state.withLock { state -> (Bool, Rule?, String) in
            state.requests.append(request)
            let text = request.turns.map(\.text).joined(separator: "\n")
            return (state.installed, state.rules.first { text.contains($0.match) }, state.fallback)
        }
        let modelId = modelId
        return AsyncThrowingStream { continuation in
            guard installed else {
                continuation.finish(throwing: AIError.modelNotInstalled(modelId: modelId, feature: "smart replies and summaries"))
                return
            }
            if let error = rule?.error {
                continuation.finish(throwing: error)
                return
            }
            var answer = rule?.answer ?? fallback
            for stop in request.stop where !stop.isEmpty {
                if let range = answer.range(of: stop) { answer = String(answer[..<range.lowerBound]) }
            }
            // A word (with the space before it) a piece, as tokens arrive.
            var piece = ""
            for character in answer {
                if character == " ", !piece.isEmpty, piece != " " {
                    continuation.yield(piece)
                    piece = ""
                }
                piece.append(character)
            }
            if !piece.isEmpty { continuation.yield(piece) }
            continuation.finish()
        }
    }
}
