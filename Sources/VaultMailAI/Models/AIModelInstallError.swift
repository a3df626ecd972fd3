import Foundation
import VaultMailCore

/// Why a model could not be installed from files: what is missing and what to do.
public enum AIModelInstallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path given does not exist.
    case notFound(path: String)
    /// Files of the model are not among those given.
    case missingFiles(modelId: String, names: [String], searched: [String])

    public var description: String {
        switch self {
        case .notFound(let path):
            return "there is no file or folder \(path)"
        case .missingFiles(let modelId, let names, let searched):
            return "\(names.joined(separator: ", ")) of \(modelId) \(names.count == 1 ? "is" : "are") not among \(searched.joined(separator: ", ")); "
                + "give every file of the model (`vaultmail ai models` lists them) or the folder holding them"
        }
    }
}

extension AIModelInstallError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .notFound(let path): "There is no file or folder \(path). Give the path of the model's files."
        case .missingFiles: "Some files of the model are missing. Give every file of the model, or the folder holding them."
        }
    }
}
