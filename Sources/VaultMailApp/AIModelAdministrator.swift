import Foundation
import Synchronization
import VaultMailAI
import VaultMailCore

/// The web app's model administration (Core's `AIModelAdministration`, AC-A-03, AC-A-08) over
/// the model manager: a download started from a page runs on in the daemon's background, its
/// live fraction and any failure are kept here for the page to read back; cancelling or
/// removing waits until the download has stopped.
public actor AIModelAdministrator: AIModelAdministration {
    public nonisolated let manager: AIModelManager
    public nonisolated var modelsDirectory: URL { manager.directory }
    /// Where downloads fetch from instead of the catalog's addresses, if anywhere.
    private let mirror: URL?
    /// Told a model's id after it is installed (features can start using it) and after it is
    /// removed (an engine holding it lets go).
    private let onInstalled: @Sendable (String) async -> Void
    private let onRemoved: @Sendable (String) async -> Void
    private var downloads: [String: Task<Void, Never>] = [:]
    private var problems: [String: PlainProblem] = [:]
    /// The fraction each running download reported last (written from the download's callbacks).
    private nonisolated let fractions = Mutex<[String: Double]>([:])

    public init(manager: AIModelManager, mirror: URL? = nil,
                onInstalled: @escaping @Sendable (String) async -> Void = { _ in },
                onRemoved: @escaping @Sendable (String) async -> Void = { _ in }) {
        self.manager = manager
        self.mirror = mirror
        self.onInstalled = onInstalled
        self.onRemoved = onRemoved
    }

    public func models() -> [AIModelStatus] {
        manager.availableModels().map { listed in
            var status = listed
            if downloads[status.id] != nil {
                status.isDownloading = true
                if let fraction = fractions.withLock({ $0[status.id] }), status.state != .installed {
                    status.state = .partial(fraction: fraction)
                }
            }
            status.problem = problems[status.id]
            return status
        }
    }

    public func storageUsed() -> Int64 {
        manager.storageUsed()
    }

    public func startDownload(_ modelId: String) throws {
        _ = try manager.catalog.model(modelId)
        guard downloads[modelId] == nil else { return }
        problems[modelId] = nil
        if case .partial(let fraction) = manager.state(of: modelId) {
            fractions.withLock { $0[modelId] = fraction }
        }
        let manager = manager, mirror = mirror
        downloads[modelId] = Task {
            let outcome: (any Error)?
            do {
                try await manager.download(modelId, mirror: mirror) { fraction in
                    self.fractions.withLock { $0[modelId] = max($0[modelId] ?? 0, fraction) }
                }
                outcome = nil
            } catch {
                outcome = error
            }
            await self.finished(modelId, outcome)
        }
    }

    public func cancelDownload(_ modelId: String) async {
        guard let download = downloads[modelId] else { return }
        download.cancel()
        await download.value
    }

    @discardableResult
    public func remove(_ modelId: String) async throws -> Int64 {
        await cancelDownload(modelId)
        let freed = try manager.remove(modelId)
        problems[modelId] = nil
        await onRemoved(modelId)
        return freed
    }

    /// Waits until no download started here runs (for tests and shutdown).
    public func waitForDownloads() async {
        while let download = downloads.values.first { await download.value }
    }

    private func finished(_ modelId: String, _ error: (any Error)?) async {
        downloads[modelId] = nil
        fractions.withLock { $0[modelId] = nil }
        switch error {
        case nil:
            problems[modelId] = nil
            await onInstalled(modelId)
        case AIError.cancelled?:
            problems[modelId] = PlainProblem(words: "Download cancelled. What arrived is kept: Resume continues from there.")
        case let error?:
            problems[modelId] = PlainProblem(error)
        }
    }
}
