import Foundation
import VaultMailCore

/// A model file or folder that could not be read or written, with the path and the system's reason.
struct ModelFileError: Error, CustomStringConvertible {
    let action: String
    let path: String
    let reason: String

    /// The error of the last failed system call (`errno`).
    static func system(_ action: String, _ path: String) -> ModelFileError {
        ModelFileError(action: action, path: path, reason: String(cString: strerror(errno)))
    }

    var description: String { "cannot \(action) \(path): \(reason)" }
}

extension ModelFileError: PlainWordsError {
    /// The path and the system's reason are the detail (issue 29).
    var plainWords: String {
        "VaultMail couldn't \(action) the model's files on this computer. Check the disk space and the models folder's permissions, then try again."
    }
}
