import Foundation
import VaultMailCore
import VaultMailStore

extension CommandSession {
    /// The store's categories.
    public var categoryRepository: GRDBCategoryRepository { GRDBCategoryRepository(database: database) }

    /// `vaultmail categorize THREAD-ID CATEGORY`: the user's correction. The conversation
    /// takes the category for good and its senders' mail follows.
    public func categorize(_ threadPrefix: String, as category: AICategory) async throws -> String {
        guard category != .uncategorized else {
            throw CommandError("'uncategorized' is not a category you can choose: use primary, social, promotions, updates or forums", usage: true)
        }
        let id = try await threadId(threadPrefix)
        let outcome = try await RecategorizeThreadUseCase(repository: categoryRepository).recategorize(threadId: id, to: category)
        var line = "categorize: conversation \(id.prefix(ThreadRow.idLength)) is now in \(category.rawValue) (\(outcome.threadEmails) message\(outcome.threadEmails == 1 ? "" : "s"))"
        let taught = outcome.sendersTaught + outcome.listsTaught.map { "the list <\($0)>" }
        if !taught.isEmpty {
            line += "; later mail from \(taught.joined(separator: ", ")) follows"
            if outcome.otherEmailsMoved > 0 {
                line += ", and \(outcome.otherEmailsMoved) other message\(outcome.otherEmailsMoved == 1 ? "" : "s") moved with it"
            }
        }
        return line
    }

    /// `vaultmail why-category EMAIL-ID`: an email's category, who decided it and why.
    public func whyCategory(_ emailPrefix: String, json: Bool) async throws -> String {
        let id = try await emailId(emailPrefix)
        let decision = try await categoryRepository.decision(emailId: id)
        if json {
            return try ThreadJSON.encode(CategoryJSON(emailId: id, decision: decision))
        }
        guard let decision else {
            return "\(id.prefix(ThreadRow.idLength)): not categorized yet; `vaultmail sync` (or the daemon) categorizes new mail"
        }
        return """
            \(id.prefix(ThreadRow.idLength)): \(decision.category.rawValue)
            decided by: \(Self.describe(decision.source))
            because: \(decision.reason)
            """
    }

    /// Categorizes every email waiting for a category (after a sync): header rules always,
    /// the model when `embedder` is given and its model installed. `progress` hears a line
    /// every 640 emails (a first sync of a large mailbox). Returns a summary line, or nil when
    /// nothing was waiting.
    public func categorizeWaitingMail(embedder: (any TextEmbedder)?,
                                      progress: (@Sendable (String) -> Void)? = nil) async throws -> String? {
        let model = embedder.map { ModelCategorizer(embedder: $0) }
        let use = CategorizeEmailsUseCase(repository: categoryRepository, model: model)
        let count = try await use.categorizePending { done in
            if done % (use.batchSize * 10) == 0 { progress?("categorizing new mail: \(done) done…") }
        }
        guard count > 0 else { return nil }
        let withModel = await model?.isAvailable() ?? false
        return "categorized \(count) message\(count == 1 ? "" : "s")" + (withModel ? "" : " by their headers (no model installed: `vaultmail ai download \(AIModelCatalog.embeddingModelId)` for the rest)")
    }

    static func describe(_ source: CategorySource) -> String {
        switch source {
        case .user: return "you (this conversation)"
        case .sender: return "you (this sender)"
        case .header: return "its headers"
        case .model: return "the on-device model"
        case .fallback: return "no one yet (fallback)"
        }
    }
}

/// The JSON of `vaultmail why-category --json`: every key always present, null when the
/// email has no category yet.
struct CategoryJSON: Encodable {
    var emailId: String
    var decision: CategoryDecision?

    enum CodingKeys: String, CodingKey { case emailId, category, source, reason }

    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(emailId, forKey: .emailId)
        try keys.encode(decision?.category.rawValue, forKey: .category)
        try keys.encode(decision?.source.rawValue, forKey: .source)
        try keys.encode(decision?.reason, forKey: .reason)
    }
}
