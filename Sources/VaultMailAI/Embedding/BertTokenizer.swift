import Foundation
import VaultMailCore

/// BERT's uncased WordPiece tokenizer, as Hugging Face's `BertTokenizerFast` runs it for
/// all-MiniLM-L6-v2 (`do_lower_case`, accents stripped, Chinese characters split, control
/// characters removed): text in, token ids out, `[CLS] … [SEP]`, truncated to `maxLength`.
///
/// The steps, in Hugging Face's order: `[CLS]`-style special tokens written in the text are kept
/// as themselves; the rest is cleaned (NUL, U+FFFD and control characters dropped, whitespace
/// made a space), CJK ideographs set apart, decomposed (NFD) without its non-spacing marks,
/// lowercased, split at whitespace and around each punctuation character, and each word
/// split into the longest vocabulary pieces (`##` marks a piece inside a word); a word of more
/// than 100 characters, or one the vocabulary cannot spell, is `[UNK]`.
public struct BertTokenizer: Sendable {
    /// The most tokens `tokenIds(for:)` returns, `[CLS]` and `[SEP]` included.
    public let maxLength: Int
    let classifierId: Int32
    let separatorId: Int32
    let unknownId: Int32
    /// How many tokens the vocabulary has (ids are below it).
    let vocabularySize: Int
    /// The longest token's length in Unicode scalars: no longer piece is looked up.
    private let longestToken: Int
    private let vocabulary: [String: Int32]
    /// Special tokens recognised verbatim in the text, before any normalisation.
    private let specialTokens: [(scalars: [Unicode.Scalar], id: Int32)]

    private static let maxCharactersPerWord = 100

    /// Reads a `vocab.txt` (one token a line, its id the line number from 0).
    /// Throws `AIError.modelUnreadable` when it cannot be read or lacks BERT's special tokens.
    public init(vocabularyFile url: URL, maxLength: Int = 256) throws {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw AIError.modelUnreadable(path: url.path, reason: "cannot read it as UTF-8 (\(error.localizedDescription))")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        try self.init(vocabulary: lines, maxLength: maxLength, source: url.path)
    }

    /// A tokenizer over `vocabulary` (the token of id `i` at index `i`).
    init(vocabulary tokens: [String], maxLength: Int = 256, source: String = "vocabulary") throws {
        var vocabulary: [String: Int32] = [:]
        vocabulary.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() { vocabulary[token] = Int32(index) }
        func id(_ token: String) throws -> Int32 {
            guard let id = vocabulary[token] else {
                throw AIError.modelUnreadable(path: source, reason: "the vocabulary has no \(token) token: it is not a BERT vocab.txt")
            }
            return id
        }
        guard maxLength >= 2 else {
            throw AIError.modelUnreadable(path: source, reason: "a maximum of \(maxLength) tokens leaves no room for [CLS] and [SEP]")
        }
        self.maxLength = maxLength
        self.vocabulary = vocabulary
        vocabularySize = tokens.count
        longestToken = tokens.map(\.unicodeScalars.count).max() ?? 0
        classifierId = try id("[CLS]")
        separatorId = try id("[SEP]")
        unknownId = try id("[UNK]")
        specialTokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].compactMap { token in
            vocabulary[token].map { (Array(token.unicodeScalars), $0) }
        }
    }

    /// The token ids of `text`: `[CLS]`, at most `maxLength - 2` word pieces, `[SEP]`.
    public func tokenIds(for text: String) -> [Int] {
        encode(text).map(Int.init)
    }

    /// `tokenIds(for:)` as the model reads them.
    func encode(_ text: String) -> [Int32] {
        var output = Output(limit: maxLength - 2, classifierId: classifierId)
        var word: [Unicode.Scalar] = []
        word.reserveCapacity(32)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex, !output.isFull {
            let scalar = scalars[index]
            if scalar == "[", let (id, end) = specialToken(in: scalars, at: index) {
                flush(&word, into: &output)
                output.append(id)
                index = end
                continue
            }
            index = scalars.index(after: index)
            let value = scalar.value
            if value < 0x80 {
                // ASCII: the common case, without Unicode property look-ups.
                switch value {
                case 0x09, 0x0A, 0x0D, 0x20:
                    flush(&word, into: &output)
                case 0x00..<0x20, 0x7F:
                    continue  // control characters are removed
                default:
                    word.append(scalar)
                }
                continue
            }
            if value == 0xFFFD || Self.isControl(scalar) { continue }
            if scalar.properties.isWhitespace {
                flush(&word, into: &output)
            } else if Self.isChineseCharacter(value) {
                flush(&word, into: &output)
                word.append(scalar)
                flush(&word, into: &output)
            } else {
                word.append(scalar)
            }
        }
        flush(&word, into: &output)
        output.ids.append(separatorId)
        return output.ids
    }

    /// The ids collected so far, and when to stop.
    private struct Output {
        var ids: [Int32]
        let limit: Int
        var pieceCount = 0
        var isFull: Bool { pieceCount >= limit }

        init(limit: Int, classifierId: Int32) {
            self.limit = limit
            ids = [classifierId]
            ids.reserveCapacity(min(limit + 2, 128))
        }

        mutating func append(_ id: Int32) {
            guard !isFull else { return }
            ids.append(id)
            pieceCount += 1
        }
    }

    /// The special token spelled at `index`, and where it ends.
    private func specialToken(in scalars: String.UnicodeScalarView, at index: String.UnicodeScalarIndex) -> (Int32, String.UnicodeScalarIndex)? {
        candidates: for (spelling, id) in specialTokens {
            var position = index
            for expected in spelling {
                guard position < scalars.endIndex, scalars[position] == expected else { continue candidates }
                position = scalars.index(after: position)
            }
            return (id, position)
        }
        return nil
    }

    /// Normalises one whitespace-delimited chunk (accents, case), splits it around punctuation
    /// and appends its word pieces; empties `chunk`.
    private func flush(_ chunk: inout [Unicode.Scalar], into output: inout Output) {
        guard !chunk.isEmpty else { return }
        defer { chunk.removeAll(keepingCapacity: true) }
        var normalized: [Unicode.Scalar]
        if chunk.allSatisfy({ $0.value < 0x80 }) {
            normalized = chunk
            for i in normalized.indices where normalized[i].value >= 0x41 && normalized[i].value <= 0x5A {
                normalized[i] = Unicode.Scalar(UInt8(normalized[i].value + 0x20))
            }
        } else {
            normalized = []
            normalized.reserveCapacity(chunk.count)
            var original = String.UnicodeScalarView()
            original.append(contentsOf: chunk)
            let decomposed = String(original).decomposedStringWithCanonicalMapping
            for scalar in decomposed.unicodeScalars {
                if scalar.value < 0x80 {
                    let value = scalar.value
                    normalized.append(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value + 0x20)) : scalar)
                } else if scalar.properties.generalCategory != .nonspacingMark {
                    normalized.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                }
            }
        }
        var start = normalized.startIndex
        for i in normalized.indices where Self.isPunctuation(normalized[i]) {
            if start < i { appendWordPieces(normalized[start..<i], into: &output) }
            appendWordPieces(normalized[i...i], into: &output)
            start = i + 1
        }
        if start < normalized.endIndex { appendWordPieces(normalized[start...], into: &output) }
    }

    /// Greedy longest-match-first WordPiece over one word.
    private func appendWordPieces(_ word: ArraySlice<Unicode.Scalar>, into output: inout Output) {
        guard !output.isFull else { return }
        guard word.count <= Self.maxCharactersPerWord else {
            output.append(unknownId)
            return
        }
        var pieces: [Int32] = []
        var start = word.startIndex
        while start < word.endIndex {
            let prefix = start == word.startIndex ? "" : "##"
            var end = min(word.endIndex, start + longestToken - prefix.count)
            var found: Int32?
            while start < end {
                var candidate = prefix
                candidate.unicodeScalars.append(contentsOf: word[start..<end])
                if let id = vocabulary[candidate] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else {
                output.append(unknownId)
                return
            }
            pieces.append(id)
            start = end
        }
        for piece in pieces { output.append(piece) }
    }

    /// Control characters (Unicode categories Cc, Cf, Cn, Co, Cs) other than tab, newline and return.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: true
        default: false
        }
    }

    /// ASCII punctuation and symbols (`!`…`/`, `:`…`@`, `[`…`` ` ``, `{`…`~`) and Unicode's P* categories.
    private static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (0x21...0x2F).contains(value) || (0x3A...0x40).contains(value)
                || (0x5B...0x60).contains(value) || (0x7B...0x7E).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// The CJK Unified Ideographs blocks BERT sets apart as words of their own.
    private static func isChineseCharacter(_ value: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
            || (0x20000...0x2A6DF).contains(value) || (0x2A700...0x2B73F).contains(value)
            || (0x2B740...0x2B81F).contains(value) || (0x2B820...0x2CEAF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x2F800...0x2FA1F).contains(value)
    }
}
