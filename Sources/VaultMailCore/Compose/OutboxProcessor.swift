import Foundation

/// Works the outbox in the background (AC-F-07, AC-P-04, E-12): settles messages a previous
/// run left `sending` (once their claim's lease is over), sends queued messages when they are due (retries back off, see
/// `RetryBackoff`), and finishes filings (the copy in Sent, the draft removed) that could not
/// be done right after sending.
///
/// `processNow()` does one pass; `start()` runs passes until `stop()`, waking for the next
/// due message and at least every `pollInterval` (so a server that comes back is noticed).
/// `connectivityRestored()` makes every queued message due and runs a pass at once.
public actor OutboxProcessor {
    /// What one pass did, by email id.
    public struct Report: Sendable, Hashable {
        public var sent: [String] = []
        public var willRetry: [String] = []
        public var failed: [String] = []
        /// Sent messages whose copy in Sent / draft removal was completed in this pass.
        public var filed: [String] = []
        /// Problems that stopped the pass itself (e.g. the store could not be read).
        public var errors: [String] = []

        public init() {}
    }

    public nonisolated let sender: OutboxSender
    private let sleeper: any Clock<Duration>
    private let pollInterval: Duration
    private var loop: Task<Void, Never>?
    private var nap: Task<Void, any Error>?

    public init(sender: OutboxSender, sleeper: any Clock<Duration> = ContinuousClock(), pollInterval: Duration = .seconds(60)) {
        self.sender = sender
        self.sleeper = sleeper
        self.pollInterval = pollInterval
    }

    /// One pass over the outbox.
    @discardableResult
    public func processNow() async -> Report {
        var report = Report()
        let outbox = sender.outbox
        do {
            // Send later across machines: what the servers' Drafts say is scheduled (issue 33).
            try await sender.refreshScheduled()
            // The daemon's claims of an earlier daemon run are that dead run's (`daemonRunPrefix`).
            let ended = sender.runId.hasPrefix(OutboxSender.daemonRunPrefix) ? OutboxSender.daemonRunPrefix : nil
            for entry in try await outbox.interruptedEntries(currentRunId: sender.runId, now: sender.clock.now, endedRunPrefix: ended) {
                record(try await sender.recover(entry), entry.id, into: &report)
            }
            for entry in try await outbox.dueEntries(now: sender.clock.now) {
                record(try await sender.transmit(emailId: entry.id, ignoringSchedule: false), entry.id, into: &report)
            }
            for entry in try await outbox.pendingFilings() where await sender.file(emailId: entry.id) {
                report.filed.append(entry.id)
            }
        } catch {
            report.errors.append(OutboxSender.describe(error))
        }
        return report
    }

    /// The network is back: every queued message is due now; runs a pass.
    @discardableResult
    public func connectivityRestored() async -> Report {
        do {
            try await sender.outbox.makeQueuedDue(now: sender.clock.now)
        } catch {
            var report = Report()
            report.errors.append(OutboxSender.describe(error))
            return report
        }
        return await processNow()
    }

    /// Starts working the outbox in the background (a second call does nothing).
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.run() }
    }

    /// Stops the background work and waits until the current pass is over.
    public func stop() async {
        guard let loop else { return }
        loop.cancel()
        nap?.cancel()
        await loop.value
        self.loop = nil
    }

    /// Ends the current wait so the next pass runs now (e.g. after a message was queued).
    public func wake() {
        nap?.cancel()
    }

    public var isRunning: Bool { loop != nil }

    private func run() async {
        while !Task.isCancelled {
            await processNow()
            guard !Task.isCancelled else { return }
            var wait = pollInterval
            if let next = try? await sender.outbox.nextAttemptDate() {
                let seconds = max(0, next.timeIntervalSince(sender.clock.now))
                wait = min(wait, .milliseconds(Int64((seconds * 1000).rounded(.up))))
            }
            let sleeper = self.sleeper
            let nap = Task { try await sleeper.sleep(for: wait) }
            self.nap = nap
            _ = try? await nap.value
            self.nap = nil
        }
    }

    private func record(_ outcome: OutboxSender.Outcome, _ id: String, into report: inout Report) {
        switch outcome {
        case .sent: report.sent.append(id)
        case .willRetry: report.willRetry.append(id)
        case .failed: report.failed.append(id)
        case .notClaimed: break
        }
    }
}
