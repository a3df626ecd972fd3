import GRDB
import VaultMailCore

/// The SQL functions the search index triggers call, registered on every connection the
/// store opens (`AppDatabase`) and by the migration that creates the index. They are pure
/// Swift over Core's `SearchText`, so the index and the queries prepare text the same way.
enum SearchFunctions {
    /// `vaultmail_body(bodyPlain, bodyHTML)`: the text to index for the body.
    static let body = DatabaseFunction("vaultmail_body", argumentCount: 2, pure: true) { values in
        SearchText.body(plain: String.fromDatabaseValue(values[0]), html: String.fromDatabaseValue(values[1]))
    }

    /// `vaultmail_grams(text)`: bigrams of the runs of unspaced scripts (CJK, Thai, …), or NULL.
    static let grams = DatabaseFunction("vaultmail_grams", argumentCount: 1, pure: true) { values in
        SearchText.grams(String.fromDatabaseValue(values[0]))
    }

    /// `vaultmail_fold(text)`: lower case without diacritics, for the substring index.
    static let fold = DatabaseFunction("vaultmail_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(foldText)
    }

    /// `SearchText.fold`; ASCII text (most addresses and names) is only lower-cased, which is
    /// what folding does to it, without Foundation's folding (the index's triggers fold three
    /// fields of every email stored).
    static func foldText(_ text: String) -> String {
        var utf8 = Array(text.utf8)
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return SearchText.fold(text) }
        for index in utf8.indices where utf8[index] >= 0x41 && utf8[index] <= 0x5A {
            utf8[index] += 0x20
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `vaultmail_folded(text)`: a folded copy of Greek (or ё) text, or NULL.
    static let folded = DatabaseFunction("vaultmail_folded", argumentCount: 1, pure: true) { values in
        SearchText.extraFolding(String.fromDatabaseValue(values[0]))
    }

    /// `vaultmail_stems(text)`: the English stems of the words that differ from them, or NULL.
    static let stems = DatabaseFunction("vaultmail_stems", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).flatMap(SearchStemmer.stems(of:))
    }

    static func register(_ db: Database) {
        db.add(function: stems)
        db.add(function: folded)
        db.add(function: body)
        db.add(function: grams)
        db.add(function: fold)
    }
}
