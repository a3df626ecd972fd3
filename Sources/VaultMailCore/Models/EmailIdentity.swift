import Crypto
import Foundation

/// What tells stored emails with the same Message-ID apart (issue 17: "Messages lost or misread").
///
/// A Message-ID names a message, but not always one: mailers reuse or regenerate them, and
/// bounces and forwards repeat them. The *same* message (a copy in INBOX and Archive, in
/// Gmail's All Mail, a message sent to oneself in Sent and in the Inbox with other Received
/// headers) must stay one email with several folder links; a *different* message (other
/// sender, date, subject, body or parts) must be stored and shown too. So an email carries a
/// content fingerprint (`fingerprint(of:attachmentSizes:)`), and a fetched message whose
/// Message-ID is stored takes the id of the stored email with its fingerprint, else a new one
/// (`assignIDs`). See docs/mime-and-threading.md, "Message identity".
public struct EmailIdentity: Sendable, Hashable {
    public var emailId: String
    /// The Message-ID with angle brackets.
    public var messageId: String
    /// nil when not known: an email of compose and the outbox rather than of sync. It stands
    /// for any message fetched under its Message-ID that no other email matches (VaultMail's
    /// Message-IDs are unique, and a draft's text changes under its id).
    public var contentFingerprint: String?
    /// RFC822.SIZE and internal date of the message it was first fetched as (what a stored
    /// link's message is checked against once after the identity migration).
    public var sizeBytes: Int
    public var dateReceived: Date

    public init(emailId: String, messageId: String, contentFingerprint: String?, sizeBytes: Int = 0, dateReceived: Date = Date(timeIntervalSince1970: 0)) {
        self.emailId = emailId
        self.messageId = messageId
        self.contentFingerprint = contentFingerprint
        self.sizeBytes = sizeBytes
        self.dateReceived = dateReceived
    }

    /// The content fingerprint of a stored or fetched email (SHA-256 hex, version-tagged).
    ///
    /// What identifies a message wherever it sits and however it travelled, never transport
    /// headers (Received, Delivered-To, DKIM, the internal date, RFC822.SIZE): the From address
    /// (lowercased), the Date header to the second (`-` without one), the subject (whitespace
    /// runs made one space), the body text (the plain part, else the HTML one) with all
    /// whitespace removed (re-wrapping and line endings do not count), and the sizes of the
    /// attachments (in any order).
    public static func fingerprint(
        fromAddress: String, dateSent: Date?, subject: String, bodyPlain: String?, bodyHTML: String?, attachmentSizes: [Int]
    ) -> String {
        var text = "v1\u{1F}" + fromAddress.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        text += "\u{1F}" + (dateSent.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "-")
        text += "\u{1F}" + subject.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let plain = bodyPlain.map(withoutWhitespace) ?? ""
        text += "\u{1F}" + (plain.isEmpty ? bodyHTML.map(withoutWhitespace) ?? "" : plain)
        text += "\u{1F}" + attachmentSizes.sorted().map(String.init).joined(separator: ",")
        return SHA256.hash(data: Array(text.utf8)).hexString
    }

    private static func withoutWhitespace(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // ASCII first (most mail): U+0009–U+000D and U+0020 are all of its White_Space.
            let isSpace = scalar.isASCII ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
            if !isSpace { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// The content fingerprint of an email and its attachments' sizes.
    public static func fingerprint(of email: Email, attachmentSizes: [Int]) -> String {
        fingerprint(
            fromAddress: email.fromAddress, dateSent: email.dateSent, subject: email.subject,
            bodyPlain: email.bodyPlain, bodyHTML: email.bodyHTML, attachmentSizes: attachmentSizes)
    }

    /// The email id of each fetched message, in order, given the stored emails with their
    /// Message-IDs (`stored`). Per message:
    /// 1. nothing else (stored or earlier in `messages`) has its Message-ID: the usual id,
    ///    `Email.stableID(accountId:messageId:)`, without computing its fingerprint;
    /// 2. an email with its Message-ID and fingerprint: that email (a copy);
    /// 3. an email with its Message-ID whose fingerprint is unknown: that email (within this
    ///    call it then has this message's fingerprint);
    /// 4. else the usual id when no email holds it (the first message keeps its id, as before
    ///    identity existed), or `Email.stableID(accountId:messageId:contentFingerprint:)`.
    /// `fingerprint` is called only for messages whose Message-ID is shared.
    public static func assignIDs<Message>(
        accountId: String, _ messages: [Message], messageId: (Message) -> String, fingerprint: (Message) -> String,
        stored: [EmailIdentity]
    ) -> [String] {
        var known: [String: [(emailId: String, fingerprint: String?)]] = [:]
        for identity in stored {
            known[identity.messageId, default: []].append((identity.emailId, identity.contentFingerprint))
        }
        var count: [String: Int] = [:]
        for message in messages { count[messageId(message), default: 0] += 1 }

        var ids: [String] = []
        ids.reserveCapacity(messages.count)
        for message in messages {
            let id = messageId(message)
            let usual = Email.stableID(accountId: accountId, messageId: id)
            var entries = known[id, default: []]
            guard !entries.isEmpty || count[id, default: 0] > 1 else {
                ids.append(usual)
                continue
            }
            let print = fingerprint(message)
            if let same = entries.first(where: { $0.fingerprint == print }) {
                ids.append(same.emailId)
                continue
            }
            let unknown = entries.indices.filter { entries[$0].fingerprint == nil }
            if let adopt = unknown.first(where: { entries[$0].emailId == usual }) ?? unknown.first {
                entries[adopt].fingerprint = print
                ids.append(entries[adopt].emailId)
            } else {
                let fresh = entries.contains { $0.emailId == usual }
                    ? Email.stableID(accountId: accountId, messageId: id, contentFingerprint: print) : usual
                entries.append((fresh, print))
                ids.append(fresh)
            }
            known[id] = entries
        }
        return ids
    }
}
