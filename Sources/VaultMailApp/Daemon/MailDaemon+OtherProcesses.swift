import Foundation
import VaultMailCore
import VaultMailStore

/// What other processes do to the daemon's store — `vaultmail read`, `archive`, `delete`,
/// `sync` run beside it — reaches the desktop within a second (issue 17).
extension MailDaemon {
    /// Until cancelled: on every commit of another process, catches up with it.
    func followOtherProcesses() async {
        let changes = await otherProcesses.watcher.start()
        for await _ in changes {
            await catchUpWithOtherProcesses()
        }
    }

    /// Settings as they are now; mail another process stored that the engine never decided on
    /// goes through the engine like the daemon's own new mail (announced once: the engine's
    /// session set and the ledger); what became read, moved or deleted withdraws its
    /// notification, and the badge is counted again.
    func catchUpWithOtherProcesses() async {
        app.settingsStore.reload()
        // Signed in again with `vaultmail account reauth`: tried at once, not after its backoff (issue 34).
        for accountId in otherProcesses.signedInAgain() {
            logger.info("an account was signed in again by another process; trying it now")
            retryNow(accountId: accountId)
        }
        var emails: [Email] = []
        do {
            for id in try await otherProcesses.undecidedEmailIds() {
                if let email = try await app.emailRepository.getEmail(id: id) { emails.append(email) }
            }
        } catch {
            logger.warning("cannot read mail another process stored: \(error); trying again at its next change")
        }
        if emails.isEmpty {
            await app.notificationService.withdrawStaleNotifications()
        } else {
            logger.info("\(emails.count) new message(s) stored by another process; evaluating them for notification")
            await deliver(emails, fromBackground: false)
        }
        // A conversation snoozed or unsnoozed with the tool: the timer is set again (issue 33).
        await snoozeWaker.changed()
        logger.info("caught up with a change by another process")
    }

    /// An account's silent first sync: its mail is recorded as not notified (first launch),
    /// so `notify why` can say so and it is never evaluated as new later.
    func recordSilentFirstSync(_ emails: [Email]) async {
        guard !emails.isEmpty else { return }
        let now = Date()
        let decisions = emails.map {
            NotificationDecision(email: $0, decidedAt: now, outcome: .suppressed, rule: .firstLaunch,
                                 detail: "the daemon's first sync of an account added while it ran")
        }
        do {
            try await otherProcesses.ledger.record(decisions)
        } catch {
            logger.warning("cannot record the first sync's mail as not notified: \(error)")
        }
    }
}
