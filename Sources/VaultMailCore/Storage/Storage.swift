import Foundation

/// What one account's mail takes in the store (Settings → Storage, issue 31).
public struct AccountStoreUsage: Sendable, Equatable {
    public var accountId: String
    public var messages: Int
    /// The messages as received (their sources), attachments included.
    public var mailBytes: Int
    /// The part of `mailBytes` that is attachments (their decoded sizes).
    public var attachmentBytes: Int
    /// The vectors search by meaning reads.
    public var vectorBytes: Int

    public init(accountId: String, messages: Int, mailBytes: Int, attachmentBytes: Int, vectorBytes: Int) {
        self.accountId = accountId
        self.messages = messages
        self.mailBytes = mailBytes
        self.attachmentBytes = attachmentBytes
        self.vectorBytes = vectorBytes
    }
}

/// What the store holds: per account, the search index (one for all accounts), and the files.
public struct StoreUsage: Sendable, Equatable {
    public var accounts: [AccountStoreUsage]
    /// The word index (its tables and their own indexes), for all accounts together.
    public var searchIndexBytes: Int
    /// The store's files on disk (the database and its write-ahead log).
    public var fileBytes: Int

    public init(accounts: [AccountStoreUsage], searchIndexBytes: Int, fileBytes: Int) {
        self.accounts = accounts
        self.searchIndexBytes = searchIndexBytes
        self.fileBytes = fileBytes
    }
}

/// Port: measures what the store holds.
public protocol StoreUsageReading: Sendable {
    func storeUsage() async throws -> StoreUsage
}

/// Settings → Storage and `vaultmail storage` (issue 31): what VaultMail keeps on this machine,
/// per account and in all, the space left on the disk it is kept on, and clearing what can be
/// fetched again (the cache of remote images). Written once for the tool and the web app.
public struct Storage: Sendable {
    /// Below this much free space the disk is "low" (E-05): VaultMail says so where storage is shown.
    public static let lowSpaceBytes: Int64 = 512 * 1024 * 1024

    /// The whole picture at one moment.
    public struct Report: Sendable, Equatable {
        public struct Account: Sendable, Equatable {
            public var name: String
            public var email: String
            public var usage: AccountStoreUsage
        }

        public var accounts: [Account]
        public var searchIndexBytes: Int
        public var storeFileBytes: Int
        /// The cache of remote images the user let in (nil: this process keeps none).
        public var imageCacheBytes: Int?
        /// The on-device models (nil: not known here).
        public var modelBytes: Int64?
        /// Free space on the disk VaultMail's home is on, for the user (nil: unknown).
        public var freeBytes: Int64?

        /// The disk is nearly full (`Storage.lowSpaceBytes`).
        public var isLowOnSpace: Bool { freeBytes.map { $0 < Storage.lowSpaceBytes } ?? false }
    }

    private let store: any StoreUsageReading
    private let accounts: any AccountRepository
    private let imageCache: RemoteImageCache?
    private let home: URL
    private let models: (@Sendable () async -> Int64)?

    /// - Parameters:
    ///   - imageCache: the daemon's cache of remote images; nil where there is none to show.
    ///   - home: VaultMail's home: free space is that of its disk.
    ///   - models: the bytes the on-device models take.
    public init(store: any StoreUsageReading, accounts: any AccountRepository, imageCache: RemoteImageCache?, home: URL,
                models: (@Sendable () async -> Int64)? = nil) {
        self.store = store
        self.models = models
        self.accounts = accounts
        self.imageCache = imageCache
        self.home = home
    }

    public func report() async throws -> Report {
        let usage = try await store.storeUsage()
        let known = try await accounts.getAccounts()
        let byId = Dictionary(usage.accounts.map { ($0.accountId, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = known.map { account in
            Report.Account(name: account.name, email: account.email,
                           usage: byId[account.id] ?? AccountStoreUsage(accountId: account.id, messages: 0, mailBytes: 0, attachmentBytes: 0, vectorBytes: 0))
        }
        return Report(accounts: rows, searchIndexBytes: usage.searchIndexBytes, storeFileBytes: usage.fileBytes,
                      imageCacheBytes: imageCache?.size(), modelBytes: await models?(), freeBytes: Self.freeSpace(at: home))
    }

    /// Empties the cache of remote images; they are fetched again when a message showing them
    /// is opened. Returns the bytes freed (0 where there is no cache).
    @discardableResult
    public func clearImageCache() -> Int {
        guard let imageCache else { return 0 }
        let size = imageCache.size()
        imageCache.clear()
        return size
    }

    /// Free space for an unprivileged user on the file system holding `url` (statvfs's `f_bavail`).
    public static func freeSpace(at url: URL) -> Int64? {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
