import Foundation
import VaultMailCore

/// sentence-transformers' all-MiniLM-L6-v2 on the CPU: BERT WordPiece tokens, a 6-layer BERT
/// encoder over OpenBLAS, mean pooling, L2 normalisation — 384 floats per text, the vectors
/// the reference implementation computes (cosine ≥ 0.999 on the fixture set).
///
/// The model's folder holds `config.json`, `vocab.txt` and `model.safetensors` (float32).
/// The weights are memory-mapped, not read into the heap; `unloadModel()` unmaps them (once
/// any embedding under way has finished). Texts are cut to 256 tokens, as the reference does.
/// Work runs on at most two dedicated threads, never on Swift's cooperative pool; the texts
/// of one call are packed into batches without padding and shared between them.
public actor MiniLMEngine: EmbeddingEngine {
    /// The length of every vector.
    public nonisolated let dimensions = 384
    /// The most tokens of a text the model reads (`[CLS]` and `[SEP]` included), as in
    /// all-MiniLM-L6-v2's `sentence_bert_config.json`; the rest of a longer text is ignored.
    public static let maxSequenceLength = 256
    /// The files `loadModel(path:)` reads.
    public static let modelFiles = ["config.json", "vocab.txt", "model.safetensors"]

    /// The most tokens one forward pass packs together (bounds a pass's scratch memory to about 16 MB).
    static let tokensPerPass = 1024

    private var model: BertModel?
    private let workers: InferenceWorkers

    public init() {
        workers = .shared
    }

    public nonisolated func isModelAvailable(at directory: URL) -> Bool {
        Self.modelFiles.allSatisfy { name in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue
        }
    }

    public func loadModel(path directory: URL) async throws {
        if let model, model.directory.standardizedFileURL == directory.standardizedFileURL { return }
        let loaded = try await workers.run(on: 0) {
            // OpenBLAS is opened here, with the first model, never at start (BLASLibrary).
            try BertModel(directory: directory, maxSequenceLength: Self.maxSequenceLength, blas: try BLASLibrary.load())
        }
        guard loaded.configuration.hiddenSize == dimensions else {
            throw AIError.modelUnreadable(
                path: directory.path,
                reason: "its hidden size is \(loaded.configuration.hiddenSize), not all-MiniLM-L6-v2's \(dimensions)")
        }
        model = loaded
    }

    public func unloadModel() async {
        model = nil
    }

    public var isLoaded: Bool {
        model != nil
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        guard let model else { throw AIError.modelNotLoaded }
        guard !texts.isEmpty else { return [] }
        return try await Self.embed(texts, model: model, workers: workers)
    }

    /// Tokenizes on the workers, then shares the sequences between them by length (longest
    /// first, each to the least loaded) and runs each worker's share in packed passes.
    private static func embed(_ texts: [String], model: BertModel, workers: InferenceWorkers) async throws -> [[Float]] {
        let parallel = min(workers.count, texts.count)
        let sequences: [[Int32]] = try await withThrowingTaskGroup(of: (Int, [[Int32]]).self) { group in
            let share = (texts.count + parallel - 1) / parallel
            for worker in 0..<parallel {
                let slice = Array(texts[min(worker * share, texts.count)..<min((worker + 1) * share, texts.count)])
                group.addTask {
                    (worker, try await workers.run(on: worker) { slice.map(model.tokenizer.encode) })
                }
            }
            var parts = [[[Int32]]](repeating: [], count: parallel)
            for try await (worker, part) in group { parts[worker] = part }
            return parts.flatMap { $0 }
        }

        try Task.checkCancellation()
        var loads = [Int](repeating: 0, count: parallel)
        var assigned = [[Int]](repeating: [], count: parallel)
        for index in sequences.indices.sorted(by: { sequences[$0].count > sequences[$1].count }) {
            let worker = loads.indices.min { loads[$0] < loads[$1] } ?? 0
            assigned[worker].append(index)
            loads[worker] += sequences[index].count
        }

        var vectors = [[Float]](repeating: [], count: texts.count)
        try await withThrowingTaskGroup(of: [(Int, [Float])].self) { group in
            for (worker, indices) in assigned.enumerated() where !indices.isEmpty {
                let work = indices.map { ($0, sequences[$0]) }
                group.addTask {
                    try await workers.run(on: worker) {
                        var results: [(Int, [Float])] = []
                        results.reserveCapacity(work.count)
                        var start = 0
                        while start < work.count {
                            var end = start, tokens = 0
                            while end < work.count, end == start || tokens + work[end].1.count <= tokensPerPass {
                                tokens += work[end].1.count
                                end += 1
                            }
                            let pass = model.embed(work[start..<end].map(\.1))
                            for (offset, vector) in pass.enumerated() { results.append((work[start + offset].0, vector)) }
                            start = end
                        }
                        return results
                    }
                }
            }
            for try await results in group {
                for (index, vector) in results { vectors[index] = vector }
            }
        }
        return vectors
    }
}
