import Foundation

/// The words smart replies start with and fall back on, per language: each intent's opening
/// (given to the model as the start of its answer, so a small model writes the reply asked
/// for instead of talking about itself) and its plain phrase (used when the model's reply was
/// unusable: empty, in another language, or inventing facts).
public enum ReplyPhrasebook {
    /// What the message is about, which picks the plain phrase ("Sorry, I can't make it." for
    /// a meeting, "Sorry, I won't be able to do that." for a request).
    public enum Context: Sendable, Hashable {
        case meeting, request, offer
    }

    /// The language replies are written in: the message's when it is one of these, else English.
    public static func language(_ language: String?) -> String {
        language.flatMap { openings[$0] == nil ? nil : $0 } ?? "en"
    }

    /// The opening of a reply with this intent ("Sure", "Sorry", "Could we").
    public static func opening(_ intent: ReplyIntent, language: String?, formal: Bool = false) -> String {
        let language = Self.language(language)
        if language == "de", formal, intent == .question { return "Können Sie" }
        return openings[language]?[intent] ?? openings["en"]![intent]!
    }

    /// The plain reply of this intent, in `language` (English when it is not known).
    public static func phrase(_ intent: ReplyIntent, context: Context, language: String?, formal: Bool = false) -> String {
        let language = Self.language(language)
        let table = phrases[language] ?? phrases["en"]!
        var phrase: String
        switch (intent, context) {
        case (.accept, .meeting): phrase = table["acceptMeeting"]!
        case (.accept, .offer): phrase = table["acceptOffer"]!
        case (.accept, .request): phrase = table["acceptRequest"]!
        case (.decline, .meeting): phrase = table["declineMeeting"]!
        case (.decline, _): phrase = table["declineRequest"]!
        case (.alternative, _): phrase = table["alternative"]!
        case (.question, _): phrase = table["question"]!
        case (.acknowledge, _): phrase = table["acknowledge"]!
        }
        if language == "de", formal { phrase = phrase.replacingOccurrences(of: "Kannst du mir", with: "Können Sie mir") }
        return phrase
    }

    /// A question that names the conversation's topic (its subject without "Re:" and the like):
    /// "Could you tell me more about “Budget”?"; the plain question when there is no subject.
    public static func question(about subject: String, language: String?, formal: Bool = false) -> String {
        let topic = MessageText.oneLine(subject.replacingOccurrences(
            of: #"^(\s*(re|aw|fwd?|wg|tr|rv|r|sv|antw)\s*(\[\d+\])?\s*:\s*)+"#, with: "", options: [.regularExpression, .caseInsensitive]))
        guard topic.contains(where: \.isLetter) else { return phrase(.question, context: .request, language: language, formal: formal) }
        let table = phrases[Self.language(language)] ?? phrases["en"]!
        var phrase = table["questionAbout"]!.replacingOccurrences(of: "%@", with: MessageText.shortened(topic, to: 60))
        if Self.language(language) == "de", formal { phrase = phrase.replacingOccurrences(of: "Kannst du mir", with: "Können Sie mir") }
        return phrase
    }

    /// The language's name in English, for the instruction "Write it in German."
    public static func name(of language: String) -> String {
        ["en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch", "pt": "Portuguese"][language] ?? language
    }

    /// The intent a reply already written reads as (the user's past replies): a question, a
    /// no, a yes, or thanks.
    public static func intent(of reply: String) -> ReplyIntent {
        let lower = " " + reply.lowercased() + " "
        let declines = ["sorry", "unfortunately", "can't", "cannot", "won't", "not able", "leider", "désolé", "malheureusement",
                        "lo siento", "lamentablemente", "mi dispiace", "purtroppo", "helaas", "desculpe", "infelizmente"]
        if declines.contains(where: { CategoryText.contains(lower, $0) }) {
            return lower.contains("?") ? .alternative : .decline
        }
        if lower.contains("?") || lower.contains("¿") { return .question }
        let thanks = ["thanks", "thank you", "got it", "danke", "merci", "gracias", "grazie", "bedankt", "obrigado", "obrigada"]
        let yes = ["yes", "sure", "works", "sounds good", "happy to", "will do", "ja", "gerne", "gern", "oui", "sí", "claro", "certo",
                   "sì", "prima", "sim", "ok", "okay"]
        if yes.contains(where: { CategoryText.contains(lower, $0) }) { return .accept }
        if thanks.contains(where: { CategoryText.contains(lower, $0) }) { return .acknowledge }
        return .acknowledge
    }

    // MARK: Tables

    static let openings: [String: [ReplyIntent: String]] = [
        "en": [.accept: "Sure", .decline: "Sorry", .alternative: "Could we", .question: "Could you", .acknowledge: "Thanks"],
        "de": [.accept: "Gerne", .decline: "Leider", .alternative: "Können wir", .question: "Kannst du", .acknowledge: "Danke"],
        "fr": [.accept: "Oui", .decline: "Désolé", .alternative: "Pourrions-nous", .question: "Pourriez-vous", .acknowledge: "Merci"],
        "es": [.accept: "Claro", .decline: "Lo siento", .alternative: "¿Podríamos", .question: "¿Podrías", .acknowledge: "Gracias"],
        "it": [.accept: "Certo", .decline: "Mi dispiace", .alternative: "Potremmo", .question: "Potresti", .acknowledge: "Grazie"],
        "nl": [.accept: "Prima", .decline: "Helaas", .alternative: "Kunnen we", .question: "Kun je", .acknowledge: "Bedankt"],
        "pt": [.accept: "Claro", .decline: "Desculpe", .alternative: "Podemos", .question: "Pode", .acknowledge: "Obrigado"],
    ]

    static let phrases: [String: [String: String]] = [
        "en": ["acceptMeeting": "Yes, that works for me.", "acceptRequest": "Sure, I can do that.",
               "acceptOffer": "Yes, please, that would be great.", "declineMeeting": "Sorry, I can't make it.",
               "declineRequest": "Sorry, I won't be able to do that.",
               "alternative": "That doesn't work for me; could we find another time?",
               "questionAbout": "Could you tell me more about “%@”?", "question": "Could you tell me a bit more?", "acknowledge": "Thanks, got it."],
        "de": ["acceptMeeting": "Ja, das passt mir.", "acceptRequest": "Gerne, das mache ich.",
               "acceptOffer": "Ja, gerne, das wäre super.", "declineMeeting": "Leider schaffe ich es nicht.",
               "declineRequest": "Leider kann ich das nicht übernehmen.",
               "alternative": "Das passt mir leider nicht; können wir einen anderen Termin finden?",
               "questionAbout": "Kannst du mir mehr zu „%@“ sagen?", "question": "Kannst du mir etwas mehr dazu sagen?", "acknowledge": "Danke, ist angekommen."],
        "fr": ["acceptMeeting": "Oui, cela me convient.", "acceptRequest": "Oui, je m'en occupe.",
               "acceptOffer": "Oui, avec plaisir, ce serait parfait.", "declineMeeting": "Désolé, je ne pourrai pas venir.",
               "declineRequest": "Désolé, je ne pourrai pas m'en charger.",
               "alternative": "Cela ne me convient pas ; pourrions-nous trouver un autre moment ?",
               "questionAbout": "Pourriez-vous m'en dire plus sur « %@ » ?", "question": "Pourriez-vous m'en dire un peu plus ?", "acknowledge": "Merci, bien reçu."],
        "es": ["acceptMeeting": "Sí, me viene bien.", "acceptRequest": "Claro, me encargo yo.",
               "acceptOffer": "Sí, por favor, sería genial.", "declineMeeting": "Lo siento, no podré ir.",
               "declineRequest": "Lo siento, no podré encargarme de eso.",
               "alternative": "No me viene bien; ¿podríamos buscar otro momento?",
               "questionAbout": "¿Podrías contarme más sobre «%@»?", "question": "¿Podrías contarme un poco más?", "acknowledge": "Gracias, recibido."],
        "it": ["acceptMeeting": "Sì, per me va bene.", "acceptRequest": "Certo, me ne occupo io.",
               "acceptOffer": "Sì, grazie, sarebbe perfetto.", "declineMeeting": "Mi dispiace, non riesco a esserci.",
               "declineRequest": "Mi dispiace, non riesco a occuparmene.",
               "alternative": "Per me non va bene; potremmo trovare un altro momento?",
               "questionAbout": "Potresti dirmi di più su «%@»?", "question": "Potresti dirmi qualcosa in più?", "acknowledge": "Grazie, ricevuto."],
        "nl": ["acceptMeeting": "Ja, dat komt mij goed uit.", "acceptRequest": "Prima, dat doe ik.",
               "acceptOffer": "Ja, graag, dat zou fijn zijn.", "declineMeeting": "Helaas, ik kan er niet bij zijn.",
               "declineRequest": "Helaas, dat lukt me niet.",
               "alternative": "Dat komt mij niet goed uit; kunnen we een ander moment vinden?",
               "questionAbout": "Kun je me meer vertellen over ‘%@’?", "question": "Kun je me er iets meer over vertellen?", "acknowledge": "Bedankt, goed ontvangen."],
        "pt": ["acceptMeeting": "Sim, para mim está bem.", "acceptRequest": "Claro, eu trato disso.",
               "acceptOffer": "Sim, por favor, seria ótimo.", "declineMeeting": "Desculpe, não vou conseguir ir.",
               "declineRequest": "Desculpe, não vou conseguir fazer isso.",
               "alternative": "Não me dá jeito; podemos encontrar outro horário?",
               "questionAbout": "Pode me dar mais detalhes sobre “%@”?", "question": "Pode me dar mais detalhes?", "acknowledge": "Obrigado, recebido."],
    ]
}
