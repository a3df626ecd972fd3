import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// The category evaluation set (`Tests/Fixtures/category-eval/labels.tsv`, rules in
/// docs/ai-evaluation.md): labelled messages read through the production MIME parser and
/// header reader, scored with and without the model.
struct CategoryEvaluation {
    struct Sample {
        let path: String
        let label: AICategory
        let input: CategorizationInput
    }

    /// Accuracy and per-category precision and recall of one way of categorizing.
    struct Scores: CustomStringConvertible {
        let name: String
        let total: Int
        let correct: Int
        /// [label][predicted] → count
        let confusion: [AICategory: [AICategory: Int]]
        let misses: [String]

        var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }

        func precision(_ category: AICategory) -> Double {
            let predicted = confusion.values.reduce(0) { $0 + ($1[category] ?? 0) }
            return predicted == 0 ? 0 : Double(confusion[category]?[category] ?? 0) / Double(predicted)
        }

        func recall(_ category: AICategory) -> Double {
            let labelled = confusion[category]?.values.reduce(0, +) ?? 0
            return labelled == 0 ? 0 : Double(confusion[category]?[category] ?? 0) / Double(labelled)
        }

        var description: String {
            var lines = ["\(name): accuracy \(Self.percent(accuracy)) (\(correct) of \(total))",
                         "  category     n  precision  recall"]
            for category in CategoryEvaluation.categories {
                let count = confusion[category]?.values.reduce(0, +) ?? 0
                lines.append("  \(category.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(String(format: "%3d", count))  \(Self.percent(precision(category)).leftPad(9))  \(Self.percent(recall(category)).leftPad(6))")
            }
            return lines.joined(separator: "\n")
        }

        static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
    }

    static let categories: [AICategory] = [.primary, .social, .promotions, .updates, .forums]
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/category-eval")
    /// The evaluation's user, when a message does not say whom it was delivered to.
    static let user = "me@example.com"

    let samples: [Sample]

    init() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("labels.tsv"), encoding: .utf8)
        let parser = GMimeMessageParser()
        var samples: [Sample] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 2, let label = AICategory(rawValue: fields[0]) else {
                throw EvaluationError("labels.tsv: cannot read the line '\(line)'")
            }
            let raw: [UInt8]
            if fields[1].hasPrefix("shared/") {
                raw = try TestMaterial.bytes("", String(fields[1].dropFirst("shared/".count)))
            } else {
                raw = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(fields[1])))
            }
            samples.append(Sample(path: fields[1], label: label, input: Self.input(raw, parser: parser, id: fields[1])))
        }
        self.samples = samples
    }

    /// What the store would hand the categorizer for this message.
    static func input(_ raw: [UInt8], parser: GMimeMessageParser, id: String) -> CategorizationInput {
        let parsed = parser.parse(raw)
        let headers = MessageHeaderFields.parse(raw.prefix(32_768))
        let user = headers["delivered-to"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) } ?? Self.user
        return CategorizationInput(
            emailId: id, accountId: "eval", threadId: id, from: parsed.sender ?? Participant(email: ""),
            to: parsed.to, cc: parsed.cc, subject: parsed.subject,
            openingText: CategorizationInput.openingText(body: parsed.textPlain, snippet: parsed.snippet),
            headers: headers, isReply: parsed.inReplyTo != nil || !parsed.references.isEmpty, ownAddresses: [user])
    }

    /// The categories without a model: the header rules' decision, else their lean, else
    /// primary — what `CategorizeEmailsUseCase` stores when no model is installed.
    func headerOnly() -> [AICategory] {
        samples.map { sample in
            switch HeaderCategoryRules.evaluate(sample.input) {
            case .decided(let decision): return decision.category
            case .lean(let lean): return lean.category
            case .undecided: return .primary
            }
        }
    }

    /// The categories with the model: the header rules' decision, else the model weighing
    /// their lean.
    func withModel(_ model: ModelCategorizer) async throws -> [AICategory] {
        var result = [AICategory](repeating: .primary, count: samples.count)
        var open: [(index: Int, input: CategorizationInput, lean: CategoryLean?)] = []
        for (index, sample) in samples.enumerated() {
            switch HeaderCategoryRules.evaluate(sample.input) {
            case .decided(let decision): result[index] = decision.category
            case .lean(let lean): open.append((index, sample.input, lean))
            case .undecided: open.append((index, sample.input, nil))
            }
        }
        let decisions = try await model.decide(open.map(\.input), leans: open.map(\.lean))
        for (entry, decision) in zip(open, decisions) { result[entry.index] = decision.category }
        return result
    }

    func score(_ name: String, _ predicted: [AICategory]) -> Scores {
        var confusion: [AICategory: [AICategory: Int]] = [:]
        var correct = 0
        var misses: [String] = []
        for (sample, guess) in zip(samples, predicted) {
            confusion[sample.label, default: [:]][guess, default: 0] += 1
            if guess == sample.label {
                correct += 1
            } else {
                misses.append("\(sample.label.rawValue) → \(guess.rawValue): \(sample.path) '\(sample.input.subject.prefix(60))'")
            }
        }
        return Scores(name: name, total: samples.count, correct: correct, confusion: confusion, misses: misses)
    }
}

struct EvaluationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
