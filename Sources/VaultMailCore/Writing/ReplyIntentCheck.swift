import Foundation

/// Whether a written reply does what its intent says: a small model given "Sorry" may go on
/// to accept, and given "Sure" may go on to refuse ("Claro, no puedo …"). A reply that does not
/// fit is replaced by the intent's plain phrase.
public enum ReplyIntentCheck {
    public static func fits(_ reply: String, intent: ReplyIntent, language: String) -> Bool {
        let negative = isNegative(reply, language: language)
        switch intent {
        case .accept, .acknowledge: return !negative
        case .decline: return negative
        case .alternative: return negative || proposesOther(reply, language: language)
        case .question: return reply.contains("?")
        }
    }

    /// Says no, cannot, or regrets, in `language` (English words count in every language).
    static func isNegative(_ reply: String, language: String) -> Bool {
        let lower = " " + reply.lowercased().replacingOccurrences(of: "’", with: "'") + " "
        let words = Set(lower.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init))
        let english: Set<String> = ["not", "cannot", "can't", "won't", "don't", "doesn't", "isn't", "unable", "unfortunately"]
        let local = negations[language] ?? []
        return !words.isDisjoint(with: english.union(local)) || lower.contains("n't ")
            || local.contains { $0.contains(" ") && lower.contains($0) }
    }

    /// Proposes something else: another time, another day, instead.
    static func proposesOther(_ reply: String, language: String) -> Bool {
        let lower = reply.lowercased()
        return (alternatives[language] ?? []).union(alternatives["en"]!).contains { lower.contains($0) }
    }

    static let negations: [String: Set<String>] = [
        "de": ["nicht", "kein", "keine", "leider", "nein"],
        "fr": ["pas", "ne", "non", "malheureusement", "désolé", "désolée", "impossible"],
        "es": ["no", "lamentablemente", "desafortunadamente", "lo siento", "imposible"],
        "it": ["non", "purtroppo", "mi dispiace", "impossibile"],
        "nl": ["niet", "geen", "helaas", "nee"],
        "pt": ["não", "infelizmente", "impossível"],
    ]

    static let alternatives: [String: Set<String>] = [
        "en": ["another", "instead", "other time", "later", "earlier", "different", "reschedule", "move it"],
        "de": ["anderen", "andere", "stattdessen", "später", "früher", "verschieben"],
        "fr": ["autre", "plutôt", "plus tard", "plus tôt", "décaler", "reporter"],
        "es": ["otro", "otra", "en su lugar", "más tarde", "más temprano", "cambiar"],
        "it": ["altro", "altra", "invece", "più tardi", "spostare"],
        "nl": ["ander", "andere", "in plaats", "later", "verzetten"],
        "pt": ["outro", "outra", "em vez", "mais tarde", "remarcar"],
    ]
}
