import Foundation
import Logging
import VaultMailCore

/// The daemon's snooze timer (issue 33): sleeps until the next conversation is due (at most a
/// minute, so a changed clock or a missed signal costs no more), or until told something
/// changed (a snooze here, a sync that read the Snoozed mailbox again); then wakes what is due
/// through `Snooze.wakeDue` (each message moved back once, on the server first) and hands what
/// came back to `announce`. Started after the first sync, so overdue mail wakes once at start.
actor SnoozeWaker {
    private let logger: Logger
    private var waiter: CheckedContinuation<Void, Never>?
    private var signalled = false
    /// After a failed wake, when to try again (not at once: the server may be down).
    static let retryDelay: TimeInterval = 30
    static let longestSleep: TimeInterval = 60

    init(logger: Logger) {
        self.logger = logger
    }

    /// Something snoozed changed: the timer is set again.
    func changed() {
        signalled = true
        waiter?.resume()
        waiter = nil
    }

    /// Wakes through `snooze` and sleeps until cancelled; what came back goes to `announce`.
    func run(_ snooze: Snooze, announce: @Sendable ([WokenMail]) async -> Void) async {
        var retryAfter: Date?
        while !Task.isCancelled {
            let now = Date()
            let due = await snooze.nextWake()
            if let due, due <= now, retryAfter.map({ $0 <= now }) ?? true {
                let (woken, failed) = await snooze.wakeDue()
                for failure in failed {
                    logger.warning("snoozed mail of account \(failure.accountId) could not come back yet: \(failure.error); trying again in \(Int(Self.retryDelay)) s")
                }
                retryAfter = failed.isEmpty ? nil : now.addingTimeInterval(Self.retryDelay)
                if !woken.isEmpty {
                    logger.info("snoozed mail came back: \(woken.map(\.emailIds.count).reduce(0, +)) message(s)")
                    await announce(woken)
                }
                continue
            }
            var delay = due.map { $0.timeIntervalSince(now) } ?? Self.longestSleep
            if let retryAfter { delay = max(delay, retryAfter.timeIntervalSince(now)) }
            await sleep(min(max(delay, 0.05), Self.longestSleep))
        }
    }

    /// Sleeps `seconds`, or until `changed()`.
    private func sleep(_ seconds: TimeInterval) async {
        if signalled {
            signalled = false
            return
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            await self?.changed()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if signalled || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { await self.changed() }
        }
        signalled = false
        timer.cancel()
    }
}
