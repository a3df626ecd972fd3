import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

@Suite("all-MiniLM-L6-v2 engine", .timeLimit(.minutes(5)))
struct MiniLMEngineTests {
    func loadedEngine() async throws -> MiniLMEngine {
        let engine = MiniLMEngine()
        try await engine.loadModel(path: AIModelFixture.installedMiniLMDirectory())
        return engine
    }

    @Test("vectors match sentence-transformers' on every reference text: cosine ≥ 0.999, unit length")
    func matchesReference() async throws {
        let reference = try MiniLMReference.load()
        let engine = try await loadedEngine()
        let vectors = try await engine.embed(reference.cases.map(\.text))
        try #require(vectors.count == reference.cases.count)
        var lowest = (cosine: 1.0, text: "")
        for (expected, vector) in zip(reference.cases, vectors) {
            try #require(vector.count == 384)
            let similarity = MiniLMReference.cosine(vector, expected.vector)
            #expect(similarity >= 0.999, "\(expected.testDescription): cosine \(similarity)")
            let length = vector.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(length - 1) < 1e-4, "\(expected.testDescription): length \(length)")
            if similarity < lowest.cosine { lowest = (similarity, expected.testDescription) }
        }
        print("all-MiniLM-L6-v2 against sentence-transformers \(reference.versions["sentence-transformers"] ?? "?"): "
              + "lowest cosine \(lowest.cosine) over \(vectors.count) texts (\(lowest.text))")
    }

    @Test("a batch gives each text the vector it gets alone, in order")
    func batchEqualsAlone() async throws {
        let texts = Array(try MiniLMReference.load().cases.map(\.text).prefix(12))
        let engine = try await loadedEngine()
        let batch = try await engine.embed(texts)
        try #require(batch.count == texts.count)
        for (text, vector) in zip(texts, batch) {
            let alone = try await engine.embed([text])
            try #require(alone.count == 1)
            let largest = zip(alone[0], vector).map { abs($0 - $1) }.max() ?? .infinity
            #expect(largest < 1e-5, "\(text.debugDescription): differs by \(largest)")
        }
        #expect(try await engine.embed([]).isEmpty)
    }

    @Test("texts about the same thing are closer than texts about different things")
    func meaning() async throws {
        let engine = try await loadedEngine()
        let vectors = try await engine.embed([
            "Agenda for the quarterly budget review", "financial planning meeting", "Your package has shipped",
        ])
        #expect(MiniLMReference.cosine(vectors[0], vectors[1]) > MiniLMReference.cosine(vectors[0], vectors[2]) + 0.1)
    }

    @Test("load, isLoaded and unload; loading the same folder again does nothing; embedding after unload throws modelNotLoaded")
    func lifecycle() async throws {
        let engine = MiniLMEngine()
        #expect(await engine.isLoaded == false)
        await #expect(throws: AIError.modelNotLoaded) { try await engine.embed(["hello"]) }
        let directory = try AIModelFixture.installedMiniLMDirectory()
        try await engine.loadModel(path: directory)
        #expect(await engine.isLoaded)
        try await engine.loadModel(path: directory)
        #expect(try await engine.embed(["hello"]).first?.count == engine.dimensions)
        await engine.unloadModel()
        #expect(await engine.isLoaded == false)
        await #expect(throws: AIError.modelNotLoaded) { try await engine.embed(["hello"]) }
        await engine.unloadModel()
    }

    @Test("isModelAvailable: true for the installed folder, false for an empty folder or one lacking a file")
    func availability() throws {
        let engine = MiniLMEngine()
        #expect(engine.isModelAvailable(at: try AIModelFixture.installedMiniLMDirectory()))
        let folder = try ScratchMiniLMFolder()
        defer { folder.remove() }
        #expect(engine.isModelAvailable(at: folder.url) == false)
        try folder.copy("config.json")
        try folder.copy("vocab.txt")
        #expect(engine.isModelAvailable(at: folder.url) == false)
        try folder.write(Data(), as: "model.safetensors")
        #expect(engine.isModelAvailable(at: folder.url))
    }

    /// Ways a model.safetensors can be damaged.
    enum Damage: String, CaseIterable, Sendable {
        case empty, truncated, headerLongerThanFile, headerNotJSON, tensorMissing

        func bytes(of original: URL) throws -> Data {
            func header(_ json: String) -> Data {
                var length = UInt64(json.utf8.count).littleEndian
                return Data(bytes: &length, count: 8) + Data(json.utf8)
            }
            switch self {
            case .empty: return Data()
            case .truncated:
                let handle = try FileHandle(forReadingFrom: original)
                defer { try? handle.close() }
                return try handle.read(upToCount: 1 << 20) ?? Data()
            case .headerLongerThanFile: return Self.longHeader
            case .headerNotJSON: return header("not json at all")
            case .tensorMissing:
                return header(#"{"embeddings.LayerNorm.bias":{"dtype":"F32","shape":[384],"data_offsets":[0,1536]}}"#)
                    + Data(count: 1536)
            }
        }

        /// A header that claims a gigabyte.
        static var longHeader: Data {
            var length = UInt64(1 << 30).littleEndian
            return Data(bytes: &length, count: 8) + Data("{}".utf8)
        }

        /// Words the error's reason must have.
        var reasonMentions: String {
            switch self {
            case .empty: "too short"
            case .truncated: "truncated"
            case .headerLongerThanFile: "truncated"
            case .headerNotJSON: "not a safetensors file"
            case .tensorMissing: "no tensor"
            }
        }
    }

    @Test("a damaged model.safetensors is AIError.modelUnreadable naming the file and the damage", arguments: Damage.allCases)
    func damagedWeights(_ damage: Damage) async throws {
        let original = try AIModelFixture.installedMiniLMDirectory()
        let folder = try ScratchMiniLMFolder()
        defer { folder.remove() }
        try folder.copy("config.json")
        try folder.copy("vocab.txt")
        try folder.write(damage.bytes(of: original.appendingPathComponent("model.safetensors")), as: "model.safetensors")
        let engine = MiniLMEngine()
        let error = await #expect(throws: AIError.self) { try await engine.loadModel(path: folder.url) }
        guard case .modelUnreadable(let path, let reason) = error else {
            Issue.record("expected modelUnreadable, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("model.safetensors"))
        #expect(reason.contains(damage.reasonMentions), "\(reason)")
        #expect(await engine.isLoaded == false)
    }

    @Test("a config.json that is not a BERT model's is AIError.modelUnreadable")
    func badConfiguration() async throws {
        let folder = try ScratchMiniLMFolder()
        defer { folder.remove() }
        try folder.write(Data(#"{"model_type": "gpt2", "n_embd": 768}"#.utf8), as: "config.json")
        try folder.copy("vocab.txt")
        try folder.copy("model.safetensors")
        let error = await #expect(throws: AIError.self) { try await MiniLMEngine().loadModel(path: folder.url) }
        guard case .modelUnreadable(let path, _) = error else {
            Issue.record("expected modelUnreadable, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("config.json"))
    }
}

/// A temporary model folder, filled file by file from the installed model or with given bytes.
struct ScratchMiniLMFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("minilm-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Links the installed model's `name` (a symbolic link: no 90 MB copy).
    func copy(_ name: String) throws {
        try FileManager.default.createSymbolicLink(
            at: url.appendingPathComponent(name),
            withDestinationURL: AIModelFixture.installedMiniLMDirectory().appendingPathComponent(name))
    }

    func write(_ data: Data, as name: String) throws {
        try data.write(to: url.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
