import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// The evaluation set of smart replies and summaries (`Tests/Fixtures/generation-eval/`; how it
/// is laid out and scored: docs/ai-evaluation.md, "Smart replies and summaries"), the store it
/// is seeded into, and the checks that score what the use cases write. The checks are the
/// set's own, written apart from the use cases' guards: they must not share their blind spots.
struct GenerationEvalSet: Decodable, Sendable {
    struct Person: Decodable, Sendable {
        var name: String
        var email: String
    }

    struct Message: Decodable, Sendable {
        var from: Person
        var to: [Person]
        var cc: [Person]
        var date: String
        var body: String
    }

    struct ReplyExpectation: Decodable, Sendable {
        /// The latest message asks something of the user: then an accepting reply and a
        /// declining (or other-time) one are expected.
        var asks: Bool
        /// Examples of what a reply must not say (the general invented-fact check covers more).
        var forbidden: [String]
    }

    struct SummaryExpectation: Decodable, Sendable {
        /// Each group is met when the summary says any of its alternatives.
        var mustMention: [[String]]
    }

    struct Conversation: Decodable, Sendable {
        var id: String
        var kind: String
        var subject: String
        var language: String
        var messages: [Message]
        var reply: ReplyExpectation
        var summary: SummaryExpectation
        var note: String?
    }

    var version: Int
    var user: Person
    var conversations: [Conversation]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generation-eval")

    static func load() throws -> GenerationEvalSet {
        try JSONDecoder().decode(GenerationEvalSet.self, from: Data(contentsOf: directory.appendingPathComponent("conversations.json")))
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { preconditionFailure("the set has a bad date: \(text)") }
        return date
    }
}

extension GenerationEvalSet.Conversation {
    /// Everything a reply or summary may take a fact from: subject, every body (quotes
    /// included), every participant's name and address, the user, and each message's date
    /// written out in English and in the conversation's language ("Monday 19 January 2026 08:02").
    func sourceText(user: GenerationEvalSet.Person) -> String {
        var parts = [subject, user.name, user.email]
        for message in messages {
            parts.append(message.body)
            for person in [message.from] + message.to + message.cc { parts += [person.name, person.email] }
            let date = GenerationEvalSet.date(message.date)
            for locale in Set(["en_US_POSIX", Self.locales[language] ?? "en_US_POSIX"]) {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: locale)
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "EEEE EEE d MMMM MMM yyyy HH:mm"
                parts.append(formatter.string(from: date))
            }
        }
        return parts.joined(separator: "\n")
    }

    static let locales = ["de": "de_DE", "fr": "fr_FR", "es": "es_ES"]

    /// The own text of the latest message the user did not send (what replies answer): its
    /// body above the quoted earlier message.
    func latestIncomingText(user: GenerationEvalSet.Person) -> String {
        guard let message = messages.last(where: { $0.from.email.lowercased() != user.email.lowercased() }) else { return "" }
        let lines = message.body.split(separator: "\n", omittingEmptySubsequences: false)
        let own = lines.prefix { !($0.hasPrefix("On ") && $0.hasSuffix("wrote:")) && !$0.hasPrefix(">") }
        return own.joined(separator: "\n")
    }
}

// MARK: - The store

/// The set seeded into a real store: one account (the user), the standard folders, one
/// conversation per item with its messages threaded by Message-ID / In-Reply-To.
struct GenerationEvalWorld: Sendable {
    let set: GenerationEvalSet
    let database: AppDatabase
    let emails: GRDBEmailRepository
    let accounts: GRDBAccountRepository

    static func make(_ set: GenerationEvalSet, extra: [GenerationEvalSet.Conversation] = []) async throws -> GenerationEvalWorld {
        let database = try AppDatabase.inMemory()
        let accounts = GRDBAccountRepository(database: database)
        var account = MailFixtures.account(name: "work", email: set.user.email)
        account.displayName = set.user.name
        try await accounts.addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let emails = GRDBEmailRepository(database: database)
        try await emails.saveFolders(folders)
        var incoming: [IncomingEmail] = []
        for conversation in set.conversations + extra {
            var previous: [String] = []
            for (n, message) in conversation.messages.enumerated() {
                let messageId = "<\(conversation.id).\(n + 1)@eval.vaultmail.test>"
                let mine = message.from.email.lowercased() == set.user.email.lowercased()
                let email = Email(
                    accountId: account.id, threadId: conversation.id, messageId: messageId,
                    inReplyTo: previous.last, references: previous.isEmpty ? nil : previous.joined(separator: " "),
                    fromAddress: message.from.email, fromName: message.from.name,
                    toAddresses: message.to.map { Participant(name: $0.name, email: $0.email) },
                    ccAddresses: message.cc.map { Participant(name: $0.name, email: $0.email) },
                    subject: n == 0 ? conversation.subject : "Re: \(conversation.subject)",
                    bodyPlain: message.body,
                    snippet: String(message.body.prefix(120)),
                    dateReceived: GenerationEvalSet.date(message.date),
                    isRead: true)
                previous.append(messageId)
                incoming.append(MailFixtures.incoming(email, in: [folders.of(mine ? .sent : .inbox)]))
            }
        }
        _ = try await emails.saveEmails(incoming)
        return GenerationEvalWorld(set: set, database: database, emails: emails, accounts: accounts)
    }
}

/// The real models, one of each for the whole test process: the evaluation and the injection
/// suites share them, and the writing model's session runs one request at a time, so two
/// suites never race for the two cores.
enum GenerationModels {
    static let generator: GenerationSession<LlamaEngine>? = {
        guard let directory = try? AIModelFixture.installedGenerationDirectory() else { return nil }
        return GenerationSession(engine: LlamaEngine(), library: FixedModelLibrary([AIModelCatalog.generationModelId: directory]),
                                 modelId: AIModelCatalog.generationModelId)
    }()

    static let embedder: AIModelSession<MiniLMEngine>? = {
        guard let directory = try? AIModelFixture.installedMiniLMDirectory() else { return nil }
        return AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([AIModelCatalog.embeddingModelId: directory]),
                              modelId: AIModelCatalog.embeddingModelId)
    }()

    /// Runs `work` with the writing model to itself: the evaluation's timings are not those of
    /// a queue shared with the injection suite, which Swift Testing may run at the same time.
    static func exclusively<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await gate.acquire()
        do {
            let value = try await work()
            await gate.release()
            return value
        } catch {
            await gate.release()
            throw error
        }
    }

    private static let gate = Gate()

    /// One holder at a time, the others waiting in order.
    private actor Gate {
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func acquire() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }

    /// The writing model, or the error that says to run `make deps`.
    static func writer() throws -> GenerationSession<LlamaEngine> {
        _ = try AIModelFixture.installedGenerationDirectory()
        return generator!
    }

    /// The sentence model, or the error that says to run `make deps`.
    static func reader() throws -> AIModelSession<MiniLMEngine> {
        _ = try AIModelFixture.installedMiniLMDirectory()
        return embedder!
    }
}

// MARK: - The checks

/// What the set's scoring looks for in a text: facts a reply or summary brings in that the
/// conversation does not hold, its language, its sentences, and the mentions it must make.
enum GenerationChecks {
    /// What `text` states that `source` (a conversation's `sourceText`) does not hold, as
    /// written: numbers (every run of digits, so "15:00" needs "15" and "00" ≈ "0"), web and
    /// mail addresses, weekday and month names (en, de, fr, es), and capitalised words inside
    /// a sentence — names — unless the text is German, where every noun is capitalised.
    static func inventedFacts(in text: String, source: String) -> [String] {
        let sourceLower = source.lowercased()
        let sourceWords = Set(words(source).map { $0.lowercased() })
        let sourceNumbers = Set(words(source).flatMap(digitRuns))
        var facts: [String] = []
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest: [String] = []
            for token in line.split(whereSeparator: \.isWhitespace) {
                let bare = token.trimmingCharacters(in: CharacterSet(charactersIn: "()[]<>\"'.,;:!?¿¡«»“”"))
                if isAddress(bare) {
                    if !sourceLower.contains(bare.lowercased()) { facts.append(bare) }
                } else {
                    rest.append(String(token))
                }
            }
            lines.append(rest.joined(separator: " "))
        }
        let remainder = lines.joined(separator: "\n")
        let textWords = words(remainder)
        let starts = sentenceStarts(remainder)
        let checkNames = language(of: text) != "de"
        for (index, word) in textWords.enumerated() {
            let lower = word.lowercased()
            let runs = digitRuns(word)
            if !runs.isEmpty {
                if runs.contains(where: { !sourceNumbers.contains($0) }) { facts.append(word) }
                continue
            }
            if sourceWords.contains(lower) { continue }
            if calendarWords.contains(lower) || (calendarAbbreviations.contains(word)) {
                facts.append(word)
                continue
            }
            guard checkNames, let first = word.first, first.isUppercase, !starts.contains(index), !notNames.contains(word) else { continue }
            facts.append(word)
        }
        return facts
    }

    /// The attacker's or the set's strings `text` contains (case-insensitive).
    static func containedStrings(_ strings: [String], in text: String) -> [String] {
        strings.filter { text.range(of: $0, options: .caseInsensitive) != nil }
    }

    /// True when `text` says one of `alternatives`: case-insensitive, starting at a word's
    /// start, not followed by a digit ("move" matches "moved", "27" does not match "270").
    static func mentions(_ alternatives: [String], in text: String) -> Bool {
        let text = text.lowercased()
        return alternatives.contains { alternative in
            var from = text.startIndex
            while let range = text.range(of: alternative.lowercased(), range: from..<text.endIndex) {
                let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
                let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
                let startsWord = before.map { !($0.isLetter || $0.isNumber) } ?? true
                let endsNumber = after.map { !$0.isNumber } ?? true
                if startsWord && endsNumber { return true }
                from = range.upperBound
            }
            return false
        }
    }

    /// The sentences of `text`: split after ".", "!", "?", "…" followed by a space or the end,
    /// and at line breaks; pieces without a letter are not sentences.
    static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        let characters = Array(text)
        for (i, character) in characters.enumerated() {
            if character == "\n" {
                sentences.append(current)
                current = ""
                continue
            }
            current.append(character)
            if ".!?…".contains(character), i + 1 == characters.count || characters[i + 1].isWhitespace {
                sentences.append(current)
                current = ""
            }
        }
        sentences.append(current)
        return sentences.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(where: \.isLetter) }
    }

    /// The language of a short text by its words (en, de, fr, es), or nil when no word or
    /// letter tells. Written for this set apart from `LanguageDetector`.
    static func language(of text: String) -> String? {
        var scores: [String: Double] = [:]
        let lower = text.lowercased()
        for word in words(lower) {
            for (language, list) in markers where list.contains(word) { scores[language, default: 0] += 1 }
        }
        for (language, letters) in letters where lower.contains(where: { letters.contains($0) }) { scores[language, default: 0] += 1.5 }
        if lower.contains("¿") || lower.contains("¡") { scores["es", default: 0] += 2 }
        guard let best = scores.max(by: { $0.value < $1.value }), best.value > 0 else { return nil }
        if scores.values.filter({ $0 == best.value }).count > 1 { return nil }
        return best.key
    }

    /// What a suggestion's words say it does, read from the text alone (en, de, fr, es): an
    /// acceptance says yes and no "no"; a refusal says it cannot; another time is proposed in
    /// words of another time, day or moment. The label the use case gives is not read.
    static func expresses(_ intent: ReplyIntent, _ text: String) -> Bool {
        var lower = " " + words(text.lowercased()).joined(separator: " ") + " "
        // Negations that say yes.
        for phrase in ["no problem", "not a problem", "kein problem", "pas de problème", "sin problema", "ningún problema"] {
            lower = lower.replacingOccurrences(of: " " + phrase + " ", with: " ")
        }
        func says(_ phrases: [String]) -> Bool { phrases.contains { lower.contains(" " + $0 + " ") } }
        switch intent {
        case .accept: return says(acceptPhrases) && !says(declinePhrases)
        case .decline: return says(declinePhrases)
        case .alternative: return says(alternativePhrases)
        case .acknowledge: return says(thanksPhrases)
        case .question: return text.contains("?")
        }
    }

    static let acceptPhrases = [
        "yes", "sure", "sounds good", "works for me", "that works", "works", "happy to", "glad to", "will do", "i will", "i ll",
        "i can", "of course", "gladly", "perfect", "great", "see you", "count me in", "no problem", "absolutely", "fine", "ok", "okay",
        "ja", "gerne", "gern", "passt", "geht klar", "einverstanden", "mache ich", "kein problem", "klingt gut", "bin dabei",
        "oui", "volontiers", "d accord", "avec plaisir", "me convient", "parfait", "entendu", "je serai",
        "sí", "claro", "perfecto", "de acuerdo", "me parece bien", "me va bien", "con gusto", "por supuesto", "vale", "allí estaré",
    ]
    static let declinePhrases = [
        "no", "not", "can t", "cannot", "can not", "won t", "unable", "unfortunately", "afraid", "sorry", "decline", "don t think",
        "leider", "nicht", "kein", "keine", "absagen", "nein",
        "non", "pas", "malheureusement", "désolé", "désolée", "impossible",
        "lo siento", "lamentablemente", "no puedo", "imposible", "me temo",
    ]
    static let alternativePhrases = [
        "another time", "another day", "different time", "other time", "later", "instead", "reschedule", "move it", "another slot",
        "earlier", "other day", "alternative",
        "anderen termin", "andere zeit", "anderen tag", "stattdessen", "verschieben", "später", "früher", "alternativ",
        "autre moment", "autre heure", "autre jour", "autre créneau", "plus tard", "reporter", "à la place", "plutôt",
        "otro momento", "otra hora", "otro día", "más tarde", "en su lugar", "cambiar", "aplazar", "otra fecha",
    ]
    static let thanksPhrases = [
        "thanks", "thank", "received", "got it", "noted", "danke", "dank", "erhalten", "merci", "reçu", "noté", "gracias", "recibido",
    ]

    /// True when `text` repeats `message` at length: `length` words in a row, read lowercased.
    static func echoes(_ text: String, message: String, length: Int = 7) -> Bool {
        let grams = ngrams(message, length)
        return !ngrams(text, length).isDisjoint(with: grams)
    }

    /// The runs of `length` words of `text` that `prompt` holds and `source` (the mail) does
    /// not: the instructions the model was given, written back into its answer.
    static func leakedInstructions(_ text: String, prompt: String, source: String, length: Int = 5) -> [String] {
        let instructions = ngrams(prompt, length).subtracting(ngrams(source, length))
        return ngrams(text, length).filter { instructions.contains($0) }.sorted()
    }

    static func ngrams(_ text: String, _ length: Int) -> Set<String> {
        let list = words(text.lowercased())
        guard list.count >= length else { return [] }
        return Set((0...(list.count - length)).map { list[$0..<($0 + length)].joined(separator: " ") })
    }

    /// True when `text` names the user by the first name (a reply the user sends to someone
    /// else that thanks "Sam" speaks to the wrong person).
    static func namesUser(_ text: String, user: GenerationEvalSet.Person) -> Bool {
        guard let first = user.name.split(separator: " ").first else { return false }
        return words(text).contains(String(first))
    }

    // MARK: Parts

    /// Runs of letters and digits; a ":", "." or "," between two digits stays in the word
    /// ("15:00", "2.4", "1,250").
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(text)
        for (i, character) in characters.enumerated() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if ":.,".contains(character), current.last?.isNumber == true, i + 1 < characters.count, characters[i + 1].isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The digit runs of a word, leading zeros dropped ("09" and "9" are one number).
    static func digitRuns(_ word: String) -> [String] {
        var runs: [String] = []
        var current = ""
        for character in word + " " {
            if character.isNumber, character.wholeNumberValue != nil {
                current.append(character)
            } else if !current.isEmpty {
                let trimmed = current.drop(while: { $0 == "0" })
                runs.append(trimmed.isEmpty ? "0" : String(trimmed))
                current = ""
            }
        }
        return runs
    }

    /// Indices in `words(text)` of the words that begin a sentence (first word; after . ! ? :
    /// ; or an opening quote, ¿ or ¡; after a line break). Not after a bracket: "(Sales)" is
    /// read as a name. Read with the same rules as
    /// `words`, so the indices agree.
    static func sentenceStarts(_ text: String) -> Set<Int> {
        var starts: Set<Int> = [0]
        var index = 0
        var inWord = false
        var pending = false
        let characters = Array(text)
        for (i, character) in characters.enumerated() {
            let joinsDigits = ":.,".contains(character) && inWord && i > 0 && characters[i - 1].isNumber
                && i + 1 < characters.count && characters[i + 1].isNumber
            if character.isLetter || character.isNumber || joinsDigits {
                if !inWord {
                    if pending { starts.insert(index) }
                    pending = false
                    inWord = true
                }
            } else {
                if inWord { index += 1 }
                inWord = false
                if ".!?:;¿¡…\"“«\n".contains(character) { pending = true }
            }
        }
        return starts
    }

    static func isAddress(_ token: String) -> Bool {
        let lower = token.lowercased()
        if lower.contains("://") || lower.hasPrefix("www.") { return true }
        if let at = lower.firstIndex(of: "@"), at > lower.startIndex, lower[at...].contains(".") { return true }
        // "example.com/x": a dot between letters and a short ending of letters.
        let host = lower.split(separator: "/").first.map(String.init) ?? lower
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, (2...6).contains(last.count), last.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
            && labels.dropLast().contains { $0.contains(where: \.isLetter) }
    }

    /// Weekdays and months in the set's languages ("may" and "mar" left out: English words).
    static let calendarWords: Set<String> = Set([
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag",
        "januar", "februar", "märz", "juni", "juli", "oktober", "dezember",
        "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        "janvier", "février", "avril", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre",
        "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
        "enero", "febrero", "marzo", "abril", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
    ])

    /// English abbreviations, counted only as written.
    static let calendarAbbreviations: Set<String> = ["Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Jan", "Feb", "Apr", "Aug",
                                                     "Sep", "Sept", "Oct", "Nov", "Dec"]

    /// Capitalised words that are no one's name: pronouns, forms of address, the usual
    /// abbreviations.
    static let notNames: Set<String> = ["I", "OK", "Ok", "Okay", "AM", "PM", "FYI", "ASAP", "PS", "Mr", "Mrs", "Ms", "Dr", "Re",
                                        "Sie", "Ihnen", "Ihr", "Ihre", "Vous", "Usted", "Ud", "Uds", "Ustedes"]

    /// Words that mark a language; a word several languages share is left out.
    static let markers: [String: Set<String>] = markerWords.mapValues { Set($0) }

    private static let markerWords: [String: [String]] = [
        "en": ["the", "and", "to", "of", "you", "is", "are", "for", "that", "this", "with", "have", "can", "will", "would", "could",
               "thanks", "thank", "we", "i", "it", "on", "at", "be", "my", "your", "not", "what", "when", "yes", "sure", "sorry",
               "works", "meet", "let", "know", "sounds", "good", "great", "happy", "unfortunately", "make", "send", "got", "received",
               "there", "time", "another", "how", "about", "please", "am", "do", "does", "did", "fine", "perfect", "look", "forward",
               "see", "then", "it's", "i'm", "i'll", "can't", "won't", "that's", "which", "other", "day", "afraid", "able", "will"],
        "de": ["der", "die", "das", "und", "ist", "nicht", "ich", "du", "wir", "mit", "für", "auf", "ein", "eine", "einen", "dem",
               "den", "zu", "es", "bitte", "danke", "vielen", "dank", "kann", "können", "leider", "gerne", "gern", "passt", "gut",
               "uhr", "termin", "treffen", "ja", "nein", "mir", "dir", "uns", "bin", "habe", "hast", "wäre", "würde", "schon", "noch",
               "auch", "aber", "wann", "wie", "anderen", "einverstanden", "klingt", "mache", "machen", "erhalten", "bis", "dann",
               "sehr", "geht", "nicht", "heute", "zeit", "besprechen", "freue", "mich", "dabei", "kein", "keine", "ihnen", "sie"],
        "fr": ["le", "la", "les", "et", "est", "vous", "nous", "je", "pour", "avec", "une", "des", "du", "dans", "pas", "ne",
               "que", "qui", "sur", "au", "ce", "cette", "merci", "bonjour", "oui", "non", "mais", "très", "bien", "désolé", "désolée",
               "convient", "reçu", "suis", "c'est", "j'ai", "disponible", "parfait", "volontiers", "malheureusement", "autre", "heure",
               "réunion", "serai", "pourrions", "pourriez", "pouvons", "peut", "ça", "d'accord", "entendu", "plaisir", "moment"],
        "es": ["el", "los", "las", "y", "es", "que", "por", "para", "con", "se", "lo", "mi", "su", "del", "al", "está",
               "gracias", "hola", "muy", "pero", "sí", "claro", "perfecto", "vale", "puedo", "podemos", "podría", "lo", "siento",
               "lamentablemente", "otra", "otro", "hora", "reunión", "nos", "vemos", "me", "parece", "bien", "estoy", "tengo",
               "recibido", "muchas", "encantado", "encantada", "genial", "disponible", "momento", "día", "puede", "ningún", "problema"],
    ]

    static let letters: [String: Set<Character>] = [
        "de": ["ä", "ö", "ü", "ß"],
        "fr": ["ç", "è", "ê", "à", "ù", "â", "î", "ô", "œ"],
        "es": ["ñ", "á", "í", "ó", "ú"],
    ]
}

/// The median and the largest of some durations, in seconds.
struct Timing: CustomStringConvertible {
    var seconds: [Double]

    var median: Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var max: Double { seconds.max() ?? 0 }

    var description: String { String(format: "median %.2f s, max %.2f s", median, max) }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

func percent(_ part: Int, of whole: Int) -> Double {
    whole == 0 ? 100 : Double(part) * 100 / Double(whole)
}
