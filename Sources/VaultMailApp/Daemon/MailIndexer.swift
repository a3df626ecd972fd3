import Foundation
import Logging
import VaultMailCore

/// The daemon's background categorizer: after each sync batch or IDLE delivery it runs
/// `CategorizeEmailsUseCase` at background priority until no email is waiting, then the
/// hooks that index further (the embedding indexer). Requests that arrive while a round runs
/// are coalesced into one more round, so a burst of deliveries costs at most two.
///
/// New mail is notified with its category known when the category filter could suppress it
/// (`categorizeBeforeNotifying`): the header rules take microseconds and the model a few
/// milliseconds an email, so the notification waits for them only when it matters.
public actor MailIndexer {
    private let categorize: CategorizeEmailsUseCase
    private let logger: Logger
    private var hooks: [@Sendable () async -> Void] = []
    private var round: Task<Void, Never>?
    private var again = false
    private var stopped = false
    /// Emails categorized since the indexer started (for logs and tests).
    public private(set) var categorizedCount = 0

    public init(categorize: CategorizeEmailsUseCase, logger: Logger) {
        self.categorize = categorize
        self.logger = logger
    }

    /// Work to run after each round (the embedding indexer), in the order added.
    public func afterEachRound(_ hook: @escaping @Sendable () async -> Void) {
        hooks.append(hook)
    }

    /// New mail before the notification engine sees it: categorized now (header rules, and
    /// the model when installed) and returned with `aiCategory` set. When
    /// `categoryFilterOn` is false (every category notifies) the mail is returned at once and
    /// categorized by the next background round. A failure is logged and the mail notified
    /// as it is (unclassified mail passes the category filter, NOTIF-09).
    public func categorizeBeforeNotifying(_ emails: [Email], categoryFilterOn: Bool) async -> [Email] {
        guard categoryFilterOn, !emails.isEmpty else { return emails }
        do {
            let decisions = try await categorize.categorize(emailIds: emails.map(\.id))
            categorizedCount += decisions.count
            return emails.map { email in
                var email = email
                if let decision = decisions[email.id] { email.aiCategory = decision.category.rawValue }
                return email
            }
        } catch {
            logger.warning("could not categorize \(emails.count) new message(s) before notifying: \(error)")
            return emails
        }
    }

    /// Asks for a background round: starts one, or, while one runs, one more after it.
    public func scheduleRound() {
        guard !stopped else { return }
        if round != nil {
            again = true
            return
        }
        round = Task(priority: .background) { await self.runRounds() }
    }

    /// Waits until no round runs or is asked for.
    public func waitUntilIdle() async {
        while let running = round { await running.value }
    }

    /// Stops asking for rounds and cancels the one running (the daemon is stopping).
    public func stop() async {
        stopped = true
        round?.cancel()
        await waitUntilIdle()
    }

    private func runRounds() async {
        repeat {
            again = false
            do {
                let count = try await categorize.categorizePending()
                categorizedCount += count
                if count > 0 { logger.info("categorized \(count) message(s)") }
            } catch is CancellationError {
                break
            } catch {
                logger.warning("categorizing failed: \(error); the next sync tries again")
            }
            for hook in hooks where !Task.isCancelled { await hook() }
        } while again && !Task.isCancelled
        round = nil
    }
}
