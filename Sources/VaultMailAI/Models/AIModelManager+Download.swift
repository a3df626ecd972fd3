import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import VaultMailCore

extension AIModelManager {
    /// Downloads a model over HTTP or HTTPS and installs it; returns its folder.
    ///
    /// Each file streams into `<file>.part` and resumes from there (`Range:`) when a part is
    /// left from an earlier try; its SHA-256 is checked before it is moved into place, and the
    /// model counts as installed only once every file is. Files already verified are kept.
    ///
    /// - Parameters:
    ///   - mirror: fetch `<mirror>/<model id>/<file name>` instead of the catalog's addresses.
    ///   - progress: the fraction of the model's bytes here, 0 to 1, rising; exactly 1 once installed.
    /// - Throws: `AIError.unknownModel`; `AIError.cancelled` when the task is cancelled (the
    ///   part is kept for a resume); `AIError.checksumMismatch` (the bad part is deleted);
    ///   `AIError.downloadFailed` naming the model, what went wrong and what to do.
    @discardableResult
    public func download(_ modelId: String, mirror: URL? = nil,
                         progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> URL {
        let model = try catalog.model(modelId)
        let folder = ModelFolder(model: model, in: directory)
        try prepareDirectory()
        let lock = try lock(folder)
        defer { withExtendedLifetime(lock) {} }
        let meter = DownloadProgress(total: model.sizeBytes, report: progress)
        if folder.isInstalled {
            meter.finish()
            return folder.url
        }
        try folder.createFolder()
        var done: Int64 = 0
        meter.update(folder.bytesPresent)
        for file in model.files {
            if Task.isCancelled { throw AIError.cancelled(modelId: modelId) }
            let final = folder.fileURL(file)
            if ModelFolder.size(of: final) != nil {
                // Verified when it was moved here; checked again since the catalog may have changed.
                if (try? verify(final, as: file)) != nil {
                    done += file.sizeBytes
                    meter.update(done)
                    continue
                }
            }
            let part = folder.partURL(file)
            if let size = ModelFolder.size(of: part), size > file.sizeBytes { try? FileManager.default.removeItem(at: part) }
            if (ModelFolder.size(of: part) ?? 0) < file.sizeBytes {
                try await fetch(file, of: model, into: part, mirror: mirror) { [done] bytes in meter.update(done + bytes) }
            }
            guard ModelFolder.size(of: part) == file.sizeBytes else {
                let size = ModelFolder.size(of: part) ?? 0
                try? FileManager.default.removeItem(at: part)
                throw AIError.downloadFailed(
                    modelId: modelId,
                    reason: "the server sent \(size) bytes of \(file.name) where the catalog says \(file.sizeBytes); the part was deleted")
            }
            try verify(part, as: file)
            try ModelFolder.replace(final, with: part)
            done += file.sizeBytes
            meter.update(done)
        }
        try folder.writeMarker()
        meter.finish()
        return folder.url
    }

    /// Where a file is fetched from: the catalog's address, or the mirror's.
    public func address(of file: AIModelFile, of modelId: String, mirror: URL?) -> URL {
        guard let mirror else { return file.url }
        return mirror.appendingPathComponent(modelId).appendingPathComponent(file.name)
    }

    /// Fetches one file into its part, once more from the start when the server cannot
    /// continue the part (416), turning transfer failures into `AIError`s that say what to do.
    private func fetch(_ file: AIModelFile, of model: AIModelDescriptor, into part: URL, mirror: URL?,
                       progress: @escaping @Sendable (Int64) -> Void) async throws {
        let url = address(of: file, of: model.id, mirror: mirror)
        var retried = false
        while true {
            do {
                try await PartDownload.fetch(url, into: part, expectedSize: file.sizeBytes, timeout: requestTimeout, progress: progress)
                return
            } catch .status(416, _) where !retried {
                retried = true
                try? FileManager.default.removeItem(at: part)
            } catch {
                throw Self.error(error, model: model.id, mirror: mirror)
            }
        }
    }

    /// `host:port` of an address, for messages.
    private static func server(of url: URL) -> String {
        guard let host = url.host else { return url.absoluteString }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    private static func error(_ failure: PartDownload.Failure, model: String, mirror: URL?) -> AIError {
        let elsewhere = mirror == nil ? "a mirror (--mirror URL)" : "another mirror"
        switch failure {
        case .cancelled:
            return .cancelled(modelId: model)
        case .status(let code, let url):
            let meaning = HTTPURLResponse.localizedString(forStatusCode: code)
            return .downloadFailed(modelId: model, reason: "\(url.absoluteString) answered \(code) (\(meaning)); try again later or from \(elsewhere)")
        case .tooLarge(let url, let expected):
            return .downloadFailed(modelId: model, reason: "\(url.absoluteString) sends more than the \(expected) bytes the catalog says, so it is not the published file; try \(elsewhere)")
        case .transport(let url, let reason):
            return .downloadFailed(modelId: model, reason: "\(Self.server(of: url)): \(reason); check the network, or try \(elsewhere)")
        case .file(let error):
            return .downloadFailed(modelId: model, reason: error.description)
        }
    }
}
