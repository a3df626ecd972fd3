import Foundation

/// Third-party test material in `../shared/test-material` beside the repository (see its
/// README): read in place, never copied into the project. `VAULTMAIL_TEST_MATERIAL` may point
/// elsewhere.
public enum TestMaterial {
    public static var root: URL {
        if let path = ProcessInfo.processInfo.environment["VAULTMAIL_TEST_MATERIAL"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // Sources/VaultMailTesting/TestMaterial.swift → the package root → ../shared.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared/test-material")
    }

    /// Regular files under `folder` (recursively), sorted by path, as paths relative to it.
    public static func files(under folder: String, where include: (String) -> Bool = { _ in true }) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw MaterialMissing(path: base.path)
        }
        var found: [String] = []
        let prefix = base.standardizedFileURL.path + "/"
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            if include(relative) { found.append(relative) }
        }
        if found.isEmpty { throw MaterialMissing(path: base.path) }
        return found.sorted()
    }

    public static func bytes(_ folder: String, _ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(relative)))
    }
}

public struct MaterialMissing: Error, CustomStringConvertible {
    public let path: String
    public init(path: String) { self.path = path }
    public var description: String {
        "no test material at \(path): check out the project with shared/ beside it, or set VAULTMAIL_TEST_MATERIAL"
    }
}
