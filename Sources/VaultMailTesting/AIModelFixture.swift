import Foundation

/// The real all-MiniLM-L6-v2 model for tests, where `make deps` (scripts/install-models.sh)
/// installs it: `<package root>/.build/models/all-minilm-l6-v2`. Tests that need it fail,
/// never skip, when it is missing.
public enum AIModelFixture {
    /// `<package root>/.build/models/all-minilm-l6-v2`, whether or not it is installed.
    public static var miniLMDirectory: URL {
        // Sources/VaultMailTesting/AIModelFixture.swift → the package root.
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/models/all-minilm-l6-v2")
    }

    /// The files a model folder holds.
    public static let miniLMFiles = ["config.json", "vocab.txt", "model.safetensors"]

    /// `miniLMDirectory` when all its files are there; otherwise throws `ModelMissing`, which
    /// says to run `make deps`.
    public static func installedMiniLMDirectory() throws -> URL {
        let directory = miniLMDirectory
        let missing = miniLMFiles.filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        guard missing.isEmpty else { throw ModelMissing(directory: directory, missing: missing) }
        return directory
    }

    /// The model is not installed where tests look for it.
    public struct ModelMissing: Error, CustomStringConvertible {
        public let directory: URL
        public let missing: [String]

        public var description: String {
            "the all-MiniLM-L6-v2 model is not installed: run `make deps` (scripts/install-models.sh); "
                + "\(directory.path) lacks \(missing.joined(separator: ", "))"
        }
    }
}
