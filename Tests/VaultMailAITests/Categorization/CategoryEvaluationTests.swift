import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// Quality, measured: accuracy and per-category precision and recall on the evaluation set
/// (docs/ai-evaluation.md), without and with the model. Each test fails when accuracy drops
/// below what was measured, less a margin. The model must be installed (`make deps`).
@Suite("Categorization: evaluation set")
struct CategoryEvaluationTests {
    /// Measured on this set (docs/ai.md, "Categories"); a change that loses more than
    /// `margin` fails.
    static let measuredHeaderOnly = 0.930
    static let measuredWithModel = 0.951
    static let measuredModelOnly = 0.708
    static let margin = 0.03

    static let evaluation = Result { try CategoryEvaluation() }

    static func model() throws -> ModelCategorizer {
        let library = FixedModelLibrary([AIModelCatalog.embeddingModelId: try AIModelFixture.installedMiniLMDirectory()])
        return ModelCategorizer(embedder: AIModelSession(engine: MiniLMEngine(), library: library, modelId: AIModelCatalog.embeddingModelId))
    }

    static func report(_ scores: CategoryEvaluation.Scores, elapsed: Duration? = nil) {
        print(scores)
        if let elapsed { print("  (\(scores.total) messages in \(elapsed))") }
        for miss in scores.misses { print("  miss: \(miss)") }
    }

    @Test("Header rules alone (no model): accuracy stays at what was measured")
    func headerOnly() throws {
        let evaluation = try Self.evaluation.get()
        let scores = evaluation.score("header rules, no model", evaluation.headerOnly())
        Self.report(scores)
        #expect(scores.total >= 200, "the set has \(scores.total) messages; is ../shared/test-material there?")
        #expect(scores.accuracy >= Self.measuredHeaderOnly - Self.margin,
                "header-only accuracy \(scores.accuracy) fell below the measured \(Self.measuredHeaderOnly) − \(Self.margin)")
    }

    @Test("Header rules, then the model for the rest: accuracy stays at what was measured", .timeLimit(.minutes(2)))
    func withModel() async throws {
        let evaluation = try Self.evaluation.get()
        let model = try Self.model()
        let started = ContinuousClock.now
        let scores = evaluation.score("header rules + model", try await evaluation.withModel(model))
        Self.report(scores, elapsed: ContinuousClock.now - started)
        #expect(scores.accuracy >= Self.measuredWithModel - Self.margin,
                "accuracy with the model \(scores.accuracy) fell below the measured \(Self.measuredWithModel) − \(Self.margin)")
    }

    @Test("The model alone, no header rule (what it adds on its own): accuracy stays at what was measured", .timeLimit(.minutes(2)))
    func modelOnly() async throws {
        let evaluation = try Self.evaluation.get()
        let model = try Self.model()
        let decisions = try await model.decide(evaluation.samples.map(\.input), leans: [])
        let scores = evaluation.score("model alone", decisions.map(\.category))
        Self.report(scores)
        #expect(scores.accuracy >= Self.measuredModelOnly - Self.margin,
                "accuracy of the model alone \(scores.accuracy) fell below the measured \(Self.measuredModelOnly) − \(Self.margin)")
    }
}
