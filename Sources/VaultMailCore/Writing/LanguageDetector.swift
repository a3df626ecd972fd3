import Foundation

/// Which language a short text is in, by its common words: English, German, French, Spanish,
/// Italian, Dutch or Portuguese (ISO 639-1), or nil when the text is too short or too mixed
/// to say. Good enough to answer a message in its language; not a general identifier.
public enum LanguageDetector {
    /// The languages it knows.
    public static let languages = ["en", "de", "fr", "es", "it", "nl", "pt"]

    /// Common words of each language, lowercased. Words shared by two languages count for both;
    /// the others decide.
    static let stopwords: [String: Set<String>] = ([
        "en": ["the", "and", "to", "of", "you", "is", "are", "for", "that", "this", "with", "have", "has", "can", "will", "would",
               "could", "should", "please", "thanks", "thank", "we", "i", "it", "on", "at", "be", "my", "your", "me", "not", "what",
               "when", "about", "if", "do", "does", "get", "just", "let", "know", "tomorrow", "there", "our", "from", "was", "yes",
               "sure", "sorry", "works", "meet", "could", "here", "an", "all", "any", "us", "they", "them", "i'm", "i'll", "don't",
               "can't", "that's", "it's", "you're", "how", "which", "by", "or", "but", "so", "got", "more", "bit", "tell", "make", "find"],
        "de": ["der", "die", "das", "und", "ist", "nicht", "ich", "du", "sie", "wir", "ihr", "mit", "für", "auf", "ein", "eine",
               "einen", "einem", "dem", "den", "zu", "es", "bitte", "danke", "kannst", "können", "könnten", "könntest", "morgen", "uns",
               "mir", "dich", "dir", "noch", "auch", "aber", "wie", "wann", "haben", "habe", "sind", "wird", "schon", "gerne", "gern",
               "hast", "bei", "vom", "zum", "zur", "über", "oder", "ja", "leider", "passt", "mehr", "etwas", "dazu", "ist's", "wäre",
               "sagen", "termin", "anderen", "angekommen", "mache", "machen", "treffen", "uhr", "wir", "euch", "ihnen"],
        "fr": ["le", "la", "les", "et", "est", "vous", "nous", "je", "tu", "pour", "avec", "une", "un", "des", "du", "dans", "pas",
               "ne", "que", "qui", "sur", "au", "aux", "ce", "cette", "merci", "bonjour", "demain", "pouvez", "peux", "êtes", "sont",
               "mon", "ma", "mes", "votre", "vos", "notre", "oui", "mais", "très", "bien", "avoir", "été", "de", "en", "il", "elle",
               "désolé", "désolée", "pourriez", "pourrions", "moment", "autre", "convient", "reçu", "plus", "peu", "dire", "je", "suis",
               "c'est", "j'ai", "m'en", "s'il", "plaît", "réunion", "rendez-vous", "heure"],
        "es": ["el", "la", "los", "las", "y", "es", "que", "de", "en", "un", "una", "por", "para", "con", "no", "se", "lo", "le",
               "mi", "tu", "su", "nos", "del", "al", "está", "estás", "puedes", "podrías", "podríamos", "gracias", "hola", "mañana",
               "reunión", "muy", "pero", "también", "cuando", "qué", "cómo", "sí", "hay", "usted", "ustedes", "nuestro", "vamos", "me",
               "siento", "viene", "bien", "otro", "momento", "recibido", "contarme", "poco", "más", "encargo", "favor", "podré", "ir",
               "claro", "hora", "sería", "genial", "estoy", "tengo"],
        "it": ["il", "lo", "la", "gli", "le", "e", "è", "che", "di", "un", "una", "per", "con", "non", "si", "mi", "ti", "ci",
               "del", "della", "dei", "al", "alla", "sono", "sei", "puoi", "potresti", "potremmo", "grazie", "ciao", "domani", "riunione",
               "molto", "ma", "anche", "quando", "come", "questo", "questa", "abbiamo", "hai", "ho", "essere", "nel", "nella", "va",
               "bene", "dispiace", "riesco", "altro", "momento", "ricevuto", "dirmi", "qualcosa", "più", "certo", "occupo", "sì",
               "sarebbe", "perfetto", "ora", "io"],
        "nl": ["de", "het", "een", "en", "is", "van", "ik", "je", "jij", "u", "wij", "we", "niet", "met", "voor", "op", "dat", "die",
               "aan", "zijn", "er", "maar", "ook", "kun", "kunt", "kan", "morgen", "bedankt", "graag", "alsjeblieft", "hoi", "hallo",
               "ons", "mijn", "jouw", "wat", "wanneer", "hoe", "wel", "nog", "heb", "hebt", "heeft", "zou", "naar", "komt", "uit",
               "goed", "helaas", "ander", "moment", "vinden", "ontvangen", "vertellen", "iets", "meer", "doe", "lukt", "prima", "bij",
               "zijn", "fijn", "ja"],
        "pt": ["o", "a", "os", "as", "e", "é", "que", "de", "em", "um", "uma", "por", "para", "com", "não", "se", "do", "da", "dos",
               "das", "no", "na", "ao", "você", "vocês", "pode", "podes", "obrigado", "obrigada", "olá", "amanhã", "reunião", "muito",
               "mas", "também", "quando", "como", "está", "estou", "sim", "isso", "nosso", "nossa", "vamos", "tem", "desculpe", "consigo",
               "conseguir", "vou", "outro", "horário", "recebido", "mais", "detalhes", "claro", "trato", "disso", "seria", "ótimo",
               "podemos", "dá", "jeito", "me", "eu"],
    ] as [String: [String]]).mapValues { Set($0) }

    /// How many of `text`'s words are common words of each language.
    public static func scores(_ text: String) -> [String: Int] {
        var scores: [String: Int] = [:]
        for word in words(text) {
            for (language, list) in stopwords where list.contains(word) {
                scores[language, default: 0] += 1
            }
        }
        return scores
    }

    /// The language of `text`, or nil when unsure: at least two of its common words, and
    /// clearly more than any other language has.
    public static func detect(_ text: String) -> String? {
        let scores = scores(text)
        let ranked = scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        guard let best = ranked.first, best.value >= 2 else { return nil }
        let second = ranked.count > 1 ? ranked[1].value : 0
        guard best.value > second, Double(best.value) >= Double(second) * 1.25 else { return nil }
        return best.key
    }

    /// True when `text` reads as `language`: detected as it, or too short to tell and no
    /// other language fits better (a short English reply such as "Sure, 3pm works." has few
    /// common words).
    public static func fits(_ text: String, language: String) -> Bool {
        if let detected = detect(text) { return detected == language }
        let scores = scores(text)
        let own = scores[language] ?? 0
        let other = scores.filter { $0.key != language }.map(\.value).max() ?? 0
        return own >= other && (own > 0 || language == "en")
    }

    /// Lowercased words: letters, apostrophes and hyphens inside a word.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || ((character == "'" || character == "’" || character == "-") && !current.isEmpty) {
                current.append(character == "’" ? "'" : character)
            } else if !current.isEmpty {
                words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'-")))
                current = ""
            }
        }
        if !current.isEmpty { words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'-"))) }
        return words
    }
}
