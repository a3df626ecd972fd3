import Foundation
import VaultMailCore

/// An `AIModelLibrary` whose installed models are given: the folder of each installed model
/// by id. Every other id is not installed.
public struct FixedModelLibrary: AIModelLibrary {
    private let directories: [String: URL]

    public init(_ directories: [String: URL]) {
        self.directories = directories
    }

    public func installedDirectory(for modelId: String) -> URL? {
        directories[modelId]
    }

    public func state(of modelId: String) -> AIModelState {
        directories[modelId] == nil ? .notInstalled : .installed
    }
}
