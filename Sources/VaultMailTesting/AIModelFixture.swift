import Foundation

/// The real models for tests, where `make deps` (scripts/install-models.sh) installs them:
/// `<package root>/.build/models/<id>` (all-MiniLM-L6-v2, SmolLM2-135M-Instruct). Tests that
/// need one fail, never skip, when it is missing.
public enum AIModelFixture {
    /// `<package root>/.build/models`.
    public static var modelsDirectory: URL {
        // Sources/VaultMailTesting/AIModelFixture.swift → the package root.
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/models")
    }

    /// `<package root>/.build/models/all-minilm-l6-v2`, whether or not it is installed.
    public static var miniLMDirectory: URL {
        modelsDirectory.appendingPathComponent("all-minilm-l6-v2")
    }

    /// `<package root>/.build/models/smollm2-135m-instruct`, whether or not it is installed.
    public static var generationDirectory: URL {
        modelsDirectory.appendingPathComponent("smollm2-135m-instruct")
    }

    /// The generative model's folder when its GGUF file is there; otherwise throws `ModelMissing`.
    public static func installedGenerationDirectory() throws -> URL {
        let directory = generationDirectory
        let file = "SmolLM2-135M-Instruct.Q4_1.gguf"
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) else {
            throw ModelMissing(model: "SmolLM2-135M-Instruct", directory: directory, missing: [file])
        }
        return directory
    }

    /// The files a model folder holds.
    public static let miniLMFiles = ["config.json", "vocab.txt", "model.safetensors"]

    /// `miniLMDirectory` when all its files are there; otherwise throws `ModelMissing`, which
    /// says to run `make deps`.
    public static func installedMiniLMDirectory() throws -> URL {
        let directory = miniLMDirectory
        let missing = miniLMFiles.filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        guard missing.isEmpty else { throw ModelMissing(model: "all-MiniLM-L6-v2", directory: directory, missing: missing) }
        return directory
    }

    /// The model is not installed where tests look for it.
    public struct ModelMissing: Error, CustomStringConvertible {
        public let model: String
        public let directory: URL
        public let missing: [String]

        public var description: String {
            "the \(model) model is not installed: run `make deps` (scripts/install-models.sh); "
                + "\(directory.path) lacks \(missing.joined(separator: ", "))"
        }
    }
}
