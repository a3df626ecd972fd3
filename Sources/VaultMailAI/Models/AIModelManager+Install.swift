import Foundation
import VaultMailCore

extension AIModelManager {
    /// Installs a model from files at hand ("install from a file", for machines without
    /// internet): each of the model's files is found by name among `files` (a folder stands
    /// for the files in it), copied in and checked against its published SHA-256 before it
    /// counts. Returns the model's folder.
    ///
    /// - Throws: `AIError.unknownModel`; `AIModelInstallError.missingFiles` naming the files
    ///   not found; `AIError.checksumMismatch` for a file that is not the published one
    ///   (nothing of it is kept).
    @discardableResult
    public func install(_ modelId: String, from files: [URL]) throws -> URL {
        let model = try catalog.model(modelId)
        let sources = try Self.candidates(files)
        var chosen: [(AIModelFile, URL)] = []
        var missing: [String] = []
        for file in model.files {
            if let source = sources.first(where: { $0.lastPathComponent == file.name }) {
                chosen.append((file, source))
            } else {
                missing.append(file.name)
            }
        }
        guard missing.isEmpty else {
            throw AIModelInstallError.missingFiles(modelId: modelId, names: missing, searched: files.map(\.path))
        }
        let folder = ModelFolder(model: model, in: directory)
        try prepareDirectory()
        let lock = try lock(folder)
        defer { withExtendedLifetime(lock) {} }
        try folder.createFolder()
        folder.removeMarker()
        for (file, source) in chosen {
            let final = folder.fileURL(file)
            if source.standardizedFileURL.path == final.standardizedFileURL.path {
                try verify(final, as: file)
                continue
            }
            let part = folder.partURL(file)
            try? FileManager.default.removeItem(at: part)
            do {
                try FileManager.default.copyItem(at: source, to: part)
            } catch {
                try? FileManager.default.removeItem(at: part)
                throw ModelFileError(action: "copy", path: "\(source.path) to \(part.path)", reason: "\(error.localizedDescription)")
            }
            try verify(part, as: file)
            try ModelFolder.replace(final, with: part)
        }
        try folder.writeMarker()
        return folder.url
    }

    /// The files given, a folder standing for the regular files directly in it.
    private static func candidates(_ paths: [URL]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
                throw AIModelInstallError.notFound(path: path.path)
            }
            if isDirectory.boolValue {
                let children = (try? FileManager.default.contentsOfDirectory(at: path, includingPropertiesForKeys: nil)) ?? []
                files += children.filter { ModelFolder.size(of: $0) != nil }.sorted { $0.path < $1.path }
            } else {
                files.append(path)
            }
        }
        return files
    }
}
