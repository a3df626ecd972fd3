import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// A malformed message is stored and shown as best it can be, never dropped (house rules,
/// E-10): every message of two public corpora of odd mail parses to something, thousands of
/// mutated messages parse without a crash, and parsing from many tasks at once gives the
/// same results as one at a time.
@Suite("MIME robustness")
struct MIMERobustnessTests {
    static let corpora = ["mime/cpython-test_email", "mime/spamassassin-t"]
    /// Licence texts that travel with the corpora; they are not messages.
    static let notMessages: Set<String> = ["LICENSE", "NOTICE"]

    static func corpusFiles() throws -> [(folder: String, file: String)] {
        var all: [(String, String)] = []
        for folder in corpora {
            all += try TestMaterial.files(under: folder) { !notMessages.contains($0) }.map { (folder, $0) }
        }
        return all
    }

    /// Whether a parse yields anything a reader could see.
    static func hasContent(_ message: ParsedMessage) -> Bool {
        !message.subject.isEmpty || !message.from.isEmpty || message.textPlain != nil
            || message.textHTML != nil || !message.attachments.isEmpty
    }

    @Test("E-10: every CPython test_email and SpamAssassin message parses to a non-empty result")
    func corporaParse() throws {
        let files = try Self.corpusFiles()
        #expect(files.count >= 180, "expected the 48 CPython and 136 SpamAssassin messages, found \(files.count)")
        let parser = GMimeMessageParser()
        var withProblems = 0
        for (folder, file) in files {
            let parsed = parser.parse(try TestMaterial.bytes(folder, file))
            #expect(Self.hasContent(parsed), "\(folder)/\(file) parsed to nothing: \(parsed.problems)")
            #expect(parsed.stableMessageId.hasPrefix("<") && parsed.stableMessageId.hasSuffix(">"))
            if !parsed.problems.isEmpty { withProblems += 1 }
        }
        print("robustness: \(files.count) corpus messages parsed, \(withProblems) with problems noted")
    }

    @Test("E-10: 10,000 mutated messages (flipped, cut, spliced bytes) parse without a crash")
    func mutationsNeverCrash() throws {
        var seeds: [[UInt8]] = []
        for file in try TestMaterial.files(under: StalwartConformanceTests.folder, where: { $0.hasSuffix(".eml") }) {
            seeds.append(try TestMaterial.bytes(StalwartConformanceTests.folder, file))
        }
        for (folder, file) in try Self.corpusFiles().prefix(60) {
            seeds.append(try TestMaterial.bytes(folder, file))
        }
        var random = SplitMix64(seed: 0x5EED_F00D)
        let parser = GMimeMessageParser()
        let fragments: [[UInt8]] = [
            Array("\r\n--".utf8), Array("\n\n".utf8), Array("=?utf-8?q?".utf8), Array("?=".utf8),
            Array("Content-Type: multipart/mixed; boundary=\"".utf8), Array("\u{0}".utf8), [0xFF, 0xFE, 0xC3],
            Array("Content-Transfer-Encoding: base64\n\n".utf8), Array("&#x;<scr".utf8), Array("filename*0*=".utf8),
        ]
        var parsed = 0
        for round in 0..<10_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 6)) where !bytes.isEmpty {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.removeSubrange(position..<min(bytes.count, position + Int(random.next() % 64)))
                case 2: bytes.insert(contentsOf: fragments[Int(random.next() % UInt64(fragments.count))], at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            let message = parser.parse(bytes)
            #expect(!message.stableMessageId.isEmpty)
            if let snippet = message.snippet { #expect(snippet.count <= Snippet.maximumLength) }
            parsed += 1
        }
        #expect(parsed == 10_000)
    }

    @Test("E-08: parsing from many tasks at once gives the same results as one at a time")
    func concurrentParsesAgree() async throws {
        var inputs: [[UInt8]] = []
        for (folder, file) in try Self.corpusFiles() {
            inputs.append(try TestMaterial.bytes(folder, file))
        }
        let parser = GMimeMessageParser()
        let serial = inputs.map { parser.parse($0) }
        let concurrent = await withTaskGroup(of: (Int, ParsedMessage).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask { (index, parser.parse(input)) }
            }
            var results = [ParsedMessage?](repeating: nil, count: inputs.count)
            for await (index, message) in group { results[index] = message }
            return results
        }
        #expect(concurrent.count == serial.count)
        for (index, message) in serial.enumerated() {
            #expect(concurrent[index] == message, "message \(index) parsed differently under concurrency")
        }
    }
}
