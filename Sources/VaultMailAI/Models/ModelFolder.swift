import Foundation
import VaultMailCore

/// One model's place in the models folder: `<models>/<id>/<file name>` for each verified file,
/// `<file name>.part` while a file downloads, and `installed.sha256` written last, listing the
/// digests checked (in `sha256sum` format). "Is it installed" is that small read and a look at
/// each file (E-04): its size must be the catalog's, and a file written after the marker is
/// hashed again.
struct ModelFolder {
    static let markerName = "installed.sha256"
    static let partSuffix = ".part"

    let model: AIModelDescriptor
    let url: URL
    /// The lock of downloads and removals, beside the folder so removing the folder keeps it.
    let lockPath: String

    init(model: AIModelDescriptor, in modelsDirectory: URL) {
        self.model = model
        url = modelsDirectory.appendingPathComponent(model.id, isDirectory: true)
        lockPath = modelsDirectory.appendingPathComponent(".\(model.id).lock").path
    }

    func fileURL(_ file: AIModelFile) -> URL { url.appendingPathComponent(file.name) }
    func partURL(_ file: AIModelFile) -> URL { url.appendingPathComponent(file.name + Self.partSuffix) }
    var markerURL: URL { url.appendingPathComponent(Self.markerName) }

    /// What the marker holds when every file of this catalog entry was verified.
    var markerText: String { model.files.map { "\($0.sha256)  \($0.name)\n" }.joined() }

    /// True when the model was installed and is intact.
    var isInstalled: Bool { hasMarker && damage == nil }

    /// True when the marker lists exactly the catalog's digests (files verified before it was written).
    var hasMarker: Bool {
        guard let data = FileManager.default.contents(atPath: markerURL.path), data.count < 64 * 1024 else { return false }
        return String(decoding: data, as: UTF8.self) == markerText
    }

    /// Bytes of the model already here: verified files and partial downloads.
    var bytesPresent: Int64 {
        model.files.reduce(0) { sum, file in
            let here = Self.size(of: fileURL(file)) ?? Self.size(of: partURL(file)) ?? 0
            return sum + min(here, file.sizeBytes)
        }
    }

    /// What is wrong with an installed model's files (E-04), nil when nothing is: a file
    /// missing, of another size than the catalog's, or written after the marker with another
    /// SHA-256 (only such a file is hashed again, so an intact model costs a `stat` per file).
    var damage: String? {
        let installedAt = Self.modified(markerURL)
        for file in model.files {
            let url = fileURL(file)
            guard let size = Self.size(of: url) else { return "\(file.name) is missing" }
            guard size == file.sizeBytes else { return "\(file.name) has \(size) bytes where it should have \(file.sizeBytes)" }
            if let installedAt, let written = Self.modified(url), written > installedAt,
               (try? FileDigest.sha256(of: url)) != file.sha256.lowercased() {
                return "\(file.name) was changed after it was installed: its SHA-256 is not the published one"
            }
        }
        return nil
    }

    var state: AIModelState {
        if hasMarker { return damage.map { .damaged(reason: $0) } ?? .installed }
        let present = bytesPresent
        guard present > 0 else { return .notInstalled }
        return .partial(fraction: min(1, Double(present) / Double(max(1, model.sizeBytes))))
    }

    func writeMarker() throws {
        do {
            try Data(markerText.utf8).write(to: markerURL, options: .atomic)
        } catch {
            throw ModelFileError(action: "write", path: markerURL.path, reason: "\(error.localizedDescription)")
        }
    }

    func removeMarker() {
        try? FileManager.default.removeItem(at: markerURL)
    }

    func createFolder() throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ModelFileError(action: "create", path: url.path, reason: "\(error.localizedDescription)")
        }
    }

    /// The size of a regular file, nil when there is none.
    static func size(of url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// When a file was last written (seconds, nanoseconds), nil when there is none.
    static func modified(_ url: URL) -> (Int, Int)? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
    }

    /// Moves `from` onto `to`, replacing it (rename(2): atomic within the folder).
    static func replace(_ to: URL, with from: URL) throws {
        guard rename(from.path, to.path) == 0 else { throw ModelFileError.system("move into place", to.path) }
    }
}
