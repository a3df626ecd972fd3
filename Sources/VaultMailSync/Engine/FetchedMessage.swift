import Foundation
import VaultMailCore
import VaultMailIMAP

/// A message fetched from a folder and parsed: what the store and threading need of it.
struct FetchedMessage: Sendable {
    var uid: UInt32
    var parsed: ParsedMessage
    var incoming: IncomingEmail
    var gmailThreadID: UInt64?

    var emailId: String { incoming.email.id }

    /// Builds the email a fetched message becomes, under the usual id of its Message-ID
    /// (`assign(emailId:)` changes it). A message that could not be parsed still becomes an
    /// email with what was read and its raw source kept (never dropped).
    /// `raw`: the message's bytes when the caller has them already (as parsed), so they are
    /// not copied out of `message.rawMessage` a second time.
    init(message: IMAPMessage, raw given: [UInt8]? = nil, parsed: ParsedMessage, accountId: String, folderId: String, now: Date) {
        uid = message.uid
        self.parsed = parsed
        gmailThreadID = message.gmailThreadID
        let flags = message.flags ?? []
        let raw = given ?? message.rawMessage.map { [UInt8]($0) } ?? []
        let messageId = parsed.stableMessageId
        let id = Email.stableID(accountId: accountId, messageId: messageId)
        let sender = parsed.sender
        let email = Email(
            id: id, accountId: accountId,
            threadId: "",  // set by threading before the email is stored
            messageId: messageId,
            inReplyTo: parsed.inReplyTo,
            references: parsed.references.isEmpty ? nil : parsed.references.joined(separator: " "),
            fromAddress: sender?.email ?? "",
            fromName: sender?.name,
            toAddresses: parsed.to, ccAddresses: parsed.cc, bccAddresses: parsed.bcc,
            subject: parsed.subject,
            bodyPlain: parsed.textPlain, bodyHTML: parsed.textHTML, snippet: parsed.snippet,
            dateReceived: message.internalDate ?? parsed.date ?? now,
            dateSent: parsed.date,
            isRead: flags.contains(.seen), isStarred: flags.contains(.flagged), isDraft: flags.contains(.draft),
            spamFlagged: parsed.isSpamTagged,
            sizeBytes: Int(message.size ?? UInt32(clamping: raw.count)),
            hasAttachments: parsed.attachments.contains { !$0.isInline })
        let attachments = parsed.attachments.map { part in
            Attachment(
                emailId: id, filename: part.suggestedFilename, mimeType: part.mimeType, sizeBytes: part.size,
                contentId: part.contentId, isInline: part.isInline, partId: part.partId)
        }
        incoming = IncomingEmail(
            email: email, links: [EmailFolder(emailId: id, folderId: folderId, uid: message.uid)],
            attachments: attachments, rawSource: raw.isEmpty ? nil : raw,
            autocrypt: sender.map { AutocryptReceipt(from: $0.email, date: parsed.date, arrived: email.dateReceived, headers: parsed.autocryptHeaders) })
    }

    /// The content fingerprint (`EmailIdentity`) that tells this message from another with
    /// its Message-ID.
    var contentFingerprint: String {
        EmailIdentity.fingerprint(of: incoming.email, attachmentSizes: incoming.attachments.map(\.sizeBytes))
    }

    /// Stores the message under another email id (`EmailIdentity.assignIDs`: a stored email
    /// with other content holds its Message-ID, or one without a known fingerprint stands for it).
    mutating func assign(emailId id: String) {
        guard id != emailId else { return }
        incoming.email.id = id
        incoming.links = incoming.links.map { EmailFolder(emailId: id, folderId: $0.folderId, uid: $0.uid) }
        incoming.attachments = incoming.attachments.map {
            Attachment(
                emailId: id, filename: $0.filename, mimeType: $0.mimeType, sizeBytes: $0.sizeBytes,
                contentId: $0.contentId, isInline: $0.isInline, partId: $0.partId)
        }
    }

    var serverFlags: ServerFlags {
        ServerFlags(uid: uid, isRead: incoming.email.isRead, isStarred: incoming.email.isStarred)
    }

    /// The threading facts of this message (date: the Date header, else the internal date).
    var threadable: ThreadableMessage {
        ThreadableMessage(
            id: emailId, messageId: incoming.email.messageId, inReplyTo: parsed.inReplyTo,
            references: parsed.references, subject: parsed.subject, date: incoming.email.dateSent ?? incoming.email.dateReceived)
    }
}
