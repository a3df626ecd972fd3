import Foundation

/// The words a person wrote in a message, for replies and summaries: the plain text (or the
/// HTML's text when there is no plain part), without what it quotes, its signature, its
/// sign-off and its greeting.
public enum MessageText {
    /// The body as plain text: the plain part when it has any letters or digits, else the
    /// visible text of the HTML part (no comments, no hidden elements, no image alt text),
    /// else "".
    public static func plain(of email: Email) -> String {
        plain(plain: email.bodyPlain, html: email.bodyHTML)
    }

    /// The body as plain text from its two parts (see `plain(of:)`).
    public static func plain(plain: String?, html: String?) -> String {
        if let plain, plain.contains(where: \.isLetterOrDigit) { return plain }
        if let html {
            let text = HTMLText.plainText(html, visibleOnly: true)
            if text.contains(where: \.isLetterOrDigit) { return text }
        }
        return ""
    }

    /// The text the sender wrote in this message (see `ownText(_:)`), at most `limit`
    /// characters, cut at the end of a sentence when one is near.
    public static func newText(of email: Email, limit: Int? = nil) -> String {
        let text = ownText(plain(of: email))
        guard let limit else { return text }
        return shortened(text, to: limit)
    }

    /// Lines of `text` up to what it quotes ("> …", "On … wrote:", "-----Original Message-----",
    /// an Outlook header block), without the signature ("-- " and after, "Sent from my …"),
    /// the sign-off ("Best regards,\nAnna") and the opening greeting ("Hi Anna,"); paragraphs
    /// separated by a blank line, the lines of a paragraph kept as they are.
    public static func ownText(_ text: String) -> String {
        var lines: [String] = []
        let raw = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        scan: while index < raw.count {
            let line = raw[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(">") { index += 1; continue }
            if line == "-- " || trimmed == "--" || trimmed == "—" { break }
            if isSignatureStart(trimmed) || isQuoteMarker(trimmed) { break }
            if isAttribution(trimmed) {
                // A wrapped attribution ("On Mon, … Anna Berg <" / "anna@x> wrote:") begins a line earlier.
                if let last = lines.last, startsAttribution(last.trimmingCharacters(in: .whitespaces)) { lines.removeLast() }
                break
            }
            if isOutlookHeader(raw, at: index) { break }
            if isForwardMarker(trimmed) {
                // A forward's own text is what was forwarded: keep it, without its header lines.
                index += 1
                while index < raw.count, isHeaderLine(raw[index]) || raw[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
                continue scan
            }
            lines.append(line.trimmingCharacters(in: .whitespaces))
            index += 1
        }
        dropSignOff(&lines)
        dropGreeting(&lines)
        // Blank-line runs become one; leading and trailing ones go.
        var out: [String] = []
        for line in lines {
            if line.isEmpty {
                if let last = out.last, !last.isEmpty { out.append("") }
            } else {
                out.append(line.filter { !isInvisible($0) })
            }
        }
        while out.last?.isEmpty == true { out.removeLast() }
        return out.joined(separator: "\n")
    }

    /// Every line the sender wrote, for search by meaning: like `ownText(_:)`, but a reply
    /// written between or below quotes ("> …", "In article … writes:") keeps its lines after
    /// them, since only the quoted lines and their attribution are left out. Stops at what is
    /// not the sender's: the signature ("-- "), a list footer (a line of underscores), a quoted
    /// original ("-----Original Message-----", an Outlook header block). Greeting and sign-off
    /// stay; lines with no letter or digit go; one line per kept line.
    public static func writtenText(_ text: String) -> String {
        let raw = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        for index in raw.indices {
            let line = raw[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(">") || trimmed.hasPrefix("|>") { continue }
            if line == "-- " || trimmed == "--" || trimmed == "—" { break }
            if isSignatureStart(trimmed) || isQuoteMarker(trimmed) || isOutlookHeader(raw, at: index) { break }
            if isAttribution(trimmed) {
                if let last = lines.last, startsAttribution(last) { lines.removeLast() }
                continue
            }
            let kept = trimmed.filter { !isInvisible($0) }
            if kept.contains(where: \.isLetterOrDigit) { lines.append(kept) }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with its lines joined into one line (a paragraph break becomes a space too).
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The sentences of `text`: a paragraph (blank line), a list item or a line that ends a
    /// sentence ends one; wrapped lines are joined. Abbreviations ("e.g.", "Dr.") do not end one.
    public static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        func flush() {
            let sentence = oneLine(current)
            if !sentence.isEmpty { sentences.append(sentence) }
            current = ""
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { flush(); continue }
            if isListItem(trimmed) { flush() }
            let (complete, rest) = splitSentences(current.isEmpty ? trimmed : current + " " + trimmed)
            for sentence in complete { current = sentence; flush() }
            current = rest
            // A line that ends with no punctuation but is short and followed by more (a list
            // without bullets, "Agenda" …) ends here too when it is a heading-like line.
            if let last = trimmed.last, last == ":" { flush() }
        }
        flush()
        return sentences
    }

    /// `text` cut to at most `limit` characters: at the last sentence end past half of it, else
    /// at a word boundary with "…".
    public static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let head = String(text.prefix(limit))
        if let end = head.lastIndex(where: { ".!?".contains($0) }), head.distance(from: head.startIndex, to: end) >= limit / 2 {
            return String(head[...end])
        }
        if let space = head.lastIndex(where: \.isWhitespace), head.distance(from: head.startIndex, to: space) >= limit / 2 {
            return String(head[..<space]) + "…"
        }
        return head + "…"
    }

    /// A person's first name for a line such as "Anna: …": the first word of the display
    /// name, else the address's local part.
    public static func firstName(name: String?, address: String) -> String {
        if let name, let first = name.split(whereSeparator: { $0 == " " || $0 == "," }).first,
           first.contains(where: \.isLetter), !first.contains("@") {
            // "Berg, Anna" is written family name first.
            if name.contains(","), let given = name.split(separator: ",").last?.split(separator: " ").first { return String(given) }
            return String(first).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        let local = address.split(separator: "@").first.map(String.init) ?? address
        return local.isEmpty ? "Someone" : local
    }

    // MARK: Sentences

    private static let abbreviations = Set([
        "e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "prof", "vs", "approx", "z.b", "bzw", "ca", "usw", "d.h",
        "mme", "mlle", "sr", "sra", "dott", "no", "nr", "st", "a.m", "p.m", "p.s", "inc", "ltd", "jan", "feb",
        "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ])

    /// The complete sentences of a run of text and what is left after the last one.
    private static func splitSentences(_ text: String) -> ([String], String) {
        var sentences: [String] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if ".!?…".contains(character) {
                // Swallow closing punctuation: "?!", '."', ".)".
                var end = next
                while end < text.endIndex, ".!?…\"')»”’".contains(text[end]) { end = text.index(after: end) }
                let atBoundary = end == text.endIndex || text[end].isWhitespace
                if atBoundary && !(character == "." && (endsWithAbbreviation(text[start..<index]) || isOrdinal(text, index, end)))
                    && !isDecimal(text, index) {
                    sentences.append(String(text[start..<end]))
                    start = end
                    index = end
                    continue
                }
                index = end
                continue
            }
            index = next
        }
        return (sentences, String(text[start...]))
    }

    private static func endsWithAbbreviation(_ text: Substring) -> Bool {
        let word = text.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).last.map { $0.lowercased() } ?? ""
        if abbreviations.contains(word) { return true }
        // A single letter ("J. Smith") is an initial.
        return word.count == 1 && word.first?.isLetter == true
    }

    /// A day written as an ordinal ("am 6. Februar", "bis Mittwoch, 4. März"): one or two
    /// digits, a period, then a month or a lowercase word.
    private static func isOrdinal(_ text: String, _ period: String.Index, _ after: String.Index) -> Bool {
        let before = text[..<period].split(whereSeparator: \.isWhitespace).last ?? ""
        guard (1...2).contains(before.count), before.allSatisfy(\.isNumber) else { return false }
        let next = text[after...].split(whereSeparator: \.isWhitespace).first.map { $0.trimmingCharacters(in: .punctuationCharacters) } ?? ""
        guard let first = next.first else { return false }
        return first.isLowercase || FactGuard.dateWords.contains(next.lowercased())
    }

    private static func isDecimal(_ text: String, _ index: String.Index) -> Bool {
        guard index > text.startIndex else { return false }
        let next = text.index(after: index)
        return next < text.endIndex && text[text.index(before: index)].isNumber && text[next].isNumber
    }

    private static func isListItem(_ line: String) -> Bool {
        if line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("• ") { return true }
        let digits = line.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 2 else { return false }
        let rest = line.dropFirst(digits.count)
        return rest.hasPrefix(". ") || rest.hasPrefix(") ")
    }

    // MARK: Quotes and signatures

    private static let attributionEndings = [
        "wrote:", "writes:", "schrieb:", "a écrit :", "a écrit:", "escribió:", "ha scritto:", "schreef:", "escreveu:",
        "skrev:", "kirjoitti:",
    ]
    private static let attributionStarts = ["on ", "am ", "le ", "el ", "il ", "op ", "em ", "den ", "à ", "in data "]

    private static func isAttribution(_ line: String) -> Bool {
        let lower = line.lowercased()
        return attributionEndings.contains { lower.hasSuffix($0) }
    }

    private static func startsAttribution(_ line: String) -> Bool {
        let lower = line.lowercased()
        return attributionStarts.contains { lower.hasPrefix($0) } && !".!?".contains(lower.last ?? " ")
    }

    private static func isQuoteMarker(_ line: String) -> Bool {
        let lower = line.lowercased()
        if lower.count >= 10 && lower.allSatisfy({ $0 == "_" }) { return true }
        let markers = ["original message", "ursprüngliche nachricht", "message d'origine", "mensaje original",
                       "messaggio originale", "oorspronkelijk bericht", "mensagem original"]
        return lower.hasPrefix("-----") && markers.contains { lower.contains($0) }
    }

    private static func isForwardMarker(_ line: String) -> Bool {
        let lower = line.lowercased()
        guard lower.hasPrefix("----") || lower.hasPrefix("begin forwarded") else { return false }
        return ["forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado",
                "messaggio inoltrato", "doorgestuurd bericht", "mensagem encaminhada", "begin forwarded"].contains { lower.contains($0) }
    }

    private static let headerNames = ["from:", "sent:", "date:", "to:", "cc:", "subject:", "von:", "gesendet:", "an:", "betreff:",
                                      "de :", "de:", "envoyé :", "à :", "objet :", "enviado:", "para:", "asunto:", "da:", "inviato:",
                                      "oggetto:", "van:", "verzonden:", "aan:", "onderwerp:", "assunto:", "datum:"]

    private static func isHeaderLine(_ line: String) -> Bool {
        let lower = line.trimmingCharacters(in: .whitespaces).lowercased()
        return headerNames.contains { lower.hasPrefix($0) }
    }

    /// An Outlook reply: "From: …" followed within three lines by another header line.
    private static func isOutlookHeader(_ lines: [String], at index: Int) -> Bool {
        let lower = lines[index].trimmingCharacters(in: .whitespaces).lowercased()
        guard ["from:", "von:", "de :", "de:", "van:", "da:"].contains(where: { lower.hasPrefix($0) }) else { return false }
        return lines[(index + 1)..<min(lines.count, index + 4)].contains { isHeaderLine($0) }
    }

    private static func isSignatureStart(_ line: String) -> Bool {
        let lower = line.lowercased()
        let devices = ["sent from my ", "sent from outlook", "get outlook for", "von meinem ", "envoyé de mon ", "envoyé depuis",
                       "enviado desde mi ", "inviato da ", "verzonden vanaf mijn ", "verstuurd vanaf mijn ", "enviado do meu "]
        return devices.contains { lower.hasPrefix($0) }
    }

    /// Closing phrases a message ends with, lowercased, without their punctuation.
    static let signOffs = Set([
        "best", "best regards", "kind regards", "regards", "warm regards", "best wishes", "all the best", "cheers",
        "thanks", "thank you", "many thanks", "thanks again", "sincerely", "yours", "yours sincerely", "take care", "talk soon",
        "viele grüße", "beste grüße", "liebe grüße", "freundliche grüße", "mit freundlichen grüßen", "grüße", "gruß", "lg", "vg", "danke", "vielen dank",
        "cordialement", "bien cordialement", "bien à vous", "bonne journée", "merci", "merci beaucoup", "amitiés", "bises",
        "saludos", "un saludo", "muchas gracias", "gracias", "atentamente", "un abrazo", "abrazos",
        "cordiali saluti", "saluti", "grazie", "grazie mille", "un saluto", "a presto",
        "groeten", "met vriendelijke groet", "vriendelijke groet", "hartelijke groet", "bedankt", "dank je", "groetjes",
        "atenciosamente", "obrigado", "obrigada", "abraços", "abraço", "cumprimentos", "beijos",
    ])

    static func isSignOff(_ line: String) -> Bool {
        let bare = line.trimmingCharacters(in: CharacterSet(charactersIn: " ,.!;:-–—")).lowercased()
        return signOffs.contains(bare)
    }

    /// Drops a closing phrase near the end and the short lines (a name, a title) after it.
    private static func dropSignOff(_ lines: inout [String]) {
        let last = lines.lastIndex(where: { !$0.isEmpty }) ?? -1
        guard last >= 0 else { return }
        let from = max(0, last - 6)
        for index in stride(from: last, through: from, by: -1) where isSignOff(lines[index]) {
            let after = lines[(index + 1)...].filter { !$0.isEmpty }
            if after.count <= 5 && after.allSatisfy({ $0.count <= 60 }) {
                lines.removeSubrange(index...)
                return
            }
        }
        // A lone first name on the last line ("Anna") signs the message too.
        if last > 0, lines[last].count <= 25, !lines[last].contains(where: { ".!?:".contains($0) }),
           lines[last].split(separator: " ").count <= 3, lines[last].first?.isUppercase == true,
           lines[last - 1].isEmpty || ".!?".contains(lines[last - 1].last ?? " ") {
            lines.removeSubrange(last...)
        }
    }

    static let greetingWords: [String] = [
        "hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening", "greetings", "hiya",
        "hallo", "liebe", "lieber", "sehr geehrte", "sehr geehrter", "guten morgen", "guten tag", "moin", "servus",
        "bonjour", "bonsoir", "salut", "cher", "chère", "coucou", "hola", "buenos días", "buenas tardes", "buenas", "estimado", "estimada", "querido", "querida",
        "ciao", "buongiorno", "buonasera", "gentile", "caro", "cara", "salve",
        "hoi", "beste", "geachte", "goedemorgen", "goedemiddag", "olá", "oi", "prezado", "prezada", "bom dia", "boa tarde",
    ]

    /// True for a short line that only greets ("Hi Anna,", "Dear all,", "Bonjour Marie !").
    static func isGreeting(_ line: String) -> Bool {
        let lower = line.lowercased().trimmingCharacters(in: .whitespaces)
        guard lower.count <= 45, lower.split(separator: " ").count <= 5 else { return false }
        guard !lower.contains("?"), !lower.dropLast().contains(".") else { return false }
        return greetingWords.contains { word in
            lower.hasPrefix(word) && (lower.count == word.count || !lower[lower.index(lower.startIndex, offsetBy: word.count)].isLetter)
        }
    }

    private static func dropGreeting(_ lines: inout [String]) {
        guard let first = lines.firstIndex(where: { !$0.isEmpty }) else { return }
        let line = lines[first]
        if isGreeting(line) && (line.hasSuffix(",") || line.hasSuffix("!") || line.hasSuffix(":") || first + 1 >= lines.count || lines[first + 1].isEmpty) {
            lines.remove(at: first)
        } else if let comma = line.firstIndex(of: ","), isGreeting(String(line[...comma])), line.distance(from: comma, to: line.endIndex) > 3 {
            // "Hi Anna, can you …" on one line.
            lines[first] = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
            if let start = lines[first].first, start.isLowercase {
                lines[first] = start.uppercased() + lines[first].dropFirst()
            }
        }
    }

    private static func isInvisible(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F: return true
        default: return scalar.properties.generalCategory == .control && scalar != "\t"
        }
    }
}
