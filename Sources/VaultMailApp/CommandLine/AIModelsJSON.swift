import Foundation
import VaultMailCore

/// The stable JSON of `vaultmail ai models --json` (see docs/ai.md): every key always there,
/// null when there is no value.
public struct AIModelsJSON: Encodable, Sendable {
    public struct File: Encodable, Sendable {
        public var name: String
        public var url: String
        public var sha256: String
        public var sizeBytes: Int64
    }

    public struct Model: Encodable, Sendable {
        public var id: String
        public var name: String
        public var purpose: String
        public var licence: String
        public var summary: String
        public var sizeBytes: Int64
        /// "notInstalled", "partial" or "installed".
        public var state: String
        /// 0…1 of the bytes here; 1 when installed, 0 when not.
        public var fraction: Double
        /// A download of it is running now.
        public var downloading: Bool
        /// The folder of the installed model; null unless installed.
        public var path: String?
        public var files: [File]

        init(_ status: AIModelStatus, path: String?) {
            let model = status.model
            id = model.id
            name = model.name
            purpose = model.purpose.rawValue
            licence = model.licence
            summary = model.summary
            sizeBytes = model.sizeBytes
            switch status.state {
            case .notInstalled: (state, fraction) = ("notInstalled", 0)
            case .partial(let part): (state, fraction) = ("partial", part)
            case .installed: (state, fraction) = ("installed", 1)
            case .damaged: (state, fraction) = ("damaged", 0)
            }
            downloading = status.isDownloading
            self.path = path
            files = model.files.map { File(name: $0.name, url: $0.url.absoluteString, sha256: $0.sha256, sizeBytes: $0.sizeBytes) }
        }

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(id, forKey: .id)
            try keys.encode(name, forKey: .name)
            try keys.encode(purpose, forKey: .purpose)
            try keys.encode(licence, forKey: .licence)
            try keys.encode(summary, forKey: .summary)
            try keys.encode(sizeBytes, forKey: .sizeBytes)
            try keys.encode(state, forKey: .state)
            try keys.encode(fraction, forKey: .fraction)
            try keys.encode(downloading, forKey: .downloading)
            try keys.encode(path, forKey: .path)
            try keys.encode(files, forKey: .files)
        }

        private enum CodingKeys: String, CodingKey {
            case id, name, purpose, licence, summary, sizeBytes, state, fraction, downloading, path, files
        }
    }

    /// The models folder.
    public var directory: String
    /// Bytes under it, partial downloads included.
    public var storageUsedBytes: Int64
    public var models: [Model]
}
