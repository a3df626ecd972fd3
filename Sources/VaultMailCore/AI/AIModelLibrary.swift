import Foundation

/// Where a model stands on this machine.
public enum AIModelState: Sendable, Hashable {
    case notInstalled
    /// A download is under way or was interrupted; `fraction` is 0…1 of the bytes.
    case partial(fraction: Double)
    case installed
}

/// The installed models (AC-A-03). `VaultMailAI`'s `AIModelManager` implements it over a
/// folder of the user's data; features ask it where a verified model is.
public protocol AIModelLibrary: Sendable {
    /// The folder of a verified, installed model, or nil when it is not installed.
    func installedDirectory(for modelId: String) -> URL?
    func state(of modelId: String) -> AIModelState
}
