import Foundation

/// Listing, downloading and removing models from a user interface: the web app's
/// Settings → On-device AI page and its onboarding step (AC-A-03, AC-A-08). VaultMailApp
/// implements it over VaultMailAI's model manager. A download started here runs on in the
/// background; its progress is read back through `models()`.
public protocol AIModelAdministration: Sendable {
    /// Every model of the catalog and where it stands, the live fraction of a download included.
    func models() async -> [AIModelStatus]
    /// Bytes the models take on disk, partial downloads included.
    func storageUsed() async -> Int64
    /// The folder the models live in, named in the instructions for installing from a file.
    var modelsDirectory: URL { get }
    /// Starts or resumes downloading a model in the background and returns at once; asking
    /// again while it downloads does nothing. Throws `AIError.unknownModel` for an id not in
    /// the catalog.
    func startDownload(_ modelId: String) async throws
    /// Stops a download under way; what arrived is kept, so the next start resumes it.
    func cancelDownload(_ modelId: String) async
    /// Deletes a model's files (a download under way is cancelled first) and returns the bytes freed.
    @discardableResult
    func remove(_ modelId: String) async throws -> Int64
}
