import Foundation
import GRDB
import VaultMailCore

/// Turns a parsed query into SQL. Words, phrases and `subject:` become FTS5 expressions over
/// `emailSearch`; address and filename parts, over the trigram table `emailFieldSearch`;
/// the other operators, conditions on `email`. The top level's text terms are merged into one
/// MATCH that drives the query; text nested under OR or NOT with other operators becomes a
/// `docId IN (… MATCH …)` condition.
struct SearchCompiler {
    private var arguments: StatementArguments = []
    /// A condition reads the email row itself (flags, category), not only `searchDocument`.
    private var readsEmail = false

    /// Values shorter than this match the trigram index poorly (it needs three characters);
    /// they fall back to a word-prefix match.
    static let trigramMinimum = 3

    static func compile(_ expression: SearchExpression) -> CompiledSearch {
        var compiler = SearchCompiler()
        let items: [SearchExpression] = if case .and(let items) = expression { items } else { [expression] }

        var from = "searchDocument d"
        var clauses: [String] = []
        var ranked = false
        var rest = items
        if let drive = driving(items, using: mainExpression) {
            from = "emailSearch JOIN searchDocument d ON d.docId = emailSearch.rowid"
            clauses.append("emailSearch MATCH ?")
            compiler.arguments += [drive.match]
            rest = drive.rest
            ranked = true
        } else if let drive = driving(items, using: fieldExpression) {
            from = "emailFieldSearch JOIN searchDocument d ON d.docId = emailFieldSearch.rowid"
            clauses.append("emailFieldSearch MATCH ?")
            compiler.arguments += [drive.match]
            rest = drive.rest
        }
        for item in rest { clauses.append(compiler.condition(item)) }
        if compiler.readsEmail { from += " JOIN email e ON e.id = d.emailId" }

        return CompiledSearch(
            from: from, condition: clauses.isEmpty ? "1" : clauses.joined(separator: " AND "),
            arguments: compiler.arguments, ranked: ranked)
    }

    /// The top-level items one index can match at once: the positive ones joined with AND,
    /// the negated ones appended with NOT (FTS5's NOT needs something on its left).
    private static func driving(_ items: [SearchExpression], using express: (SearchExpression) -> String?)
        -> (match: String, rest: [SearchExpression])? {
        var positive: [String] = []
        var negative: [String] = []
        var rest: [SearchExpression] = []
        for item in items {
            if let match = express(item) {
                positive.append(match)
            } else if case .not(let inner) = item, let match = express(inner) {
                negative.append(match)
            } else {
                rest.append(item)
            }
        }
        guard !positive.isEmpty else { return nil }
        var match = positive.joined(separator: " AND ")
        for excluded in negative { match = "(\(match)) NOT (\(excluded))" }
        return (match, rest)
    }

    // MARK: - FTS5 expressions

    /// The expression over `emailSearch` for a subtree made only of words, phrases and
    /// `subject:` (and short `from:`/`to:`/`cc:` values); nil when it has anything else.
    static func mainExpression(_ expression: SearchExpression) -> String? {
        combine(expression, using: mainExpression) { term in
            switch term {
            case .word(let text, let prefix):
                if let grams = SearchText.queryGrams(text), SearchText.hasUnspaced(text) {
                    return "{subjectGrams bodyGrams} : " + gramPhrase(grams)
                }
                return withFolding(text, wordMatch(text, prefix: prefix))
            case .phrase(let text):
                if let grams = SearchText.queryGrams(text), SearchText.hasUnspaced(text) {
                    return "{subjectGrams bodyGrams} : " + gramPhrase(grams)
                }
                return withFolding(text, asWritten + quote(text))
            case .field(.subject, let text):
                if let grams = SearchText.queryGrams(text), SearchText.hasUnspaced(text) {
                    return "{subjectGrams} : " + gramPhrase(grams)
                }
                return "{subject} : " + quote(text)
            case .field(let field, let text) where field != .filename && SearchText.fold(text).count < trigramMinimum:
                return "{\(column(field))} : \(quote(text)) *"
            default:
                return nil
            }
        }
    }

    /// The expression over the trigram table for a subtree made only of address and
    /// filename parts of three characters or more.
    static func fieldExpression(_ expression: SearchExpression) -> String? {
        combine(expression, using: fieldExpression) { term in
            guard case .field(let field, let text) = term, field != .subject else { return nil }
            let folded = SearchText.fold(text)
            guard folded.count >= trigramMinimum else { return nil }
            return "{\(column(field))} : " + quote(folded)
        }
    }

    private static func combine(_ expression: SearchExpression, using express: (SearchExpression) -> String?,
                                term: (SearchTerm) -> String?) -> String? {
        switch expression {
        case .term(let leaf):
            return term(leaf)
        case .not:
            return nil
        case .or(let items):
            let parts = items.compactMap(express)
            return parts.count == items.count ? "(" + parts.joined(separator: " OR ") + ")" : nil
        case .and(let items):
            return driving(items, using: express).flatMap { $0.rest.isEmpty ? "(\($0.match))" : nil }
        }
    }

    /// Every column but the stems: words as written.
    private static let asWritten = "- {stems} : "

    /// A word as notmuch reads it: typed in lower case, by its English stem in every column
    /// (the word as written, and the stems of other forms: `talk` finds "talking"); typed with
    /// a capital first, as a prefix (`invoic*`), or with punctuation inside, as written.
    private static func wordMatch(_ text: String, prefix: Bool) -> String {
        guard !prefix else { return asWritten + quote(text) + " *" }
        if let first = text.first, !first.isUppercase, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
           let stem = SearchStemmer.stem(text) {
            return quote(stem)
        }
        return asWritten + quote(text)
    }

    /// Greek (or ё) text also matches its folded copy, so accents never decide a match.
    private static func withFolding(_ text: String, _ match: String) -> String {
        guard let folded = SearchText.extraFolding(text) else { return match }
        return "(\(match) OR {folded} : \(quote(folded)))"
    }

    private static func column(_ field: SearchField) -> String {
        switch field {
        case .from: "sender"
        case .to: "recipients cc"
        case .cc: "cc"
        case .subject: "subject"
        case .filename: "filenames"
        }
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A phrase of grams; one character is a prefix of the grams that start with it.
    private static func gramPhrase(_ grams: String) -> String {
        grams.unicodeScalars.count == 1 ? quote(grams) + " *" : quote(grams)
    }

    // MARK: - SQL conditions

    private mutating func condition(_ expression: SearchExpression) -> String {
        if let match = Self.mainExpression(expression) {
            arguments += [match]
            return "d.docId IN (SELECT rowid FROM emailSearch WHERE emailSearch MATCH ?)"
        }
        if let match = Self.fieldExpression(expression) {
            arguments += [match]
            return "d.docId IN (SELECT rowid FROM emailFieldSearch WHERE emailFieldSearch MATCH ?)"
        }
        switch expression {
        case .term(let term): return condition(term)
        case .not(let inner): return "NOT (\(condition(inner)))"
        case .and(let items): return "(" + items.map { condition($0) }.joined(separator: " AND ") + ")"
        case .or(let items): return "(" + items.map { condition($0) }.joined(separator: " OR ") + ")"
        }
    }

    private mutating func condition(_ term: SearchTerm) -> String {
        switch term {
        case .field(.filename, let text):
            // Shorter than a trigram: look through the attachment names themselves.
            arguments += ["%" + Self.escapeLike(text) + "%"]
            return "EXISTS (SELECT 1 FROM attachment a WHERE a.emailId = d.emailId AND a.filename LIKE ? ESCAPE '\\')"
        case .word, .phrase, .field:
            return "0" // every text term has an index expression above
        case .hasAttachment:
            readsEmail = true
            return "e.hasAttachments = 1"
        case .flag(.unread):
            readsEmail = true
            return "e.isRead = 0"
        case .flag(.read):
            readsEmail = true
            return "e.isRead = 1"
        case .flag(.starred):
            readsEmail = true
            return "e.isStarred = 1"
        case .folder(let name):
            let type = Self.folderType(name)
            arguments += [type?.rawValue, name, name]
            let inFolder = """
                EXISTS (SELECT 1 FROM emailFolder ef JOIN folder f ON f.id = ef.folderId WHERE ef.emailId = d.emailId \
                AND (f.folderType = ? OR f.name = ? COLLATE NOCASE OR f.path = ? COLLATE NOCASE))
                """
            guard type == .starred else { return inFolder }
            readsEmail = true
            return "(e.isStarred = 1 OR \(inFolder))"
        case .account(let name):
            arguments += [name, name, name]
            return "d.accountId IN (SELECT id FROM account WHERE name = ? COLLATE NOCASE OR email = ? COLLATE NOCASE OR id = ?)"
        case .category(.uncategorized):
            readsEmail = true
            return "(e.aiCategory IS NULL OR e.aiCategory = 'uncategorized')"
        case .category(let category):
            readsEmail = true
            arguments += [category.rawValue]
            return "e.aiCategory = ?"
        case .receivedOnOrAfter(let date):
            arguments += [date.millis]
            return "d.date >= ?"
        case .receivedBefore(let date):
            arguments += [date.millis]
            return "d.date < ?"
        }
    }

    /// The folder type an `in:` keyword names (inbox, sent, drafts, trash, spam or junk,
    /// archive, starred, all or allmail); nil for a folder's own name.
    static func folderType(_ name: String) -> FolderType? {
        switch name.lowercased() {
        case "junk": .spam
        case "all", "allmail", "all_mail": .allMail
        case let keyword: FolderType.allCases.first { $0.rawValue.lowercased() == keyword && $0 != .custom }
        }
    }

    private static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
