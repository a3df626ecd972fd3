import Foundation

/// A model loaded on first use and unloaded after a quiet period, or at once when memory runs
/// short (`ModelUnloadPolicy`, AC-P-03), so an idle daemon keeps no model in memory. Features see it only as a `TextEmbedder`.
public actor AIModelSession<Engine: EmbeddingEngine>: TextEmbedder {
    public nonisolated let modelId: String
    public nonisolated let dimensions: Int
    private let engine: Engine
    private let library: any AIModelLibrary
    private let unloading: ModelUnloadPolicy
    private let feature: String
    private var loadedFrom: URL?
    private var lastUse = ContinuousClock.now
    /// Embeddings under way: the model is never unloaded under them, however long they take.
    private var inFlight = 0
    private var unloadTask: Task<Void, Never>?

    /// - Parameters:
    ///   - feature: named in the "Download a model to enable …" error.
    ///   - idleTimeout: how long the model stays in memory after its last use.
    ///   - memoryPressure: when it says memory is short, the idle model is unloaded at once.
    public init(engine: Engine, library: any AIModelLibrary, modelId: String,
                feature: String = "categories and search by meaning", idleTimeout: Duration = .seconds(30),
                memoryPressure: (any MemoryPressureSource)? = nil) {
        self.engine = engine
        self.library = library
        self.modelId = modelId
        self.dimensions = engine.dimensions
        self.feature = feature
        unloading = ModelUnloadPolicy(idleTimeout: idleTimeout, pressure: memoryPressure)
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
                guard let wait = await self.unloadIfIdle() else { return }
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// Unloads the model when `unloading` says so and no embedding is under way; returns nil
    /// when it did, else how long to wait before asking again.
    private func unloadIfIdle() async -> Duration? {
        let idle = ContinuousClock.now - lastUse
        guard inFlight == 0, unloading.shouldUnload(idleFor: idle) else {
            return inFlight > 0 ? unloading.nextCheck(idleFor: .zero) : max(.milliseconds(10), unloading.nextCheck(idleFor: idle))
        }
        unloadTask = nil
        loadedFrom = nil
        await engine.unloadModel()
        return nil
    }
}
