import Foundation

/// What a message asks for, read from its words in its language: whether it asks something
/// (a question mark, a request phrase), proposes a time or a date, is about meeting, offers
/// something, and (German) whether it says "Sie".
public struct MessageCues: Sendable, Hashable {
    public var asks: Bool
    public var proposesTime: Bool
    public var aboutMeeting: Bool
    public var offers: Bool
    /// The message addresses the reader formally ("Sie", "vous", "usted"): replies follow.
    public var formal: Bool

    public init(asks: Bool, proposesTime: Bool, aboutMeeting: Bool, offers: Bool, formal: Bool = false) {
        self.asks = asks
        self.proposesTime = proposesTime
        self.aboutMeeting = aboutMeeting
        self.offers = offers
        self.formal = formal
    }

    /// The cues of `text` in `language` (English when nil); phrases of every known language
    /// count, so a mixed or undetected message is still read.
    public init(text: String, language: String?) {
        let lower = " " + MessageText.oneLine(text).lowercased() + " "
        let languages = language.map { [$0] + LanguageDetector.languages.filter { $0 != language } } ?? LanguageDetector.languages
        func has(_ table: [String: [String]]) -> Bool {
            languages.contains { (table[$0] ?? []).contains { CategoryText.contains(lower, $0) } }
        }
        asks = lower.contains("?") || lower.contains("¿") || has(Self.requestPhrases)
        proposesTime = Self.mentionsTime(lower) || has(Self.dateWords)
        aboutMeeting = proposesTime || has(Self.meetingWords)
        offers = has(Self.offerPhrases)
        let original = " " + MessageText.oneLine(text) + " "
        formal = language == "de" && (original.contains(" Sie ") || original.contains(" Ihnen ") || original.contains(" Ihr "))
    }

    /// A clock time ("3pm", "3 pm", "15:00", "15 Uhr", "15h30", "10 o'clock") in lowercased text.
    static func mentionsTime(_ lower: String) -> Bool {
        let characters = Array(lower)
        var index = 0
        while index < characters.count {
            guard characters[index].isNumber, index == 0 || !characters[index - 1].isLetterOrDigit else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end].isNumber { end += 1 }
            defer { index = end }
            guard end - index <= 2 else { continue }
            // "15:00", "15h30".
            if end + 2 < characters.count, characters[end] == ":" || characters[end] == "h",
               characters[end + 1].isNumber, characters[end + 2].isNumber,
               end + 3 == characters.count || !characters[end + 3].isNumber {
                return true
            }
            var after = end
            while after < characters.count, characters[after] == " " { after += 1 }
            let rest = String(characters[after..<min(after + 8, characters.count)]) + " "
            if ["am ", "am,", "am.", "pm", "a.m", "p.m", "uhr", "h ", "h.", "h,", "uur", "hs ", "o'clock", "o’clock"].contains(where: { rest.hasPrefix($0) }) {
                return true
            }
        }
        return false
    }

    static let requestPhrases: [String: [String]] = [
        "en": ["can you", "could you", "would you", "will you", "please", "let me know", "are you able", "do you have time",
               "are you free", "are you available", "can we", "could we", "shall we", "i need you to", "would it be possible", "kindly"],
        "de": ["kannst du", "können sie", "könnten sie", "könntest du", "würdest du", "würden sie", "bitte", "hast du zeit",
               "haben sie zeit", "gib mir bescheid", "geben sie mir bescheid", "sag mir", "können wir", "wäre es möglich"],
        "fr": ["pouvez-vous", "pourriez-vous", "peux-tu", "pourrais-tu", "merci de", "s'il vous plaît", "s'il te plaît", "est-ce que",
               "pouvons-nous", "tiens-moi au courant", "dites-moi", "êtes-vous disponible", "es-tu disponible"],
        "es": ["puedes", "podrías", "podría", "podemos", "por favor", "te parece", "le parece", "avísame", "dime", "estás disponible",
               "está disponible", "tienes tiempo", "sería posible"],
        "it": ["puoi", "potresti", "potrebbe", "possiamo", "per favore", "per cortesia", "fammi sapere", "ti va", "sei disponibile",
               "è disponibile", "hai tempo", "sarebbe possibile"],
        "nl": ["kun je", "kunt u", "zou je", "zou u", "alsjeblieft", "alstublieft", "laat me weten", "laat even weten", "kunnen we",
               "heb je tijd", "ben je beschikbaar", "zou het mogelijk zijn"],
        "pt": ["pode", "podes", "poderia", "podemos", "por favor", "você pode", "me avisa", "avise-me", "diga-me", "tem tempo",
               "está disponível", "seria possível"],
    ]

    static let dateWords: [String: [String]] = [
        "en": ["tomorrow", "today", "tonight", "next week", "this week", "monday", "tuesday", "wednesday", "thursday", "friday",
               "saturday", "sunday", "january", "february", "march", "april", "june", "july", "august", "september", "october",
               "november", "december", "noon", "this afternoon", "this morning", "end of the day", "eod"],
        "de": ["morgen", "heute", "übermorgen", "nächste woche", "diese woche", "montag", "dienstag", "mittwoch", "donnerstag",
               "freitag", "samstag", "sonntag", "januar", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember", "mittag",
               "nachmittag", "vormittag", "heute abend"],
        "fr": ["demain", "aujourd'hui", "ce soir", "la semaine prochaine", "cette semaine", "lundi", "mardi", "mercredi", "jeudi",
               "vendredi", "samedi", "dimanche", "janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre",
               "octobre", "novembre", "décembre", "midi", "cet après-midi"],
        "es": ["mañana", "hoy", "esta tarde", "esta noche", "la próxima semana", "la semana que viene", "esta semana", "lunes", "martes",
               "miércoles", "jueves", "viernes", "sábado", "domingo", "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
               "agosto", "septiembre", "octubre", "noviembre", "diciembre", "mediodía"],
        "it": ["domani", "oggi", "stasera", "la prossima settimana", "questa settimana", "lunedì", "martedì", "mercoledì", "giovedì",
               "venerdì", "sabato", "domenica", "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre",
               "ottobre", "dicembre", "mezzogiorno", "pomeriggio"],
        "nl": ["morgen", "vandaag", "vanavond", "volgende week", "deze week", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag",
               "zaterdag", "zondag", "januari", "februari", "maart", "mei", "juni", "juli", "augustus", "oktober", "middag"],
        "pt": ["amanhã", "hoje", "esta tarde", "esta noite", "próxima semana", "semana que vem", "esta semana", "segunda-feira",
               "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo", "janeiro", "fevereiro", "março",
               "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro", "meio-dia"],
    ]

    static let meetingWords: [String: [String]] = [
        "en": ["meet", "meeting", "call", "lunch", "dinner", "coffee", "join", "come", "party", "event", "visit", "appointment", "catch up", "invite", "invitation"],
        "de": ["treffen", "termin", "besprechung", "anruf", "telefonat", "mittagessen", "abendessen", "kaffee", "kommen", "feier", "einladung", "besuch"],
        "fr": ["réunion", "rendez-vous", "rencontrer", "appel", "déjeuner", "dîner", "café", "venir", "fête", "invitation", "visite"],
        "es": ["reunión", "reunirnos", "vernos", "llamada", "almuerzo", "comida", "cena", "café", "venir", "fiesta", "invitación", "cita", "visita"],
        "it": ["riunione", "incontro", "vederci", "chiamata", "pranzo", "cena", "caffè", "venire", "festa", "invito", "appuntamento", "visita"],
        "nl": ["afspraak", "vergadering", "afspreken", "bellen", "lunch", "diner", "koffie", "komen", "feest", "uitnodiging", "bezoek"],
        "pt": ["reunião", "encontro", "encontrar", "chamada", "almoço", "jantar", "café", "vir", "festa", "convite", "visita"],
    ]

    static let offerPhrases: [String: [String]] = [
        "en": ["would you like", "do you want", "i can send", "i could send", "happy to", "i'd be glad", "shall i", "we'd like to invite",
               "you're invited", "you are invited", "feel free", "if you want", "if you'd like", "i can share", "i can help", "let me know if you need"],
        "de": ["möchtest du", "möchten sie", "willst du", "soll ich", "ich kann dir", "ich kann ihnen", "gerne schicke ich", "du bist eingeladen",
               "sie sind eingeladen", "wenn du möchtest", "wenn sie möchten"],
        "fr": ["voulez-vous", "veux-tu", "souhaitez-vous", "je peux vous", "je peux te", "voulez-vous que", "vous êtes invité", "tu es invité",
               "si vous voulez", "si tu veux", "n'hésitez pas"],
        "es": ["quieres", "quiere", "te gustaría", "le gustaría", "puedo enviarte", "puedo mandarte", "estás invitado", "estás invitada",
               "si quieres", "no dudes"],
        "it": ["vuoi", "vorresti", "ti andrebbe", "posso mandarti", "posso inviarti", "sei invitato", "sei invitata", "se vuoi", "non esitare"],
        "nl": ["wil je", "wilt u", "zal ik", "ik kan je", "ik kan u", "je bent uitgenodigd", "als je wilt", "aarzel niet"],
        "pt": ["quer", "queres", "gostaria de", "posso enviar", "posso mandar", "está convidado", "estás convidado", "se quiser", "não hesite"],
    ]
}
