import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes sure one daemon runs per home: an exclusive `flock` on `daemon.lock`, held for the
/// life of the process (the kernel releases it when the process dies, however it dies).
public final class DaemonLock: Sendable {
    private let descriptor: Int32
    public let path: String

    /// Takes the lock, or fails saying which process holds it.
    public init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandError("cannot open the daemon lock \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw CommandError("another vaultmail daemon\(holder.map { " (pid \($0))" } ?? "") is already running on this home (\(path)); stop it first, e.g. `systemctl --user stop vaultmail`")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        self.descriptor = descriptor
        self.path = path
    }

    /// Whether a daemon holds the lock at `path` now (nothing is written).
    public static func isHeld(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0
    }

    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
