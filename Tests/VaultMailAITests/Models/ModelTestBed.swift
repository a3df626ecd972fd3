import Crypto
import Foundation
import Synchronization
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// A small fake catalog (one model of three files, 52 KB in all, their real SHA-256s) served
/// by a `ModelFileServer` on loopback, and a fresh models folder: the manager's tests run in
/// milliseconds and never reach beyond 127.0.0.1.
final class ModelTestBed: Sendable {
    static let modelId = "tiny-test-model"
    /// The files' names and bytes (seeded, so every run serves the same).
    static let files: [(name: String, bytes: Data)] = {
        var random = SplitMix64(seed: 15)
        func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }) }
        return [("config.json", Data(#"{"hidden_size": 384}"#.utf8)), ("vocab.txt", bytes(3_000)), ("model.safetensors", bytes(48_000))]
    }()

    let server: ModelFileServer
    let directory: URL
    let catalog: AIModelCatalog
    let manager: AIModelManager

    var model: AIModelDescriptor { catalog.models[0] }

    /// - Parameter timeout: the manager's wait for the server's next bytes.
    init(timeout: TimeInterval = 20) throws {
        server = try ModelFileServer(files: Dictionary(uniqueKeysWithValues: Self.files.map { (Self.path($0.name), $0.bytes) }))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-models-\(UUID().uuidString.prefix(8))")
        catalog = Self.catalog(base: server.baseURL.appendingPathComponent("files"))
        manager = AIModelManager(directory: directory, catalog: catalog, requestTimeout: timeout)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    static func path(_ name: String) -> String { "/files/\(name)" }

    /// The fake catalog with its files published under `base`.
    static func catalog(base: URL, id: String = modelId) -> AIModelCatalog {
        let files = Self.files.map {
            AIModelFile(name: $0.name, url: base.appendingPathComponent($0.name),
                        sha256: SHA256.hash(data: $0.bytes).hexString, sizeBytes: Int64($0.bytes.count))
        }
        return AIModelCatalog(models: [
            AIModelDescriptor(id: id, name: "Tiny test model", purpose: .embedding, licence: "CC0-1.0",
                              summary: "Three small files for tests.", files: files),
        ])
    }

    static func bytes(of name: String) -> Data { files.first { $0.name == name }!.bytes }

    /// Where the manager keeps a file of the model (`.part` while it downloads).
    func url(_ name: String, part: Bool = false) -> URL {
        directory.appendingPathComponent(Self.modelId).appendingPathComponent(name + (part ? ".part" : ""))
    }

    func size(_ name: String, part: Bool = false) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url(name, part: part).path))?[.size] as? Int
    }

    /// Bytes of every regular file under the models folder, counted apart from the manager.
    func bytesOnDisk() -> Int64 {
        let walker = FileManager.default.enumerator(atPath: directory.path)
        var total: Int64 = 0
        while let item = walker?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(item).path)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int64) ?? 0 }
        }
        return total
    }

    /// Whether a download of the model is installed and holds the published bytes.
    func holdsPublishedFiles() -> Bool {
        Self.files.allSatisfy { FileManager.default.contents(atPath: url($0.name).path) == $0.bytes }
    }
}

/// The fractions a download reported, in order.
final class ProgressLog: Sendable {
    private let values = Mutex<[Double]>([])

    var reported: [Double] { values.withLock { $0 } }
    var last: Double? { reported.last }

    func record(_ value: Double) {
        values.withLock { $0.append(value) }
    }

    /// True when the fractions never fall.
    var isRising: Bool { zip(reported, reported.dropFirst()).allSatisfy { $0 <= $1 } }
}
