/// The application service for the categories of mail (ARCHITECTURE.md, "The application
/// layer"): a message's category with who decided it and why, and the user's correction of a
/// conversation's (`RecategorizeThreadUseCase`, AC-A-04). The `vaultmail` tool
/// (`why-category`, `show --json`, `categorize`) and the web app (a conversation's category,
/// "Move to") both go through it (issue 28).
public struct Categories: Sendable {
    private let repository: any CategoryRepository
    private let recategorizing: RecategorizeThreadUseCase

    public init(repository: any CategoryRepository) {
        self.repository = repository
        recategorizing = RecategorizeThreadUseCase(repository: repository)
    }

    /// The message's category, who decided it and why; nil while it has none.
    public func decision(emailId: String) async throws -> CategoryDecision? {
        try await repository.decision(emailId: emailId)
    }

    /// Puts the conversation in `category` for good; its senders' mail follows.
    @discardableResult
    public func recategorize(threadId: String, to category: AICategory) async throws -> RecategorizeThreadUseCase.Outcome {
        try await recategorizing.recategorize(threadId: threadId, to: category)
    }
}
