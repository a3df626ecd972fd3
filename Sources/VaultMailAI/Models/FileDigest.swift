import Crypto
import Foundation
import VaultMailCore

/// The SHA-256 of a file, read a megabyte at a time through swift-crypto (a 90 MB model in a
/// fraction of a second, never the whole file in memory).
enum FileDigest {
    /// The digest of the file at `url` as 64 lowercase hex digits.
    static func sha256(of url: URL) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ModelFileError.system("read", url.path) }
        defer { close(fd) }
        var hash = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ModelFileError.system("read", url.path)
            }
            if count == 0 { break }
            hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hash.finalize().hexString
    }
}
