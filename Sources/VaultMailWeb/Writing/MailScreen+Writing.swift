import Foundation
import VaultMailCore

extension MailScreen {
    /// The summary panel a conversation opens with: its current summary when one is stored (a
    /// revisit never writes it again); else one that new mail made stale, with Refresh; else
    /// "Summarizing…" for conversations summarized when opened (3+ messages, the setting on,
    /// the machine idle), which the page's script fetches; else the Summarize button. Nil where no summaries are
    /// written. Reading the store never waits for the model.
    func summaryPanel(threadId: String, messageCount: Int) async -> SummaryPanel? {
        guard let summaries = mail.summaries else { return nil }
        let automatic = await mail.preferences.autoSummarize()
            && messageCount >= SummarizeThreadUseCase.automaticMinimumMessages && mail.idleness.isIdle()
        do {
            if let current = try await summaries.cached(threadId: threadId) {
                return SummaryPanel(threadId: threadId, state: .summary(current, stale: false))
            }
            if let stored = try await summaries.stored(threadId: threadId) {
                return SummaryPanel(threadId: threadId, state: .summary(stored, stale: true), automatic: automatic)
            }
        } catch {
            return SummaryPanel(threadId: threadId, state: .failed(PlainProblem(error).led(by: "The summary could not be read. ")))
        }
        return SummaryPanel(threadId: threadId, state: automatic ? .pending : .offer, automatic: automatic)
    }
}
