import Foundation

/// Where a model stands on this machine.
public enum AIModelState: Sendable, Hashable {
    case notInstalled
    /// A download is under way or was interrupted; `fraction` is 0…1 of the bytes.
    case partial(fraction: Double)
    case installed
    /// Installed once, but a file was cut short, removed or changed since (E-04): the features
    /// refuse it until it is installed again; `reason` names the file and what is wrong.
    case damaged(reason: String)
}

/// The installed models (AC-A-03). `VaultMailAI`'s `AIModelManager` implements it over a
/// folder of the user's data; features ask it where a verified model is.
public protocol AIModelLibrary: Sendable {
    /// The folder of a verified, installed model, or nil when it is not installed.
    func installedDirectory(for modelId: String) -> URL?
    func state(of modelId: String) -> AIModelState
}

extension AIModelLibrary {
    /// The folder to load `modelId` from, for `feature`: throws `AIError.modelDamaged` when it
    /// was damaged since it was installed (E-04), `AIError.modelNotInstalled` when there is none.
    public func loadableDirectory(for modelId: String, feature: String) throws(AIError) -> URL {
        if let directory = installedDirectory(for: modelId) { return directory }
        if case .damaged(let reason) = state(of: modelId) { throw .modelDamaged(modelId: modelId, reason: reason) }
        throw .modelNotInstalled(modelId: modelId, feature: feature)
    }
}
