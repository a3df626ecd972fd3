import Crypto
import Foundation

/// The image proxy's cache on disk (issue 30): each image stored once by the SHA-256 of its
/// bytes (`content/<hex>`, its type beside it), each address pointing to its content
/// (`address/<sha256 of the URL>`), so two addresses for the same picture keep one copy and a
/// newsletter opened again fetches nothing. An address that redirected to a tracker is kept as
/// such (`address/…` holds "tracker" and its host), so it is not asked again either. Kept under
/// `capacity` bytes: the least recently shown images go first. Files are the owner's only (0600
/// in a 0700 directory).
public struct RemoteImageCache: Sendable {
    public let directory: URL
    public let capacity: Int

    /// A cache in `directory` (made when first written) of at most `capacity` bytes of images.
    public init(directory: URL, capacity: Int = 200_000_000) {
        self.directory = directory
        self.capacity = capacity
    }

    /// What the cache knows of an address.
    public enum Entry: Sendable, Equatable {
        case image(RemoteImage)
        /// It redirected to a tracker at `host`.
        case tracker(host: String)
    }

    /// What was last learnt of `url`, or nil; an image found counts as recently shown.
    public func entry(for url: String) -> Entry? {
        guard let pointer = try? String(contentsOf: addressFile(url), encoding: .utf8) else { return nil }
        let parts = pointer.split(separator: "\n", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        if parts[0] == Self.trackerMark { return .tracker(host: parts[1]) }
        guard let data = FileManager.default.contents(atPath: contentFile(parts[0]).path) else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: contentFile(parts[0]).path)
        return .image(RemoteImage(data: data, contentType: parts[1]))
    }

    /// Keeps `image` as what `url` shows, then trims the cache to its capacity.
    public func store(_ image: RemoteImage, for url: String) {
        let digest = Self.hex(SHA256.hash(data: image.data))
        let content = contentFile(digest)
        guard write(FileManager.default.fileExists(atPath: content.path) ? nil : image.data, to: content),
              write(Data("\(digest)\n\(image.contentType)".utf8), to: addressFile(url)) else { return }
        trim()
    }

    /// Remembers that `url` redirected to a tracker at `host`.
    public func storeTracker(host: String, for url: String) {
        _ = write(Data("\(Self.trackerMark)\n\(host)".utf8), to: addressFile(url))
    }

    private static let trackerMark = "tracker"

    /// Writes `data` (nil: nothing) to `file`, private to the owner; false when it cannot (a
    /// cache that cannot be written only costs a fetch next time).
    private func write(_ data: Data?, to file: URL) -> Bool {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            guard let data else { return true }
            try data.write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            return true
        } catch {
            return false
        }
    }

    /// The bytes the cached images take.
    public func size() -> Int {
        contents().reduce(0) { $0 + $1.size }
    }

    /// Removes every cached image.
    public func clear() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func trim() {
        var files = contents()
        var total = files.reduce(0) { $0 + $1.size }
        guard total > capacity else { return }
        files.sort { $0.used < $1.used }
        for file in files where total > capacity {
            try? FileManager.default.removeItem(at: file.url)
            total -= file.size
        }
        // Addresses whose content went are misses from now on (`image(for:)` finds no file).
    }

    private func contents() -> [(url: URL, size: Int, used: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory.appendingPathComponent("content"), includingPropertiesForKeys: keys)) ?? []
        return urls.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
    }

    private func contentFile(_ digest: String) -> URL {
        directory.appendingPathComponent("content").appendingPathComponent(digest)
    }

    private func addressFile(_ url: String) -> URL {
        directory.appendingPathComponent("address").appendingPathComponent(Self.hex(SHA256.hash(data: Data(url.utf8))))
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
