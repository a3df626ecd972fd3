import Foundation
import VaultMailCore

extension CommandSession {
    /// `vaultmail storage`: what VaultMail keeps on this machine, per account and in all, and
    /// the space left on its disk (issue 31); `clearImages` first empties the image cache.
    public func storage(json: Bool = false, clearImages: Bool = false) async throws -> String {
        let storage = home.storage(database: dependencies.database, accounts: dependencies.accounts)
        let freed = clearImages ? storage.clearImageCache() : nil
        let report = try await storage.report()
        if json { return try ThreadJSON.encode(StorageJSON(report, freedImageBytes: freed)) }
        var lines: [String] = []
        if let freed { lines.append("Cleared the image cache: \(Self.size(freed)) freed.") }
        let row = { (cells: [String]) in cells.dropLast().map { ThreadRow.pad($0, 12) }.joined(separator: " ") + " " + cells.last! }
        lines.append(row(["MESSAGES", "MAIL", "ATTACHMENTS", "VECTORS", "ACCOUNT"]))
        for account in report.accounts {
            let usage = account.usage
            lines.append(row(["\(usage.messages)", Self.size(usage.mailBytes), Self.size(usage.attachmentBytes), Self.size(usage.vectorBytes),
                              "\(account.name) <\(account.email)>"]))
        }
        lines.append("Search index (all accounts): \(Self.size(report.searchIndexBytes))")
        lines.append("Store files: \(Self.size(report.storeFileBytes)) in \(home.databasePath)")
        if let images = report.imageCacheBytes { lines.append("Image cache: \(Self.size(images)) (clear it with `vaultmail storage --clear-images`)") }
        if let models = report.modelBytes { lines.append("On-device models: \(Self.size(models))") }
        if let free = report.freeBytes {
            lines.append("Free on this disk: \(Self.size(free))"
                + (report.isLowOnSpace ? " — low: free some space, or clear the image cache, before the disk fills" : ""))
        }
        return lines.joined(separator: "\n")
    }

    private static func size(_ bytes: Int) -> String { size(Int64(bytes)) }
}

/// `vaultmail storage --json` (stable: docs/storage.md).
struct StorageJSON: Encodable {
    struct Account: Encodable {
        var name: String
        var email: String
        var messages: Int
        var mailBytes: Int
        var attachmentBytes: Int
        var vectorBytes: Int
    }

    var accounts: [Account]
    var searchIndexBytes: Int
    var storeFileBytes: Int
    var imageCacheBytes: Int?
    var modelBytes: Int64?
    var freeBytes: Int64?
    var lowOnSpace: Bool
    var freedImageBytes: Int?

    init(_ report: Storage.Report, freedImageBytes: Int?) {
        accounts = report.accounts.map {
            Account(name: $0.name, email: $0.email, messages: $0.usage.messages, mailBytes: $0.usage.mailBytes,
                    attachmentBytes: $0.usage.attachmentBytes, vectorBytes: $0.usage.vectorBytes)
        }
        searchIndexBytes = report.searchIndexBytes
        storeFileBytes = report.storeFileBytes
        imageCacheBytes = report.imageCacheBytes
        modelBytes = report.modelBytes
        freeBytes = report.freeBytes
        lowOnSpace = report.isLowOnSpace
        self.freedImageBytes = freedImageBytes
    }
}
