import Foundation

/// Keeps a small model from inventing facts: a sentence that brings in a number, a time, a
/// date, a web address, an email address or a capitalised name that none of its sources
/// holds is not kept. The sources are what the model read (the message, the conversation)
/// and what it may know anyway (the user's own name and address).
///
/// Conservative on purpose: "15:00" for a message that said "3pm" is dropped too. A name is
/// a capitalised word inside a sentence (the first word of a sentence only when the next is
/// capitalised too: "Anna Berg will …"); in German, where every noun is capitalised, names are
/// not checked, only numbers, dates and addresses.
public struct FactGuard: Sendable {
    private let words: Set<String>
    private let numbers: Set<String>
    private let text: String
    private let language: String?

    public init(sources: [String], language: String? = nil) {
        let joined = sources.joined(separator: "\n")
        text = joined.lowercased()
        var words = Set<String>()
        var numbers = Set<String>()
        for word in Self.words(joined) {
            words.insert(word.lowercased())
            numbers.formUnion(Self.digitRuns(word))
        }
        self.words = words
        self.numbers = numbers
        self.language = language
    }

    /// What `sentence` brings in that no source holds, as written ("15:00", "Berg", "Thursday").
    public func introducedFacts(in sentence: String) -> [String] {
        var facts: [String] = []
        var rest: [String] = []
        // Addresses first, whole: their parts are not words of their own.
        for token in sentence.split(whereSeparator: \.isWhitespace) {
            let bare = String(token).trimmingCharacters(in: CharacterSet(charactersIn: "()[]<>\"'.,;:!?"))
            if Self.isEmailAddress(bare) || Self.isWebAddress(bare) {
                if !text.contains(bare.lowercased()) { facts.append(bare) }
            } else {
                rest.append(String(token))
            }
        }
        let remainder = rest.joined(separator: " ")
        let sentenceWords = Self.words(remainder)
        let startIndices = Self.sentenceStartIndices(remainder)
        for (index, word) in sentenceWords.enumerated() {
            let lower = word.lowercased()
            let runs = Self.digitRuns(word)
            if !runs.isEmpty {
                if runs.contains(where: { !numbers.contains($0) }) { facts.append(word) }
                continue
            }
            if words.contains(lower) { continue }
            let startsSentence = startIndices.contains(index)
            if Self.dateWords.contains(lower) || (Self.abbreviatedDates.contains(word) && !startsSentence) {
                facts.append(word)
                continue
            }
            guard language != "de", let first = word.first, first.isUppercase, !Self.notNames.contains(word) else { continue }
            if startsSentence {
                // Only when a name follows: "Anna Berg will …", not "Sounds good".
                let next = index + 1 < sentenceWords.count ? sentenceWords[index + 1] : ""
                guard next.first?.isUppercase == true, !startIndices.contains(index + 1), !words.contains(next.lowercased()),
                      !Self.notNames.contains(next) else { continue }
            }
            facts.append(word)
        }
        return facts
    }

    /// True when `sentence` brings in nothing its sources lack.
    public func isGrounded(_ sentence: String) -> Bool {
        introducedFacts(in: sentence).isEmpty
    }

    /// The grounded sentences of `sentences`, in order.
    public func grounded(_ sentences: [String]) -> [String] {
        sentences.filter(isGrounded)
    }

    // MARK: Words

    /// Runs of letters and digits (so "3pm" is one word, "Jean-Luc" two).
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func digitRuns(_ word: String) -> [String] {
        var runs: [String] = []
        var current = ""
        for character in word {
            if character.isASCIIDigitLike {
                current.append(character)
            } else if !current.isEmpty {
                runs.append(current)
                current = ""
            }
        }
        if !current.isEmpty { runs.append(current) }
        // "03" and "3" are the same number.
        return runs.map { run in
            let trimmed = run.drop(while: { $0 == "0" })
            return trimmed.isEmpty ? "0" : String(trimmed)
        }
    }

    /// Indices (in `words(text)`) of the words that begin a sentence: the first, and those
    /// after ".", "!", "?", ":" or an opening "¿" / "¡".
    static func sentenceStartIndices(_ text: String) -> Set<Int> {
        var starts: Set<Int> = [0]
        var index = 0
        var inWord = false
        var pendingStart = false
        for character in text {
            if character.isLetter || character.isNumber {
                if !inWord {
                    if pendingStart { starts.insert(index) }
                    pendingStart = false
                    inWord = true
                }
            } else {
                if inWord { index += 1 }
                inWord = false
                if ".!?:;¿¡…\"“«(".contains(character) { pendingStart = true }
            }
        }
        return starts
    }

    static func isEmailAddress(_ token: String) -> Bool {
        guard let at = token.firstIndex(of: "@"), at > token.startIndex else { return false }
        return token[token.index(after: at)...].contains(".")
    }

    static func isWebAddress(_ token: String) -> Bool {
        let lower = token.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("www.") { return true }
        // "example.com", "docs.example.org/x": a dot between letters, ending in a top-level domain.
        let host = lower.split(separator: "/").first.map(String.init) ?? lower
        let parts = host.split(separator: ".")
        guard parts.count >= 2, let tld = parts.last, (2...6).contains(tld.count), tld.allSatisfy({ $0.isLetter && $0.isASCII }),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }) else { return false }
        return Self.topLevelDomains.contains(String(tld))
    }

    private static let topLevelDomains: Set<String> = Set([
        "com", "org", "net", "io", "dev", "app", "edu", "gov", "de", "fr", "es", "it", "nl", "pt", "uk", "eu", "ch", "at", "be",
        "us", "ca", "info", "biz", "me", "co", "ai", "tv", "br", "se", "no", "dk", "fi", "pl", "cz", "ie", "au", "nz", "jp",
    ])

    /// Weekdays, months and days relative to now, in the languages replies are written in.
    static let dateWords: Set<String> = Set([
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april",
        "june", "july", "august", "september", "october", "november", "december", "today", "tomorrow", "tonight", "yesterday",
        "noon", "midnight", "morning", "afternoon", "evening", "weekend",
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "januar", "februar", "märz", "mai",
        "juni", "juli", "oktober", "dezember", "heute", "morgen", "übermorgen", "gestern", "mittag", "nachmittag", "vormittag",
        "abend", "wochenende",
        "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "janvier", "février", "mars", "avril", "juin",
        "juillet", "août", "septembre", "octobre", "novembre", "décembre", "aujourd", "demain", "hier", "midi", "matin", "soir",
        "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo", "enero", "febrero", "marzo", "abril", "mayo",
        "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre", "hoy", "mañana", "ayer", "mediodía", "noche",
        "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica", "gennaio", "febbraio", "aprile", "maggio",
        "giugno", "luglio", "settembre", "ottobre", "dicembre", "oggi", "domani", "ieri", "stasera", "pomeriggio", "mezzogiorno",
        "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag", "januari", "februari", "maart", "mei",
        "augustus", "vandaag", "vanavond", "gisteren", "middag", "avond",
        "segunda", "terça", "quarta", "quinta", "sexta", "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro",
        "outubro", "novembro", "dezembro", "hoje", "amanhã", "ontem", "noite",
    ])

    /// English abbreviations of weekdays and months, counted only as written (capitalised).
    static let abbreviatedDates: Set<String> = Set([
        "Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
    ])

    /// Capitalised words that are not names.
    static let notNames: Set<String> = Set([
        "I", "I'm", "OK", "Ok", "AM", "PM", "FYI", "ASAP", "PS", "Mr", "Mrs", "Ms", "Dr", "Re", "Fwd", "Sie", "Ihnen", "Ihr",
        "Usted", "Vous", "U",
    ])
}

extension Character {
    /// A decimal digit of any script ("3", "٣").
    fileprivate var isASCIIDigitLike: Bool { isNumber && wholeNumberValue != nil }
}
