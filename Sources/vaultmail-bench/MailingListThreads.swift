import Foundation
import VaultMailCore
import VaultMailMIME

/// Real conversations from public mailing-list archives (mboxrd files, such as the lore.kernel.org
/// public-inbox mirrors exported by `pi2mbox.py`), read from a path given on the command line:
/// never from the repository (issue 35). Messages are parsed with the app's own MIME parser and
/// threaded by References and In-Reply-To; patches (subjects with "[PATCH") are left out.
struct MailingListThreads {
    struct Thread {
        var id: String
        var list: String
        var messages: [ParsedMessage]
    }

    var threads: [Thread]

    /// The threads of the mbox files at `paths`.
    static func load(_ paths: [String]) throws -> MailingListThreads {
        var threads: [Thread] = []
        let parser = GMimeMessageParser()
        for path in paths {
            let list = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "cannot read the mbox \(path): give the path of an mboxrd file (see docs/ai-evaluation/writing.md)")
            }
            let messages = split(mbox: data).map(parser.parse).filter { !$0.subject.contains("[PATCH") }
            threads += thread(messages, list: list)
        }
        return MailingListThreads(threads: threads)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The threads with `range` messages, in a fixed order (by a hash of their first Message-ID),
    /// at most `limit`.
    func sample(_ range: ClosedRange<Int>, limit: Int) -> [Thread] {
        Array(threads.filter { range.contains($0.messages.count) }.sorted { stableHash($0.id) < stableHash($1.id) }.prefix(limit))
    }

    /// The raw messages of an mboxrd file: split at "From " lines, ">From " unquoted.
    static func split(mbox data: Data) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = []
        var started = false
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.starts(with: Array("From ".utf8)) {
                if started, !current.isEmpty { messages.append(current) }
                current = []
                started = true
                continue
            }
            var bytes = Array(line)
            if bytes.first == UInt8(ascii: ">"), bytes.drop(while: { $0 == UInt8(ascii: ">") }).starts(with: Array("From ".utf8)) {
                bytes.removeFirst()
            }
            current += bytes
            current.append(UInt8(ascii: "\n"))
        }
        if started, !current.isEmpty { messages.append(current) }
        return messages
    }

    /// Messages grouped by the first Message-ID they refer to (or their own), oldest first.
    static func thread(_ messages: [ParsedMessage], list: String) -> [Thread] {
        var rootOf: [String: String] = [:]
        var groups: [String: [ParsedMessage]] = [:]
        let sorted = messages.sorted { ($0.date ?? .distantPast) < ($1.date ?? .distantPast) }
        for message in sorted {
            let own = message.messageId ?? message.stableMessageId
            let parent = message.references.first ?? message.inReplyTo
            let root = parent.map { rootOf[$0] ?? $0 } ?? own
            rootOf[own] = root
            groups[root, default: []].append(message)
        }
        return groups.map { Thread(id: $0.key, list: list, messages: $0.value) }.sorted { $0.id < $1.id }
    }
}

/// FNV-1a, 64 bits: a hash that is the same in every run (Swift's `Hasher` is seeded per process).
func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}
