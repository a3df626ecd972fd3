import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// Real mail for the search suite: the notmuch `lkml` and `default` corpora and SpamAssassin's
/// ham (its spam is left out), repeated with rewritten Message-IDs (one added where a message has none) so
/// every copy is its own message, each written with its Date header as the file's time (which
/// Dovecot reports as the arrival date), so both clients see the same dates.
struct SearchCorpus {
    static let folders = [
        "threading/notmuch/corpora/lkml", "threading/notmuch/corpora/default",
        "mime/spamassassin-t/t/data/nice",
    ]

    /// Files left out: `VAULTMAIL_BENCH_SEARCH_SKIP` (comma-separated `folder/file`). None is
    /// by default: the six CRLF ham files that once stalled the sync (Dovecot announced them
    /// with the `W=` size of their file names, too large, and libetpan spun on the short
    /// literal) are fetched whole since the sync reads message bodies itself
    /// (`MaildirFetchTests`, `MaildirFilesSyncTests`).
    static var skipped: Set<String> {
        Set(ProcessInfo.processInfo.environment["VAULTMAIL_BENCH_SEARCH_SKIP"]?.split(separator: ",").map(String.init) ?? [])
    }

    let originals: Int
    let messages: [[UInt8]]
    let dates: [Date]
    let distinctMessages: Int

    static func load(repeatedTo size: Int) throws -> SearchCorpus {
        var originals: [[UInt8]] = []
        for folder in folders {
            for file in try TestMaterial.files(under: folder) where !skipped.contains("\(folder)/\(file)") {
                originals.append(try TestMaterial.bytes(folder, file))
            }
        }
        let parser = GMimeMessageParser()
        let originalDates = originals.map { parser.parse($0).date ?? Date(timeIntervalSince1970: 1_262_304_000) }
        var messages: [[UInt8]] = []
        var dates: [Date] = []
        messages.reserveCapacity(size)
        var repetition = 0
        while messages.count < size {
            for (index, original) in originals.enumerated() where messages.count < size {
                messages.append(SyncBenchmarks.Corpus.rewrite(withMessageId(original, index), repetition: repetition))
                dates.append(originalDates[index])
            }
            repetition += 1
        }
        return SearchCorpus(originals: originals.count, messages: messages, dates: dates,
                            distinctMessages: SyncBenchmarks.Corpus.distinctIds(messages))
    }

    /// The message with a Message-ID header, one made up when it has none.
    static func withMessageId(_ message: [UInt8], _ index: Int) -> [UInt8] {
        let head = String(decoding: message.prefix(16_384), as: UTF8.self)
        let hasId = head.split(separator: "\n").prefix { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            .contains { $0.lowercased().hasPrefix("message-id:") }
        return hasId ? message : Array("Message-ID: <original-\(index)@bench.vaultmail>\n".utf8) + message
    }

    /// Maildir files in `home/Maildir`, named as Dovecot names them, dated by their Date headers.
    func write(home: URL) throws {
        let corpus = SyncBenchmarks.Corpus(originals: originals, messages: messages, distinctMessages: distinctMessages)
        try corpus.writeMaildir(home: home)
        let current = home.appendingPathComponent("Maildir/cur")
        for name in try FileManager.default.contentsOfDirectory(atPath: current.path) {
            guard let marker = name.range(of: ".M"), let end = name[marker.upperBound...].firstIndex(of: "P"),
                  let index = Int(name[marker.upperBound..<end]), index < dates.count else { continue }
            try FileManager.default.setAttributes([.modificationDate: dates[index]], ofItemAtPath: current.appendingPathComponent(name).path)
        }
    }
}
