import Foundation
import Testing

/// The reference implementation's output on a fixed set of texts
/// (Fixtures/minilm-reference.json, written by scripts/reference-embeddings.py with
/// sentence-transformers): each text's token ids and unit vector.
struct MiniLMReference: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var text: String
        var tokenIds: [Int]
        var vector: [Float]

        var testDescription: String {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\(text.unicodeScalars.count) characters: \(shown.debugDescription)"
        }
    }

    var versions: [String: String]
    var maxSeqLength: Int
    var cases: [Case]

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/minilm-reference.json")

    static func load() throws -> MiniLMReference {
        try JSONDecoder().decode(MiniLMReference.self, from: Data(contentsOf: url))
    }

    /// The cases, for `@Test(arguments:)` (empty when the file cannot be read, which the
    /// fixture's own test reports).
    static let cases: [Case] = (try? load().cases) ?? []

    /// Cosine similarity in double precision.
    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        precondition(a.count == b.count, "vectors of \(a.count) and \(b.count) floats")
        var dot = 0.0, normA = 0.0, normB = 0.0
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            normA += Double(x) * Double(x)
            normB += Double(y) * Double(y)
        }
        return dot / (normA.squareRoot() * normB.squareRoot())
    }
}
