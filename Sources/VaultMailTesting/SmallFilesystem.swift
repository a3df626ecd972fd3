import Foundation
import VaultMailCore

/// A small filesystem made for one test (a tmpfs of `size` bytes), so a test can fill the disk
/// under the store for real (issue 34: SQLite's "database or disk is full"). Mounting needs
/// root (CAP_SYS_ADMIN), as CI has; `canMount` says whether this machine allows it, for a
/// test's `.enabled(if:)`. `unmount()` removes it (call it in a `defer`).
public final class SmallFilesystem: Sendable {
    /// Where it is mounted.
    public let directory: URL
    private var filler: URL { directory.appendingPathComponent("filler") }

    /// Whether a tmpfs can be mounted here (tried once, on a throwaway directory).
    public static let canMount: Bool = {
        guard let probe = try? SmallFilesystem(size: 64 * 1024) else { return false }
        probe.unmount()
        return true
    }()

    /// The reason shown when a test is skipped because mounting is not permitted.
    public static let cannotMountReason = "mounting a small tmpfs needs root (CAP_SYS_ADMIN); CI runs as root"

    /// Mounts a tmpfs of `size` bytes at a new temporary directory.
    public init(size: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-smallfs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try ProcessCapture.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path],
                                            timeout: .seconds(30))
        guard result.exitedNormally, result.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw ChildProcess.Failure(description: "cannot mount a tmpfs at \(directory.path): \(String(decoding: result.output, as: UTF8.self))")
        }
    }

    /// Fills what is left of it with a file, until the filesystem answers "no space left".
    public func fill() throws {
        guard let handle = fopen(filler.path, "a") else { throw ChildProcess.Failure(description: "cannot create \(filler.path)") }
        defer { fclose(handle) }
        setvbuf(handle, nil, _IONBF, 0)
        for chunk in [1 << 20, 1 << 16, 1 << 12, 512, 1] {
            let bytes = [UInt8](repeating: 0, count: chunk)
            while fwrite(bytes, 1, chunk, handle) == chunk {}
            clearerr(handle)
        }
    }

    /// Frees the space `fill()` took.
    public func free() {
        try? FileManager.default.removeItem(at: filler)
    }

    /// Unmounts it and removes its directory.
    public func unmount() {
        _ = try? ProcessCapture.run("/bin/umount", ["-l", directory.path], timeout: .seconds(30))
        try? FileManager.default.removeItem(at: directory)
    }
}
