import Foundation

/// The composer's first state for an answer or a forward (AC-U-08): recipients, "Re:" or
/// "Fwd:" subject, In-Reply-To and References, and the original quoted below the cursor.
///
/// - Reply: to the original's Reply-To-less sender; when the user wrote the original, to its
///   recipients instead (answering one's own message continues the conversation).
/// - Reply all: the sender in To, everyone else of To and Cc in Cc, never the user's own
///   addresses, each address once.
/// - Forward: no recipient, the original's headers and text below a separator, its attachments
///   carried (`forwardedEmailId`).
public enum ComposeTemplate {
    /// - Parameters:
    ///   - ownAddresses: every address of the user's accounts, so they are left out of Reply all.
    ///   - signature: the account's signature, placed above the quote after "-- ".
    public static func make(
        _ kind: ComposeKind, answering original: Email, account: Account, ownAddresses: Set<String>,
        signature: String? = nil, timeZone: TimeZone = .current
    ) -> DraftContent {
        var draft = DraftContent(accountId: account.id)
        let own = Set(ownAddresses.map { $0.lowercased() } + [account.email.lowercased()])
        let sender = Participant(name: original.fromName, email: original.fromAddress)
        let fromMe = own.contains(original.fromAddress.lowercased())
        switch kind {
        case .forward:
            draft.subject = forwardSubject(original.subject)
            draft.body = "\n\n" + signatureBlock(signature) + forwardBlock(original, timeZone: timeZone)
            draft.forwardedEmailId = original.id
            return draft
        case .reply:
            draft.to = fromMe ? original.toAddresses.map(formatted) : [formatted(sender)]
        case .replyAll:
            var seen = own
            let first = fromMe ? original.toAddresses : [sender]
            draft.to = unique(first, seen: &seen).map(formatted)
            let rest = (fromMe ? [] : original.toAddresses) + original.ccAddresses
            draft.cc = unique(rest, seen: &seen).map(formatted)
        case .new, .draft:
            return draft
        }
        let headers = ReplyHeaders(answering: original)
        draft.subject = headers.subject
        draft.inReplyTo = headers.inReplyTo
        draft.references = headers.references
        draft.threadId = headers.threadId
        draft.body = "\n\n" + signatureBlock(signature) + attribution(original, timeZone: timeZone) + "\n" + quoted(text(of: original))
        return draft
    }

    /// "Fwd: " once, whatever its case.
    public static func forwardSubject(_ subject: String) -> String {
        let lowered = subject.trimmingCharacters(in: .whitespaces).lowercased()
        return lowered.hasPrefix("fwd:") || lowered.hasPrefix("fw:") ? subject : "Fwd: \(subject)"
    }

    /// "On Tue, 24 Nov 2026 at 10:42, Ada Lovelace <ada@example.com> wrote:"
    static func attribution(_ original: Email, timeZone: TimeZone) -> String {
        "On \(longDate(original.dateSent ?? original.dateReceived, timeZone: timeZone)), "
            + "\(formatted(Participant(name: original.fromName, email: original.fromAddress))) wrote:"
    }

    /// Every line prefixed with "> " (">" alone for an empty line, ">>" for quoted lines, as mailers do).
    static func quoted(_ text: String) -> String {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines.map { line in
            line.isEmpty ? ">" : line.hasPrefix(">") ? ">" + line : "> " + line
        }.joined(separator: "\n") + "\n"
    }

    static func forwardBlock(_ original: Email, timeZone: TimeZone) -> String {
        var lines = ["---------- Forwarded message ----------",
                     "From: \(formatted(Participant(name: original.fromName, email: original.fromAddress)))",
                     "Date: \(longDate(original.dateSent ?? original.dateReceived, timeZone: timeZone))",
                     "Subject: \(original.subject)"]
        if !original.toAddresses.isEmpty { lines.append("To: \(original.toAddresses.map(formatted).joined(separator: ", "))") }
        if !original.ccAddresses.isEmpty { lines.append("Cc: \(original.ccAddresses.map(formatted).joined(separator: ", "))") }
        return lines.joined(separator: "\n") + "\n\n" + text(of: original)
    }

    public static func signatureBlock(_ signature: String?) -> String {
        guard let signature = signature?.trimmingCharacters(in: .whitespacesAndNewlines), !signature.isEmpty else { return "" }
        return "-- \n\(signature)\n\n"
    }

    /// The original's text: its plain part, else the text of its HTML.
    static func text(of email: Email) -> String {
        if let plain = email.bodyPlain, !plain.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return plain }
        return email.bodyHTML.map { HTMLText.plainText($0) } ?? ""
    }

    /// `Name <address>`, quoting a name that needs it; the bare address without a name.
    public static func formatted(_ person: Participant) -> String {
        guard let name = person.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
              name.lowercased() != person.email.lowercased() else { return person.email }
        let needsQuotes = name.contains { ",;:<>@\"()[]\\".contains($0) }
        let shown = needsQuotes ? "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" : name
        return "\(shown) <\(person.email)>"
    }

    private static func unique(_ people: [Participant], seen: inout Set<String>) -> [Participant] {
        people.filter { seen.insert($0.email.lowercased()).inserted }
    }

    /// "Tue, 24 Nov 2026 at 10:42"
    private static func longDate(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE, d MMM yyyy 'at' HH:mm"
        return formatter.string(from: date)
    }
}
