import Foundation

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
