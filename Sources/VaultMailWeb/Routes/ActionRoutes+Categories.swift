import VaultMailCore

extension WebApp {
    /// `one=categorize:CATEGORY:THREAD-ID` (or `categorize:CATEGORY` with the form's `t`): the
    /// user's correction through Core's `Categories`, the same as `vaultmail categorize`.
    func recategorize(_ argument: String, ids: [String]) async -> ActionOutcome {
        guard let categories = mail.categories else {
            return ActionOutcome(message: "Categories are not available here.", status: .notFound)
        }
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first, let category = AICategory(rawValue: name), category != .uncategorized else {
            return ActionOutcome(message: "Choose one of Primary, Social, Promotions, Updates or Forums.", status: .badRequest)
        }
        let threadIds = parts.count > 1 ? [parts[1]] : ids
        guard !threadIds.isEmpty else { return Self.nothingSelected }
        var senders: [String] = []
        var moved = 0
        for threadId in threadIds {
            do {
                let outcome = try await categories.recategorize(threadId: threadId, to: category)
                let taught = outcome.sendersTaught + outcome.listsTaught.map { "the list <\($0)>" }
                senders += taught.filter { !senders.contains($0) }
                moved += outcome.otherEmailsMoved
            } catch {
                return ActionOutcome(message: "The conversation could not be moved: \(PlainWords.of(error))",
                                     detail: PlainWords.detail(error), status: .notFound)
            }
        }
        await events.publish(.changed)
        var message = "Moved to \(CategoryBar.name(category))."
        if let first = senders.first {
            message += " Later mail from \(first)\(senders.count > 1 ? " and \(senders.count - 1) more" : "") goes there too"
            message += moved > 0 ? " (\(moved) other message\(moved == 1 ? "" : "s") moved with it)." : "."
        }
        return ActionOutcome(done: threadIds.count, message: message)
    }
}
