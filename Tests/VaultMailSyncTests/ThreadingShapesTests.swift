import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
@testable import VaultMailSync
import VaultMailTesting

/// Issue 17's shapes of real mailing-list mail, built here: replies whose parents never
/// arrive, References a mailer cut short or broke, In-Reply-To alone (also MH's `Message from
/// Name <address> of "date" <msg-id>`). Parsed with `GMimeMessageParser`, then threaded as a
/// sync stores them, newest first and one at a time, so every reply arrives before its parent.
@Suite("Threading: absent parents, cut References, In-Reply-To alone")
struct ThreadingShapesTests {
    /// How a reply names its ancestors.
    enum Shape: CaseIterable {
        case fullReferences, lastTwoReferences, brokenLastReference, inReplyToOnly, mhInReplyTo
    }

    /// One conversation of `count` messages, `<name-i@list>`, each replying to `(i - 1) / 2`
    /// (a binary tree), in the given shapes round-robin; `absent` are never delivered.
    static func conversation(_ name: String, count: Int, shapes: [Shape], absent: Set<Int>) -> [(index: Int, raw: [UInt8])] {
        func id(_ i: Int) -> String { "<\(name)-\(i)@list.example.org>" }
        func ancestors(_ i: Int) -> [Int] {
            var chain: [Int] = []
            var current = i
            while current > 0 { current = (current - 1) / 2; chain.insert(current, at: 0) }
            return chain
        }
        var messages: [(Int, [UInt8])] = []
        for i in 0..<count where !absent.contains(i) {
            var headers = [
                "From: Person \(i % 3) <p\(i % 3)@example.org>",
                "Subject: \(i == 0 ? "" : "Re: ")topic \(name)",
                "Date: \(Self.date(i))",
                "Message-ID: \(id(i))",
            ]
            if i > 0 {
                let chain = ancestors(i).map(id)
                let parent = id((i - 1) / 2)
                switch shapes[i % shapes.count] {
                case .fullReferences:
                    headers += ["In-Reply-To: \(parent)", "References: " + chain.joined(separator: "\r\n ")]
                case .lastTwoReferences:
                    headers += ["In-Reply-To: \(parent)", "References: " + chain.suffix(2).joined(separator: " ")]
                case .brokenLastReference:
                    let cut = String(parent.dropLast(12))
                    headers += ["In-Reply-To: \(parent)", "References: " + (chain.dropLast() + [cut]).joined(separator: " ")]
                case .inReplyToOnly:
                    headers += ["In-Reply-To: \(parent) (Person's message of \"\(Self.date((i - 1) / 2))\")"]
                case .mhInReplyTo:
                    headers += ["In-Reply-To: Message from Person \((i - 1) / 2 % 3) <p\((i - 1) / 2 % 3)@example.org>\r\n   of \"\(Self.date((i - 1) / 2)).\" \(parent)"]
                }
            }
            messages.append((i, Array((headers.joined(separator: "\r\n") + "\r\n\r\nbody \(i)\r\n").utf8)))
        }
        return messages
    }

    static func date(_ i: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: Date(timeIntervalSince1970: 1_230_000_000 + Double(i) * 3_600))
    }

    @Test("Issue 17: each reply shape joins its conversation through absent parents, replies arriving before their parents", arguments: Shape.allCases)
    func shapeJoins(shape: Shape) throws {
        // Two conversations, so a join across them would show. Parents 1 and 2 never arrive:
        // 3–6 hang only on their ghosts and on what their headers name.
        let parser = GMimeMessageParser()
        var messages: [ThreadableMessage] = []
        var reference: [String: String] = [:]
        for name in ["alpha", "beta"] {
            for (index, raw) in Self.conversation(name, count: 15, shapes: [shape], absent: [1, 2]) {
                let parsed = parser.parse(raw)
                messages.append(ThreadableMessage(id: "\(name)-\(index)", parsed: parsed))
                reference[MessageIDs.bare(parsed.stableMessageId)] = name
            }
        }
        let ours = NotmuchPairwiseTests.synced(messages, batchSize: 1, seed: 7)
        let score = PairwiseThreadScore(ours: ours, reference: reference)
        let joinedAtOnce = PairwiseThreadScore(ours: NotmuchPairwiseTests.allAtOnce(messages), reference: reference)
        switch shape {
        case .inReplyToOnly, .mhInReplyTo:
            // Without References, 3–6 name only their absent parents 1 and 2, whose own parent
            // is unknown: {0, 7–14 under 1 or 2 joined with 3–6 through the ghosts} is what the
            // headers allow. The siblings of one absent parent still join each other.
            #expect(score.precision == 1, "\(shape): \(score)")
            #expect(joinedAtOnce.precision == 1, "\(shape): \(joinedAtOnce)")
            let alpha = Set(messages.filter { $0.id.hasPrefix("alpha") }.map { ours[MessageIDs.bare($0.messageId)] })
            #expect(alpha.count == 3, "\(shape): the root alone, and one conversation under each absent parent: \(alpha.count)")
        default:
            #expect(score.precision == 1 && score.recall == 1, "\(shape): \(score)")
            #expect(joinedAtOnce.precision == 1 && joinedAtOnce.recall == 1, "\(shape): \(joinedAtOnce)")
        }
    }

    @Test("Issue 17: an MH In-Reply-To names the message replied to, not its sender's address")
    func mhInReplyTo() throws {
        let raw = Self.conversation("gamma", count: 2, shapes: [.mhInReplyTo], absent: [0])
        let parsed = GMimeMessageParser().parse(try #require(raw.first?.raw))
        #expect(parsed.inReplyTo == "<gamma-0@list.example.org>")
        #expect(parsed.references.isEmpty)
    }
}
