import Foundation
import VaultMailCore
import VaultMailStore

/// Where VaultMail keeps its data: `--home`, else `$VAULTMAIL_HOME`, else
/// `$XDG_DATA_HOME/vaultmail`, else `~/.local/share/vaultmail`.
public struct VaultMailHome: Sendable {
    public let directory: URL

    public init(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let explicit, !explicit.isEmpty {
            directory = URL(fileURLWithPath: explicit)
        } else if let home = environment["VAULTMAIL_HOME"], !home.isEmpty {
            directory = URL(fileURLWithPath: home)
        } else if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            directory = URL(fileURLWithPath: data).appendingPathComponent("vaultmail")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            directory = URL(fileURLWithPath: home).appendingPathComponent(".local/share/vaultmail")
        }
    }

    public var databasePath: String { directory.appendingPathComponent("vaultmail.sqlite").path }
    public var daemonLockPath: String { directory.appendingPathComponent("daemon.lock").path }
    /// The images the daemon fetched for messages shown with their images (`RemoteImageCache`).
    public var imageCacheDirectory: URL { directory.appendingPathComponent("image-cache") }

    /// Settings → Storage and `vaultmail storage` (issue 31): the store in `database`, the image
    /// cache and the disk of this home.
    public func storage(database: AppDatabase, accounts: any AccountRepository) -> Storage {
        let models = AppDependencies.modelManager(home: self)
        return Storage(store: GRDBStoreUsage(database: database), accounts: accounts,
                       imageCache: RemoteImageCache(directory: imageCacheDirectory), home: directory, models: { models.storageUsed() })
    }

    /// Creates the directory, readable by its owner only (mail is private).
    public func prepare() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}
