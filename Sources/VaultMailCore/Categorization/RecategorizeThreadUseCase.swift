import Foundation

/// The user's correction (AC-A-04: "manual re-categorization to primary MUST update the
/// stored category"): every email of the conversation takes the category as the user's
/// choice, which the machine never replaces; the conversation's senders (not the user) are
/// remembered, their other machine-decided mail follows at once, and later mail from them
/// is categorized the same way. Mail that came through a mailing list teaches the list, not
/// each of its posters: the list's later mail follows.
public struct RecategorizeThreadUseCase: Sendable {
    private let repository: any CategoryRepository
    private let now: @Sendable () -> Date

    public init(repository: any CategoryRepository, now: @escaping @Sendable () -> Date = Date.init) {
        self.repository = repository
        self.now = now
    }

    /// What a correction changed.
    public struct Outcome: Sendable, Hashable {
        /// Emails of the conversation now in the category.
        public var threadEmails: Int
        /// The senders taught (lowercased addresses).
        public var sendersTaught: [String]
        /// The mailing lists taught (List-Ids).
        public var listsTaught: [String] = []
        /// Other emails of those senders that moved with them.
        public var otherEmailsMoved: Int
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noSuchThread(String)
        case notACategory(String)

        public var description: String {
            switch self {
            case .noSuchThread(let id): return "there is no conversation \(id); `vaultmail threads` lists them"
            case .notACategory(let name): return "'\(name)' is not a category: use primary, social, promotions, updates or forums"
            }
        }
    }

    @discardableResult
    public func recategorize(threadId: String, to category: AICategory) async throws -> Outcome {
        guard category != .uncategorized else { throw Failure.notACategory(category.rawValue) }
        guard let thread = try await repository.threadSenders(threadId: threadId) else { throw Failure.noSuchThread(threadId) }
        let changed = try await repository.setThreadDecision(
            threadId: threadId,
            CategoryDecision(category: category, source: .user, reason: "you put this conversation in \(category.rawValue)"))
        let own = try await repository.ownAddresses(accountId: thread.accountId)
        let senders = thread.senders.filter { !$0.isEmpty && !own.contains($0) }
        var moved = 0
        for sender in senders {
            moved += try await repository.teach(
                accountId: thread.accountId, address: sender,
                CategoryDecision(category: category, source: .sender, reason: "you put mail from \(sender) in \(category.rawValue)"),
                at: now())
        }
        for list in thread.lists {
            moved += try await repository.teach(
                accountId: thread.accountId, address: CategorizationInput.listKey(list),
                CategoryDecision(category: category, source: .sender, reason: "you put mail from the mailing list <\(list)> in \(category.rawValue)"),
                at: now())
        }
        return Outcome(threadEmails: max(changed, thread.emailIds.count) > 0 ? thread.emailIds.count : 0, sendersTaught: senders,
                       listsTaught: thread.lists, otherEmailsMoved: moved)
    }
}
