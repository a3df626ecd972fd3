import Foundation
import VaultMailCore

/// The models on this machine (AC-A-03): lists the catalog with each model's state,
/// downloads (with progress, cancel and resume), verifies, installs from files, removes, and
/// counts the storage used. Everything lives in `directory` (`<VaultMail home>/models`):
///
///     <directory>/<model id>/<file name>        a verified file
///     <directory>/<model id>/<file name>.part   a file downloading, or stopped part-way
///     <directory>/<model id>/installed.sha256   written last: the model is complete
///     <directory>/.<model id>.lock              held while a download or removal runs
///
/// It keeps no state in memory: two processes (the daemon and the command line) see the
/// same models, and a lock keeps them from downloading one model at once. Features ask it,
/// as Core's `AIModelLibrary`, where a verified model is.
public struct AIModelManager: AIModelLibrary {
    /// The models that can be downloaded.
    public let catalog: AIModelCatalog
    /// The models folder.
    public let directory: URL
    /// Seconds a download waits for the server's next bytes before giving up.
    public var requestTimeout: TimeInterval

    public init(directory: URL, catalog: AIModelCatalog = .standard, requestTimeout: TimeInterval = 60) {
        self.directory = directory
        self.catalog = catalog
        self.requestTimeout = requestTimeout
    }

    // MARK: Listing

    /// Every model of the catalog with where it stands here: not installed, partly
    /// downloaded (the fraction of its bytes) or installed, and whether a download of it is
    /// running now (in any process).
    public func availableModels() -> [AIModelStatus] {
        catalog.models.map { model in
            let folder = ModelFolder(model: model, in: directory)
            return AIModelStatus(model: model, state: folder.state, isDownloading: DownloadLock.isHeld(at: folder.lockPath))
        }
    }

    /// The folder of the installed, verified model; nil when it is not installed (or not in
    /// the catalog). One small read: the files were checked before the marker was written.
    public func installedDirectory(for modelId: String) -> URL? {
        guard let model = try? catalog.model(modelId) else { return nil }
        let folder = ModelFolder(model: model, in: directory)
        return folder.isInstalled ? folder.url : nil
    }

    public func state(of modelId: String) -> AIModelState {
        guard let model = try? catalog.model(modelId) else { return .notInstalled }
        return ModelFolder(model: model, in: directory).state
    }

    /// The folder a model is (or would be) installed in.
    public func folder(for modelId: String) throws -> URL {
        ModelFolder(model: try catalog.model(modelId), in: directory).url
    }

    /// Bytes of every file under the models folder, partial downloads included.
    public func storageUsed() -> Int64 {
        Self.bytes(under: directory)
    }

    // MARK: Removing

    /// Deletes a model's folder, partial downloads included, and returns the bytes freed.
    /// Unloading it from an engine that has it in memory is the caller's part. Throws
    /// `AIError.unknownModel`, or `AIError.downloadFailed` while a download of it runs.
    @discardableResult
    public func remove(_ modelId: String) throws -> Int64 {
        let folder = ModelFolder(model: try catalog.model(modelId), in: directory)
        guard FileManager.default.fileExists(atPath: folder.url.path) else { return 0 }
        let lock = try DownloadLock.acquire(at: folder.lockPath)
        guard lock != nil else {
            throw AIError.downloadFailed(modelId: modelId, reason: "it is being downloaded now, so it was not removed; cancel that download first")
        }
        let bytes = Self.bytes(under: folder.url)
        folder.removeMarker()
        do {
            try FileManager.default.removeItem(at: folder.url)
        } catch {
            throw ModelFileError(action: "remove", path: folder.url.path, reason: "\(error.localizedDescription)")
        }
        return bytes
    }

    // MARK: Helpers

    /// Creates the models folder, readable by its owner only.
    func prepareDirectory() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ModelFileError(action: "create", path: directory.path, reason: "\(error.localizedDescription)")
        }
    }

    /// Takes a model's lock, or says another download of it runs.
    func lock(_ folder: ModelFolder) throws -> DownloadLock {
        guard let lock = try DownloadLock.acquire(at: folder.lockPath) else {
            throw AIError.downloadFailed(
                modelId: folder.model.id,
                reason: "another VaultMail process (the daemon or another command) is downloading it now; wait for that download to end")
        }
        return lock
    }

    /// Checks a file against its published digest; a file that differs is deleted.
    func verify(_ url: URL, as file: AIModelFile) throws {
        let actual = try FileDigest.sha256(of: url)
        guard actual == file.sha256.lowercased() else {
            try? FileManager.default.removeItem(at: url)
            throw AIError.checksumMismatch(file: file.name, expected: file.sha256.lowercased(), actual: actual)
        }
    }

    /// The sizes of the regular files under `url`, summed.
    static func bytes(under url: URL) -> Int64 {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return 0 }
        var total: Int64 = 0
        for case let item as URL in walker {
            total += ModelFolder.size(of: item) ?? 0
        }
        return total
    }
}
