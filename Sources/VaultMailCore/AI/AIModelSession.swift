import Foundation

/// A model loaded on first use and unloaded after a quiet period, so an idle daemon keeps no
/// model in memory. Features see it only as a `TextEmbedder`.
public actor AIModelSession<Engine: EmbeddingEngine>: TextEmbedder {
    public nonisolated let modelId: String
    public nonisolated let dimensions: Int
    private let engine: Engine
    private let library: any AIModelLibrary
    private let idleTimeout: Duration
    private let feature: String
    private var loadedFrom: URL?
    private var lastUse = ContinuousClock.now
    /// Embeddings under way: the model is never unloaded under them, however long they take.
    private var inFlight = 0
    private var unloadTask: Task<Void, Never>?

    /// - Parameters:
    ///   - feature: named in the "Download a model to enable …" error.
    ///   - idleTimeout: how long the model stays in memory after its last use.
    public init(engine: Engine, library: any AIModelLibrary, modelId: String,
                feature: String = "categories and search by meaning", idleTimeout: Duration = .seconds(300)) {
        self.engine = engine
        self.library = library
        self.modelId = modelId
        self.dimensions = engine.dimensions
        self.feature = feature
        self.idleTimeout = idleTimeout
    }

    public func isAvailable() async -> Bool {
        library.installedDirectory(for: modelId).map(engine.isModelAvailable(at:)) ?? false
    }

    /// True while the model is in memory.
    public var isLoaded: Bool { get async { await engine.isLoaded } }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        if texts.isEmpty { return [] }
        try await loadIfNeeded()
        inFlight += 1
        defer {
            inFlight -= 1
            lastUse = .now
        }
        return try await engine.embed(texts)
    }

    /// Frees the model now (a removed model, a daemon shutting down).
    public func unload() async {
        unloadTask?.cancel()
        unloadTask = nil
        loadedFrom = nil
        await engine.unloadModel()
    }

    private func loadIfNeeded() async throws {
        let directory: URL
        do {
            directory = try library.loadableDirectory(for: modelId, feature: feature)
            guard engine.isModelAvailable(at: directory) else { throw AIError.modelNotInstalled(modelId: modelId, feature: feature) }
        } catch {
            if loadedFrom != nil { await unload() }
            throw error
        }
        if loadedFrom != directory {
            try await engine.loadModel(path: directory)
            loadedFrom = directory
        }
        scheduleUnload()
    }

    private func scheduleUnload() {
        guard unloadTask == nil else { return }
        unloadTask = Task { [weak self] in
            while let self, !Task.isCancelled {
                let due = await self.lastUse + self.idleTimeout
                if ContinuousClock.now >= due {
                    if await self.unloadIfIdle() { return }
                    try? await Task.sleep(for: self.idleTimeout)
                    continue
                }
                try? await Task.sleep(until: due, clock: .continuous)
            }
        }
    }

    /// Unloads the model unless it is in use or was used within the quiet period; says whether it did.
    private func unloadIfIdle() async -> Bool {
        guard inFlight == 0, ContinuousClock.now >= lastUse + idleTimeout else { return false }
        unloadTask = nil
        loadedFrom = nil
        await engine.unloadModel()
        return true
    }
}
