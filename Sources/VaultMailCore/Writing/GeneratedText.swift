import Foundation

/// Tidies what a small model wrote: one or two sentences for a reply, whole sentences for a
/// summary; no greeting, sign-off, placeholder ("[Your Name]"), label ("Reply:") or talk
/// about itself ("As an AI …"); a sentence the token limit cut off is dropped.
public enum GeneratedText {
    /// The reply in `raw` (the opening the model was given followed by what it wrote): its
    /// first sentence, and the second only when the first is a few words ("Sure." "Sorry!");
    /// a small model's second sentence mostly pads or invents. "" when nothing usable is left.
    public static func cleanReply(_ raw: String) -> String {
        let line = raw.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        let sentences = usableSentences(tidy(line))
        let short = sentences.first.map { $0.split(separator: " ").count < 5 } ?? false
        return finish(Array(sentences.prefix(short ? 2 : 1)))
    }

    /// The sentences of a summary in `raw`, tidied, meta talk and cut-off sentences dropped;
    /// the prompt's message headers copied out ("Tom Reed (Thu 15 Jan 12:06):") taken off.
    public static func summarySentences(_ raw: String) -> [String] {
        let unstamped = raw.replacingOccurrences(of: #"[^\n:()]{0,40}\((Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d{2}:\d{2}\):?"#,
                                                 with: "", options: .regularExpression)
        let text = unstamped.split(separator: "\n").map { line -> String in
            var line = line.trimmingCharacters(in: .whitespaces)
            // Bullets and numbering become plain sentences.
            while let first = line.first, "-*•".contains(first) { line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces) }
            if let dot = line.firstIndex(where: { $0 == "." || $0 == ")" }), line[..<dot].allSatisfy(\.isNumber), !line[..<dot].isEmpty {
                line = String(line[line.index(after: dot)...]).trimmingCharacters(in: .whitespaces)
            }
            if !line.isEmpty, !".!?:".contains(line.last!) { line += "." }
            return line
        }.joined(separator: "\n")
        var sentences = usableSentences(tidy(text)).map(withoutLeadIn)
        if let last = sentences.last, isCutOff(last) { sentences.removeLast() }
        return sentences.filter { $0.contains(where: \.isLetter) }.map(capitalised)
    }

    /// True when `sentence` repeats `run` or more words in a row of one of `texts` (the
    /// prompt's own instructions written back, a message copied out).
    public static func echoes(_ sentence: String, of texts: [String], run: Int) -> Bool {
        let words = wordList(sentence)
        guard words.count >= run else { return false }
        let runs = Set(texts.flatMap { text -> [ArraySlice<String>] in
            let source = wordList(text)
            return source.count < run ? [] : (0...(source.count - run)).map { source[$0..<($0 + run)] }
        }.map { $0.joined(separator: " ") })
        return (0...(words.count - run)).contains { runs.contains(words[$0..<($0 + run)].joined(separator: " ")) }
    }

    private static func wordList(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
    }

    /// True for a sentence about the model itself or the task rather than the mail ("As an
    /// AI language model …", "Here is a reply:", "I'm sorry for the misunderstanding").
    public static func isMeta(_ sentence: String) -> Bool {
        let lower = sentence.lowercased()
        let phrases = ["as an ai", "language model", "as an assistant", "email assistant", "an ai assistant", "i am an ai", "i'm an ai",
                       "here is a", "here's a", "here is the", "here's the", "sorry for the misunderstanding", "sorry for any confusion",
                       "sorry for any misunderstanding", "happy to help you", "help you with your request", "can't assist", "cannot assist",
                       "i cannot help", "i can't help with", "i'm not able to access", "i don't have access", "the email above",
                       "the following:", "decision or action", "action items are", "the decision or the", "summarize this",
                       "summary of the conversation", "summary of this",
                       "als ki", "en tant qu'ia", "como ia", "come ia", "als ai"]
        return phrases.contains { lower.contains($0) }
    }

    /// True for a greeting or a sign-off written as a sentence ("Hi Anna!", "Best regards, Tom.").
    static func isClutter(_ sentence: String) -> Bool {
        let bare = sentence.trimmingCharacters(in: CharacterSet(charactersIn: " ,.!;:"))
        if MessageText.isSignOff(bare) { return true }
        let lower = bare.lowercased()
        let closings = ["best regards", "kind regards", "regards", "best wishes", "cheers", "sincerely", "yours", "viele grüße", "beste grüße",
                        "liebe grüße", "mit freundlichen grüßen", "cordialement", "saludos", "un saludo", "cordiali saluti", "groeten",
                        "met vriendelijke groet", "atenciosamente", "abraços"]
        if closings.contains(where: { lower.hasPrefix($0) }), bare.split(separator: " ").count <= 5 { return true }
        return MessageText.isGreeting(bare) && bare.split(separator: " ").count <= 3
    }

    // MARK: Steps

    /// Placeholders, labels, wrapping quotes and markup out; whitespace collapsed.
    static func tidy(_ text: String) -> String {
        var text = text
        // "[Your Name]", "<name>", "{date}".
        for (open, close) in [("[", "]"), ("<", ">"), ("{", "}")] {
            while let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) {
                text.removeSubrange(start.lowerBound..<end.upperBound)
            }
        }
        text = text.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
        for label in ["Reply:", "Response:", "Answer:", "Subject:", "Summary:", "Antwort:", "Réponse :", "Réponse:", "Respuesta:", "Risposta:",
                      "Antwoord:", "Resposta:", "Zusammenfassung:", "Résumé :", "Résumé:", "Resumen:", "Riassunto:", "Samenvatting:", "Resumo:"] {
            text = text.replacingOccurrences(of: label, with: " ")
        }
        text = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        let quotes = CharacterSet(charactersIn: "\"'“”«»")
        text = text.trimmingCharacters(in: quotes.union(.whitespaces))
        // " ," and " ." left where a placeholder was.
        for mark in [",", ".", "!", "?"] { text = text.replacingOccurrences(of: " " + mark, with: mark) }
        text = text.replacingOccurrences(of: ",,", with: ",").replacingOccurrences(of: ", .", with: ".")
        return text
    }

    private static func usableSentences(_ text: String) -> [String] {
        MessageText.sentences(text).filter { !isMeta($0) && !isClutter($0) && $0.contains(where: \.isLetter) }
    }

    /// A sentence the token limit cut: no closing punctuation and long, or ending on a word
    /// that cannot end one ("the", "and", "to").
    static func isCutOff(_ sentence: String) -> Bool {
        guard let last = sentence.last, !".!?…".contains(last) else { return false }
        let lastWord = sentence.split(separator: " ").last.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) } ?? ""
        let dangling = Set(["the", "a", "an", "and", "or", "but", "to", "of", "with", "at", "in", "on", "for", "my", "your", "our",
                                     "is", "are", "will", "be", "that", "this", "der", "die", "das", "und", "le", "la", "les", "et", "el",
                                     "los", "y", "il", "e", "de", "het", "en", "o", "um", "uma"])
        return sentence.count >= 100 || dangling.contains(lastWord) || last == ","
    }

    /// The sentences as one reply: a cut-off last sentence dropped (or, alone, ended at its
    /// last comma), closing punctuation added, the first letter capitalised.
    private static func finish(_ sentences: [String]) -> String {
        var sentences = sentences
        if let last = sentences.last, isCutOff(last) {
            sentences.removeLast()
            if sentences.isEmpty, let comma = last.dropLast().lastIndex(of: ","), last[..<comma].split(separator: " ").count >= 3 {
                sentences = [String(last[..<comma]) + "."]
            }
        }
        guard var text = sentences.map(capitalised).joined(separator: " ").nilIfEmpty else { return "" }
        if let last = text.last, !".!?…".contains(last) { text += "." }
        return text
    }

    /// "In this conversation, Anna asks …" → "Anna asks …".
    static func withoutLeadIn(_ sentence: String) -> String {
        let lower = sentence.lowercased()
        for leadIn in ["in this email thread, ", "in this conversation, ", "in this email, ", "in this thread, ", "in the conversation, ",
                       "in the email, ", "in summary, ", "to summarize, ", "overall, "] where lower.hasPrefix(leadIn) {
            return String(sentence.dropFirst(leadIn.count))
        }
        return sentence
    }

    static func capitalised(_ sentence: String) -> String {
        guard let first = sentence.first, first.isLowercase else { return sentence }
        return first.uppercased() + sentence.dropFirst()
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
