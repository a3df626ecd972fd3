internal import CStemmer
import VaultMailCore

/// English stems for word search (issue 31): Snowball's English stemmer (Porter2, libstemmer),
/// the one notmuch's Xapian index uses, so `talk` finds "talking" and "talked" there and here.
///
/// The index keeps, beside the words as written, the stems that differ from their word
/// (`stems(of:)`, the `stems` column of `emailSearch`); a query word typed in lower case is
/// looked up by its stem (`stem(_:)`) in every column, so it finds the word as written, the
/// same stem written as a word, and every word with that stem. Words are split as the index's
/// tokenizer splits them: letters, digits and `_` (which Xapian keeps inside words too).
/// One stemmer is not safe to share between threads (libstemmer writes its result into the
/// stemmer): each call makes its own, which costs a small allocation.
final class SearchStemmer {
    /// sb_stemmer_new: a stemmer this object owns, freed in `deinit` (nil only without memory).
    private let stemmer: OpaquePointer

    init() {
        // "english" and "UTF_8" are built into every libstemmer: only an allocation can fail.
        guard let made = sb_stemmer_new("english", "UTF_8") else { fatalError("libstemmer could not allocate an English stemmer") }
        stemmer = made
    }

    deinit { sb_stemmer_delete(stemmer) }

    /// The stem of one lower-case word's UTF-8 bytes.
    private func stem(bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8] in
            // The result points into the stemmer, valid until its next call: copied at once.
            guard let base = buffer.baseAddress, let result = sb_stemmer_stem(stemmer, base, Int32(buffer.count)) else { return bytes }
            return Array(UnsafeBufferPointer(start: result, count: Int(sb_stemmer_length(stemmer))))
        }
    }

    /// The stem of a query word: lower-cased and without accents (as the index's tokenizer
    /// reads words), stemmed when it is one word of Latin letters (and digits); nil when the
    /// word is not stemmed (other scripts, digits only, punctuation).
    static func stem(_ word: String) -> String? {
        let lower = Array((word.utf8.allSatisfy { $0 < 0x80 } ? word.lowercased() : SearchText.fold(word)).utf8)
        guard isStemmable(lower) else { return nil }
        return String(decoding: SearchStemmer().stem(bytes: lower), as: UTF8.self)
    }

    /// The stems of `text`'s words that differ from the word, separated by spaces; nil when
    /// there are none.
    static func stems(of text: String) -> String? {
        let stemmer = SearchStemmer()
        var out: [UInt8] = []
        var word: [UInt8] = []
        var ascii = true
        func flush() {
            defer { word.removeAll(keepingCapacity: true); ascii = true }
            guard word.count > 2 else { return }
            let lower = ascii ? word : Array(SearchText.fold(String(decoding: word, as: UTF8.self)).utf8)
            guard isStemmable(lower) else { return }
            let stem = stemmer.stem(bytes: lower)
            guard stem != lower, !stem.isEmpty else { return }
            if !out.isEmpty { out.append(0x20) }
            out.append(contentsOf: stem)
        }
        var bytes = Array(text.utf8)
        bytes.append(0x20)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case 0x41...0x5A: word.append(byte + 0x20)
                case 0x61...0x7A, 0x30...0x39, 0x5F: word.append(byte)
                default: flush()
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            let end = min(bytes.count, index + length)
            let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first
            if let scalar, isWordScalar(scalar) {
                word.append(contentsOf: bytes[index..<end])
                ascii = false
            } else {
                flush()
            }
            index = end
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// Letters, digits and private-use characters: what FTS5's unicode61 keeps in a word.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark:
            true
        default:
            false
        }
    }

    /// A word the English stemmer should see: letters of the Latin script (with or without
    /// accents), digits and `_`, and at least one letter.
    private static func isStemmable(_ lower: [UInt8]) -> Bool {
        var letter = false
        for scalar in String(decoding: lower, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0xDF...0x24F: letter = true
            case 0x30...0x39, 0x5F: continue
            default: return false
            }
        }
        return letter
    }
}
