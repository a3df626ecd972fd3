import Foundation

/// Gives each email one of primary, social, promotions, updates, forums, with who decided and
/// why (AC-A-04, AC-A-04b). For each email the first that applies decides:
/// 1. the user's choice for its conversation (new mail in a corrected thread follows it);
/// 2. what the user taught about its sender, or about its mailing list for list mail
///    (`RecategorizeThreadUseCase`);
/// 3. the header rules (`HeaderCategoryRules`), when they decide;
/// 4. the model (`ModelCategorizer`), weighing the rules' lean, when a model is installed;
/// 5. the fallback: the rules' lean, else primary, read again once a model is installed.
/// A user's decision is never replaced.
public struct CategorizeEmailsUseCase: Sendable {
    private let repository: any CategoryRepository
    private let model: ModelCategorizer?
    /// Emails read and written per transaction.
    public let batchSize: Int

    public init(repository: any CategoryRepository, model: ModelCategorizer?, batchSize: Int = 64) {
        self.repository = repository
        self.model = model
        self.batchSize = max(1, batchSize)
    }

    /// Categorizes waiting emails, newest first, batch after batch until none is left (or
    /// `maxBatches` ran). With a model installed, emails the fallback decided are read again.
    /// Returns how many emails it decided; `progress` hears the running count after each batch.
    @discardableResult
    public func categorizePending(maxBatches: Int = .max, progress: (@Sendable (Int) -> Void)? = nil) async throws -> Int {
        var useModel = await model?.isAvailable() ?? false
        var decided = 0
        var batches = 0
        while batches < maxBatches {
            try Task.checkCancellation()
            let inputs = try await repository.pendingInputs(limit: batchSize, includingFallback: useModel)
            if inputs.isEmpty { break }
            let outcome = try await decide(inputs, useModel: useModel)
            // A model that failed (removed meanwhile) leaves fallbacks: stop re-reading them.
            if outcome.modelFailed { useModel = false }
            try await repository.apply(outcome.decisions)
            decided += outcome.decisions.count
            batches += 1
            progress?(decided)
        }
        return decided
    }

    /// Categorizes these emails now (new mail, before it is notified) unless someone already
    /// did; returns the decisions made, by email id.
    @discardableResult
    public func categorize(emailIds: [String]) async throws -> [String: CategoryDecision] {
        guard !emailIds.isEmpty else { return [:] }
        let useModel = await model?.isAvailable() ?? false
        var all: [String: CategoryDecision] = [:]
        for start in stride(from: 0, to: emailIds.count, by: batchSize) {
            let chunk = Array(emailIds[start..<min(start + batchSize, emailIds.count)])
            let inputs = try await repository.inputs(emailIds: chunk)
                .filter { $0.currentSource == nil || $0.currentSource == .fallback && useModel }
            guard !inputs.isEmpty else { continue }
            let outcome = try await decide(inputs, useModel: useModel)
            try await repository.apply(outcome.decisions)
            all.merge(outcome.decisions) { _, new in new }
        }
        return all
    }

    /// The decisions for `inputs` (none of them a user's), in the order of the type's doc.
    func decide(_ inputs: [CategorizationInput], useModel: Bool) async throws -> (decisions: [String: CategoryDecision], modelFailed: Bool) {
        var decisions: [String: CategoryDecision] = [:]
        let threadChoices = try await repository.userCategories(threadIds: Set(inputs.map(\.threadId)))
        var taught: [String: [String: AICategory]] = [:]
        for accountId in Set(inputs.map(\.accountId)) {
            let senders = Set(inputs.filter { $0.accountId == accountId }.map(\.teachingKey))
            taught[accountId] = try await repository.senderCategories(accountId: accountId, addresses: senders)
        }
        var undecided: [(input: CategorizationInput, lean: CategoryLean?)] = []
        for input in inputs where input.currentSource != .user {
            if let category = threadChoices[input.threadId] {
                decisions[input.emailId] = CategoryDecision(
                    category: category, source: .user, reason: "you put this conversation in \(category.rawValue)")
                continue
            }
            let key = input.teachingKey
            if !input.isFromUser, let category = taught[input.accountId]?[key] {
                let from = key.hasPrefix("list:") ? "the mailing list <\(key.dropFirst(5))>" : input.from.email
                decisions[input.emailId] = CategoryDecision(
                    category: category, source: .sender, reason: "you put mail from \(from) in \(category.rawValue)")
                continue
            }
            switch HeaderCategoryRules.evaluate(input) {
            case .decided(let decision): decisions[input.emailId] = decision
            case .lean(let lean): undecided.append((input, lean))
            case .undecided: undecided.append((input, nil))
            }
        }
        var modelFailed = false
        if useModel, let model, !undecided.isEmpty {
            do {
                let made = try await model.decide(undecided.map(\.input), leans: undecided.map(\.lean))
                for (entry, decision) in zip(undecided, made) { decisions[entry.input.emailId] = decision }
                undecided = []
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                modelFailed = true
            }
        }
        for entry in undecided {
            decisions[entry.input.emailId] = fallback(entry.lean)
        }
        return (decisions, modelFailed)
    }

    /// Without a model: the lean, else primary, saying how to get a better answer.
    private func fallback(_ lean: CategoryLean?) -> CategoryDecision {
        let modelId = model?.embedder.modelId ?? AIModelCatalog.embeddingModelId
        let download = AIError.modelNotInstalled(modelId: modelId, feature: "categories").description
        if let lean {
            return CategoryDecision(category: lean.category, source: .fallback,
                                    reason: "likely \(lean.category.rawValue): \(lean.reason). \(download)")
        }
        return CategoryDecision(category: .primary, source: .fallback,
                                reason: "nothing in its headers decided, so it stays in primary until a model reads it. \(download)")
    }
}
