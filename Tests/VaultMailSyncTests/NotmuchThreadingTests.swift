import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailSync
import VaultMailTesting

/// Threading agreement with notmuch 0.37 on its own test corpora
/// (`threading/notmuch/corpora/{default,lkml,threading}`, read in place: GPL material, never
/// copied). Each corpus file is parsed with `GMimeMessageParser` and threaded with
/// `ConversationThreader`; for every message we compare its parent (the nearest ancestor the
/// corpus holds, or none) with the tree notmuch published in
/// `expected/notmuch-0.37.<corpus>.threads.json`, and every conversation's membership.
@Suite("Threading agreement with notmuch")
struct NotmuchThreadingTests {
    static let base = "threading/notmuch"

    /// Differences we accept, by "corpus:message-id", with the reason. Empty: we agree fully.
    static let knownDifferences: [String: String] = [:]

    struct Agreement {
        var messages = 0
        var sameParent = 0
        var threads = 0
        var sameThreads = 0
        var differences: [String: String] = [:]
    }

    static func compare(corpus: String, policy: ConversationThreader.ParentPolicy) throws -> Agreement {
        let folder = "\(base)/corpora/\(corpus)"
        let parser = GMimeMessageParser()
        var input: [ThreadableMessage] = []
        for file in try TestMaterial.files(under: folder) {
            let parsed = parser.parse(try TestMaterial.bytes(folder, file))
            input.append(ThreadableMessage(id: file, parsed: parsed))
        }
        let ours = ConversationThreader.thread(input, accountId: "notmuch-\(corpus)", parentPolicy: policy)
        var ourParent: [String: String?] = [:]
        var ourThreads: [String: Set<String>] = [:]
        for assignment in ours {
            let id = MessageIDs.bare(assignment.messageId)
            ourParent.updateValue(assignment.parentMessageId.map(MessageIDs.bare), forKey: id)
            ourThreads[assignment.threadId, default: []].insert(id)
        }

        let expected = try NotmuchForest(json: TestMaterial.bytes(base, "expected/notmuch-0.37.\(corpus).threads.json"))
        var result = Agreement()
        for (id, parent) in expected.parent.sorted(by: { $0.key < $1.key }) {
            result.messages += 1
            guard let mine = ourParent[id] else {
                result.differences["\(corpus):\(id)"] = "notmuch has it, we do not"
                continue
            }
            if mine == parent {
                result.sameParent += 1
            } else {
                result.differences["\(corpus):\(id)"] = "parent: notmuch \(parent ?? "none"), ours \(mine ?? "none")"
            }
        }
        for id in ourParent.keys where expected.parent[id] == nil {
            result.differences["\(corpus):\(id)"] = "we have it, notmuch does not"
        }
        let ourThreadSets = Set(ourThreads.values)
        result.threads = expected.threads.count
        result.sameThreads = expected.threads.filter { ourThreadSets.contains($0) }.count
        return result
    }

    @Test(
        "AC-F-06: parent → child links and conversations agree with notmuch 0.37",
        arguments: ["default", "lkml", "threading"]
    )
    func agreesWithNotmuch(corpus: String) throws {
        let agreement = try Self.compare(corpus: corpus, policy: .inReplyToFirst)
        let jwz = try Self.compare(corpus: corpus, policy: .referencesFirst)
        let percent = Double(agreement.sameParent) * 100 / Double(max(agreement.messages, 1))
        print(String(
            format: "notmuch %@: %d/%d parents agree (%.1f%%), %d/%d conversations identical; References-first parent policy: %d/%d",
            corpus, agreement.sameParent, agreement.messages, percent, agreement.sameThreads, agreement.threads,
            jwz.sameParent, jwz.messages
        ))
        #expect(agreement.messages > 0)
        for (key, difference) in agreement.differences.sorted(by: { $0.key < $1.key }) where Self.knownDifferences[key] == nil {
            Issue.record("\(key): \(difference)")
        }
        for key in Self.knownDifferences.keys.sorted() where key.hasPrefix(corpus + ":") && agreement.differences[key] == nil {
            Issue.record("known difference \(key) no longer differs: remove it")
        }
        #expect(agreement.sameThreads == agreement.threads, "every conversation should have the same members as notmuch's")
    }
}

/// notmuch's published thread forests: parent per message id (nil at the top) and members
/// per thread.
struct NotmuchForest {
    var parent: [String: String?] = [:]
    var threads: [Set<String>] = []

    init(json: [UInt8]) throws {
        guard let list = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]] else {
            throw MaterialMissing(path: "a notmuch threads.json that is not a list")
        }
        for thread in list {
            var members = Set<String>()
            var stack: [([String: Any], String?)] = (thread["tree"] as? [[String: Any]] ?? []).map { ($0, nil) }
            while let (node, up) = stack.popLast() {
                guard let id = node["id"] as? String else { continue }
                parent.updateValue(up, forKey: id)
                members.insert(id)
                for child in node["children"] as? [[String: Any]] ?? [] { stack.append((child, id)) }
            }
            threads.append(members)
        }
    }
}
