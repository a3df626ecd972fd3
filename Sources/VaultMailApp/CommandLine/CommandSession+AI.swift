import Foundation
import VaultMailAI
import VaultMailCore

extension CommandSession {
    /// The model manager over this home's models folder (`$VAULTMAIL_MODELS_DIR` overrides it).
    public func modelManager(catalog: AIModelCatalog = .standard) -> AIModelManager {
        AppDependencies.modelManager(home: home, catalog: catalog)
    }

    /// `vaultmail ai status`: the models installed, the storage they use, and which features
    /// are on (or how to turn them on).
    public func aiStatus(catalog: AIModelCatalog = .standard) -> String {
        let manager = modelManager(catalog: catalog)
        let models = manager.availableModels()
        var lines = ["Models folder: \(manager.directory.path) (\(Self.size(manager.storageUsed())) used)"]
        let installed = models.filter { $0.state == .installed }
        lines.append("Installed:     " + (installed.isEmpty ? "none" : installed.map { "\($0.id) (\(Self.size($0.model.sizeBytes)))" }.joined(separator: ", ")))
        for status in models {
            guard case .damaged(let reason) = status.state else { continue }
            lines.append("Damaged:       \(status.id) (\(reason)); `vaultmail ai download \(status.id)` installs it again")
        }
        for status in models where status.state != .installed && status.state != .notInstalled {
            if case .damaged = status.state { continue }
            lines.append("Partial:       \(status.id) \(Self.stateText(status)); `vaultmail ai download \(status.id)` resumes it")
        }
        lines.append("Features:")
        for (feature, modelId) in Self.features {
            guard models.contains(where: { $0.id == modelId }) else { continue }
            do {
                _ = try manager.loadableDirectory(for: modelId, feature: feature)
                lines.append("  \(feature): on (\(modelId))")
            } catch {
                lines.append("  \(feature): off. " + error.description)
            }
        }
        lines.append("Processor code (chosen for this processor; \(LlamaCPUBackend.overrideVariable)=<variant> picks another):")
        let sentenceModel = manager.installedDirectory(for: AIModelCatalog.embeddingModelId) != nil
        lines += ProcessorCode.report(sentenceModelInstalled: sentenceModel).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The features of the AI layer and the model each needs.
    static let features: [(String, String)] = [
        ("categories and search by meaning", AIModelCatalog.embeddingModelId),
        ("smart replies and summaries", AIModelCatalog.generationModelId),
    ]

    /// `vaultmail ai models`: the catalog with each model's state, as a table or JSON.
    public func aiModels(json: Bool = false, catalog: AIModelCatalog = .standard) throws -> String {
        let manager = modelManager(catalog: catalog)
        let models = manager.availableModels()
        if json {
            return try ThreadJSON.encode(AIModelsJSON(
                directory: manager.directory.path, storageUsedBytes: manager.storageUsed(),
                models: models.map { AIModelsJSON.Model($0, path: manager.installedDirectory(for: $0.id)?.path) }))
        }
        var lines = [Self.row("ID", "STATE", "SIZE", "PURPOSE", "LICENCE", "NAME")]
        for status in models {
            let model = status.model
            lines.append(Self.row(model.id, Self.stateText(status), Self.size(model.sizeBytes), model.purpose.rawValue, model.licence, model.name))
            lines.append("    \(model.summary)")
            lines.append("    files: \(model.files.map(\.name).joined(separator: ", "))")
        }
        lines.append("Storage used: \(Self.size(manager.storageUsed())) in \(manager.directory.path)")
        return lines.joined(separator: "\n")
    }

    /// `vaultmail ai download ID`: downloads (or resumes) a model, telling `progress` the
    /// fraction done. Cancelling the task stops it and keeps what arrived.
    public func aiDownload(_ modelId: String, mirror: String? = nil, catalog: AIModelCatalog = .standard,
                           progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> String {
        let manager = modelManager(catalog: catalog)
        var mirrorURL: URL?
        if let mirror {
            guard let url = URL(string: mirror), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw CommandError("--mirror '\(mirror)' is not an http:// or https:// address", usage: true)
            }
            mirrorURL = url
        }
        do {
            let model = try catalog.model(modelId)
            let folder = try await manager.download(modelId, mirror: mirrorURL, progress: progress)
            return "Installed \(model.name) (\(Self.size(model.sizeBytes))) in \(folder.path)."
        } catch AIError.cancelled {
            let model = try catalog.model(modelId)
            var kept: Int64 = 0
            if case .partial(let fraction) = manager.state(of: modelId) { kept = Int64(fraction * Double(model.sizeBytes)) }
            var resume = "vaultmail ai download \(modelId)"
            if let mirror { resume += " --mirror \(Self.shellQuoted(mirror))" }
            throw CommandError("download cancelled: \(Self.size(kept)) of \(Self.size(model.sizeBytes)) kept; run `\(resume)` to resume it")
        } catch let error as AIError {
            throw CommandError(error.description)
        }
    }

    /// `vaultmail ai remove ID`: deletes a model's files and says how much was freed.
    public func aiRemove(_ modelId: String, catalog: AIModelCatalog = .standard) throws -> String {
        do {
            let freed = try modelManager(catalog: catalog).remove(modelId)
            return freed == 0 ? "\(modelId) is not installed; nothing to remove." : "Removed \(modelId): \(Self.size(freed)) freed."
        } catch let error as AIError {
            throw CommandError(error.description)
        }
    }

    /// `vaultmail ai install ID PATH…`: installs a model from its files (or a folder holding them), checked first.
    public func aiInstall(_ modelId: String, from paths: [String], catalog: AIModelCatalog = .standard) throws -> String {
        guard !paths.isEmpty else { throw CommandError("give the model's files, or the folder holding them", usage: true) }
        do {
            let folder = try modelManager(catalog: catalog).install(modelId, from: paths.map { URL(fileURLWithPath: $0) })
            return "Installed \(modelId) in \(folder.path) (every file's SHA-256 checked)."
        } catch let error as AIError {
            throw CommandError(error.description)
        } catch let error as AIModelInstallError {
            throw CommandError(error.description)
        }
    }

    static func stateText(_ status: AIModelStatus) -> String {
        switch status.state {
        case .installed: return "installed"
        case .notInstalled: return status.isDownloading ? "downloading" : "not installed"
        case .partial(let fraction):
            return "\(status.isDownloading ? "downloading" : "partial") \(Int((fraction * 100).rounded(.down)))%"
        case .damaged: return status.isDownloading ? "downloading" : "damaged: download it again"
        }
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1000 ? "\(bytes) bytes" : ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }

    private static func row(_ id: String, _ state: String, _ size: String, _ purpose: String, _ licence: String, _ name: String) -> String {
        [ThreadRow.pad(id, 21), ThreadRow.pad(state, 15), ThreadRow.pad(size, 9), ThreadRow.pad(purpose, 10), ThreadRow.pad(licence, 11), name]
            .joined(separator: " ")
    }
}
