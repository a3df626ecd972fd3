import Foundation
import Testing
import VaultMailCore

/// Quality, measured: accuracy and per-category precision and recall on the evaluation set
/// (docs/ai-evaluation.md). Fails when accuracy drops below what was measured, less a margin.
@Suite("Categorization: evaluation set")
struct CategoryEvaluationTests {
    /// Measured on this set (docs/ai.md, "Categories"); a change that loses more than
    /// `margin` fails.
    static let measuredHeaderOnly = 0.930
    static let margin = 0.03

    @Test("Header rules alone (no model): accuracy stays at what was measured")
    func headerOnly() throws {
        let evaluation = try CategoryEvaluation()
        let scores = evaluation.score("header rules, no model", evaluation.headerOnly())
        print(scores)
        for miss in scores.misses { print("  miss: \(miss)") }
        #expect(scores.total >= 200, "the set has \(scores.total) messages; is ../shared/test-material there?")
        #expect(scores.accuracy >= Self.measuredHeaderOnly - Self.margin,
                "header-only accuracy \(scores.accuracy) fell below the measured \(Self.measuredHeaderOnly) − \(Self.margin)")
    }
}
