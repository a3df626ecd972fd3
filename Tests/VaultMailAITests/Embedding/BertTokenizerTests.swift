import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

@Suite("BERT WordPiece tokenizer")
struct BertTokenizerTests {
    /// The model's tokenizer, read once for the suite.
    static let miniLM = Result {
        try BertTokenizer(
            vocabularyFile: AIModelFixture.installedMiniLMDirectory().appendingPathComponent("vocab.txt"),
            maxLength: MiniLMEngine.maxSequenceLength)
    }

    @Test("the reference set holds its 30-odd texts, cut at the engine's 256 tokens")
    func referenceSet() throws {
        let reference = try MiniLMReference.load()
        #expect(reference.cases.count >= 30)
        #expect(reference.maxSeqLength == MiniLMEngine.maxSequenceLength)
        #expect(reference.cases.contains { $0.tokenIds.count == reference.maxSeqLength }, "a text longer than the limit")
    }

    @Test("token ids equal Hugging Face's tokenizer's (sentence-transformers) for every reference text",
          arguments: MiniLMReference.cases)
    func matchesReference(_ reference: MiniLMReference.Case) throws {
        let tokenizer = try Self.miniLM.get()
        #expect(tokenizer.tokenIds(for: reference.text) == reference.tokenIds)
    }

    // A vocabulary small enough to reason about: ids are positions.
    static let tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##aff", "##able", "aff", "##a", "a", "!", "cafe", "x"]

    func tokenizer(maxLength: Int = 256) throws -> BertTokenizer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-\(UUID().uuidString).txt")
        try (Self.tokens.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try BertTokenizer(vocabularyFile: file, maxLength: maxLength)
    }

    func ids(_ tokens: String...) -> [Int] {
        tokens.map { token in Self.tokens.firstIndex(of: token) ?? -1 }
    }

    @Test("a word is spelled by the longest pieces first, ## inside; one it cannot spell is a single [UNK]")
    func wordPieces() throws {
        let tokenizer = try tokenizer()
        #expect(tokenizer.tokenIds(for: "unaffable") == ids("[CLS]", "un", "##aff", "##able", "[SEP]"))
        #expect(tokenizer.tokenIds(for: "UNAFF!aff") == ids("[CLS]", "un", "##aff", "!", "aff", "[SEP]"))
        #expect(tokenizer.tokenIds(for: "unaffz x") == ids("[CLS]", "[UNK]", "x", "[SEP]"))
    }

    @Test("accents are stripped, case folded, control characters dropped")
    func normalisation() throws {
        let tokenizer = try tokenizer()
        #expect(tokenizer.tokenIds(for: "CAFÉ\u{0}\u{200B} Cafe\u{301}") == ids("[CLS]", "cafe", "cafe", "[SEP]"))
    }

    @Test("a word of more than 100 characters is [UNK]; one of 100 is spelled")
    func longWords() throws {
        let tokenizer = try tokenizer()
        #expect(tokenizer.tokenIds(for: String(repeating: "a", count: 100)) == [2, 10] + Array(repeating: 9, count: 99) + [3])
        #expect(tokenizer.tokenIds(for: String(repeating: "a", count: 101)) == ids("[CLS]", "[UNK]", "[SEP]"))
    }

    @Test("texts are cut to maxLength tokens, [CLS] and [SEP] included, inside a word if need be")
    func truncation() throws {
        let tokenizer = try tokenizer(maxLength: 5)
        #expect(tokenizer.tokenIds(for: "x unaffable x x") == ids("[CLS]", "x", "un", "##aff", "[SEP]"))
        #expect(tokenizer.tokenIds(for: "") == ids("[CLS]", "[SEP]"))
    }

    @Test("a vocabulary without BERT's special tokens is refused")
    func notBERT() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-\(UUID().uuidString).txt")
        try "hello\nworld\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: AIError.self) { try BertTokenizer(vocabularyFile: file) }
    }
}
