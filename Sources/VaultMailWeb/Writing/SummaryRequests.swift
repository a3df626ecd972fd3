import Foundation
import VaultMailCore

/// One summary written at a time per conversation: a page that asks again while one is being
/// written (a live refresh re-rendered the panel, a second tab) waits for the same one instead
/// of queueing the model a second time.
actor SummaryRequests {
    private var running: [String: Task<ThreadSummary, any Error>] = [:]

    /// The summary `work` writes for `threadId`, or the one already being written for it.
    func summary(threadId: String, work: @escaping @Sendable () async throws -> ThreadSummary) async throws -> ThreadSummary {
        if let task = running[threadId] { return try await task.value }
        let task = Task { try await work() }
        running[threadId] = task
        defer { running[threadId] = nil }
        return try await task.value
    }
}
