import Foundation
import VaultMailCore
import VaultMailSync

extension CommandSession {
    /// `vaultmail sync [NAME…]`: syncs the accounts one after another; `progress` receives one
    /// line per step (for a terminal's progress display). Returns the summary.
    public func sync(_ names: [String], progress: @escaping @Sendable (String) -> Void) async throws -> String {
        let all = try await accountService.all()
        guard !all.isEmpty else { throw CommandError("no accounts yet; add one with `vaultmail account add`") }
        var chosen: [Account] = []
        for name in names { chosen.append(try await account(named: name)) }
        if chosen.isEmpty { chosen = all.filter(\.isActive) }
        var lines: [String] = []
        var failures = 0
        let clock = ContinuousClock()
        for account in chosen {
            progress("syncing \(account.name) (\(account.imapHost))…")
            let started = clock.now
            do {
                let new = try await services.sync.syncAccountInboxFirst(accountId: account.id) { inbox in
                    progress("\(account.name): inbox done, \(inbox.count) new; other folders…")
                }
                let seconds = (clock.now - started).components.seconds
                lines.append("\(account.name): \(new.count) new message\(new.count == 1 ? "" : "s") in \(seconds) s")
            } catch {
                failures += 1
                lines.append("\(account.name): failed — \(error)")
            }
        }
        await services.connections.closeAll()
        // The new mail's categories (issue 15): header rules always, the model when installed.
        do {
            if let line = try await categorizeWaitingMail(embedder: textEmbedder, progress: progress) { lines.append(line) }
        } catch {
            lines.append("categorizing failed — \(error); the next sync tries again")
        }
        let summary = lines.joined(separator: "\n")
        if failures > 0 { throw CommandError(summary) }
        return summary
    }
}
