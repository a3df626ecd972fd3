import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// Real messages stored as sync stores them: parsed by GMime, each its own conversation, the
/// source kept (attachments and `cid:` images are read out of it).
enum StoredMail {
    static func incoming(_ raw: [UInt8], accountId: String, folder: Folder, isRead: Bool = false, number: Int = 0) -> IncomingEmail {
        let parsed = GMimeMessageParser().parse(raw)
        let id = Email.stableID(accountId: accountId, messageId: parsed.stableMessageId)
        let sender = parsed.sender
        let email = Email(
            id: id, accountId: accountId, threadId: "thread-\(id.prefix(12))", messageId: parsed.stableMessageId,
            fromAddress: sender?.email ?? "", fromName: sender?.name, toAddresses: parsed.to, ccAddresses: parsed.cc,
            subject: parsed.subject, bodyPlain: parsed.textPlain, bodyHTML: parsed.textHTML, snippet: parsed.snippet,
            dateReceived: MailFixtures.referenceDate.addingTimeInterval(Double(number) * 60), dateSent: parsed.date,
            isRead: isRead, sizeBytes: raw.count, hasAttachments: parsed.attachments.contains { !$0.isInline })
        let attachments = parsed.attachments.map {
            Attachment(emailId: id, filename: $0.suggestedFilename, mimeType: $0.mimeType, sizeBytes: $0.size,
                       contentId: $0.contentId, isInline: $0.isInline, partId: $0.partId)
        }
        return IncomingEmail(email: email, links: [EmailFolder(emailId: id, folderId: folder.id)], attachments: attachments, rawSource: raw)
    }
}
