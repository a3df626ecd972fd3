internal import CGnuTLSHash
import Foundation

/// The SHA-256 of a file, read a megabyte at a time through GnuTLS's digest (a 90 MB model in
/// a fraction of a second, never the whole file in memory). Core's pure-Swift `SHA256` takes
/// about 25 s for the same file in a debug build and holds all of it.
enum FileDigest {
    /// The digest of the file at `url` as 64 lowercase hex digits.
    static func sha256(of url: URL) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ModelFileError.system("read", url.path) }
        defer { close(fd) }
        let hash = try SHA256Stream()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ModelFileError.system("read", url.path)
            }
            if count == 0 { break }
            try hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hash.finish().map { String(format: "%02x", $0) }.joined()
    }
}

/// One running SHA-256; owns GnuTLS's hash handle and frees it once (`finish` or `deinit`).
private final class SHA256Stream {
    private var handle: gnutls_hash_hd_t?

    init() throws {
        var handle: gnutls_hash_hd_t?
        let result = gnutls_hash_init(&handle, GNUTLS_DIG_SHA256)
        guard result == 0, let handle else {
            throw ModelFileError(action: "compute", path: "a SHA-256", reason: String(cString: gnutls_strerror(result)))
        }
        self.handle = handle
    }

    func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let handle, let base = bytes.baseAddress, bytes.count > 0 else { return }
        let result = gnutls_hash(handle, base, bytes.count)
        guard result == 0 else { throw ModelFileError(action: "compute", path: "a SHA-256", reason: String(cString: gnutls_strerror(result))) }
    }

    /// The 32-byte digest; the handle is freed here (gnutls_hash_deinit writes the digest and frees it).
    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        if let handle {
            digest.withUnsafeMutableBytes { gnutls_hash_deinit(handle, $0.baseAddress) }
            self.handle = nil
        }
        return digest
    }

    deinit {
        if let handle { gnutls_hash_deinit(handle, nil) }
    }
}
