import Foundation

/// An exclusive lock on a file (flock), so two processes (or two downloads in one process:
/// flock locks belong to the open file) never write one model at once. Released when the
/// lock is deallocated or the process ends.
final class DownloadLock {
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Takes the lock at `path` (creating the file), or returns nil at once when another holder has it.
    static func acquire(at path: String) throws -> DownloadLock? {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ModelFileError.system("open the lock", path) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            close(fd)
            return nil
        }
        return DownloadLock(fd: fd)
    }

    /// True when someone holds the lock at `path` now.
    static func isHeld(at path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
