import Foundation

/// Where categories are kept (the store): the emails still to categorize, the decisions, the
/// user's corrections and what they taught about senders.
public protocol CategoryRepository: Sendable {
    /// Emails no one has categorized yet — and, when `includingFallback`, those only the
    /// fallback decided — newest first.
    func pendingInputs(limit: Int, includingFallback: Bool) async throws -> [CategorizationInput]
    /// The inputs of these emails (those that exist), whatever their state.
    func inputs(emailIds: [String]) async throws -> [CategorizationInput]
    /// Stores decisions by email id, never replacing a user's, and brings the threads'
    /// categories up to date. Returns how many emails changed.
    @discardableResult
    func apply(_ decisions: [String: CategoryDecision]) async throws -> Int
    /// An email's category, who decided and why; nil when the email does not exist or no one
    /// has decided.
    func decision(emailId: String) async throws -> CategoryDecision?
    /// The user's category of each of these threads that has one (thread id → category).
    func userCategories(threadIds: Set<String>) async throws -> [String: AICategory]
    /// What the user's corrections taught about these senders of the account (lowercased
    /// address → category).
    func senderCategories(accountId: String, addresses: Set<String>) async throws -> [String: AICategory]
    /// The thread's account, emails and senders; nil when there is no such thread.
    func threadSenders(threadId: String) async throws -> ThreadSenders?
    /// Puts every email of the thread in the category of `decision` (a user's choice).
    /// Returns how many emails changed.
    @discardableResult
    func setThreadDecision(threadId: String, _ decision: CategoryDecision) async throws -> Int
    /// Remembers that mail from `address` goes in the decision's category and moves that
    /// sender's machine-decided mail there now. Returns how many emails moved. `address` may
    /// be a mailing list's key (`CategorizationInput.listKey`): its later mail follows.
    @discardableResult
    func teach(accountId: String, address: String, _ decision: CategoryDecision, at date: Date) async throws -> Int
    /// The account's own addresses, lowercased.
    func ownAddresses(accountId: String) async throws -> Set<String>
}
