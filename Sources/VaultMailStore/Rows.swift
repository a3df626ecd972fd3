import Foundation
import GRDB
import VaultMailCore

// Row ↔ domain value mapping. Explicit columns instead of Codable records: the domain
// types stay free of GRDB, and the hot paths avoid Codable's overhead.

extension Account {
    init(row: Row) {
        self.init(
            id: row["id"], name: row["name"], email: row["email"], displayName: row["displayName"],
            imapHost: row["imapHost"], imapPort: row["imapPort"],
            smtpHost: row["smtpHost"], smtpPort: row["smtpPort"],
            security: ConnectionSecurity(rawValue: row["security"]) ?? .tls,
            username: row["username"],
            authMethod: AuthMethod(rawValue: row["authMethod"]) ?? .password,
            credentialCommand: row["credentialCommand"], caFile: row["caFile"],
            syncWindowDays: row["syncWindowDays"], isActive: row["isActive"],
            createdAt: Date(millis: row["createdAt"])
        )
    }

    var databaseArguments: StatementArguments {
        [id, name, email, displayName, imapHost, imapPort, smtpHost, smtpPort, security.rawValue,
         username, authMethod.rawValue, credentialCommand, caFile, syncWindowDays, isActive, createdAt.millis]
    }

    static let columns = """
        id, name, email, displayName, imapHost, imapPort, smtpHost, smtpPort, security, \
        username, authMethod, credentialCommand, caFile, syncWindowDays, isActive, createdAt
        """
}

extension Folder {
    init(row: Row) {
        self.init(
            id: row["id"], accountId: row["accountId"], name: row["name"], path: row["path"],
            folderType: FolderType(rawValue: row["folderType"]) ?? .custom,
            uidValidity: (row["uidValidity"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
            lastSyncedUID: (row["lastSyncedUID"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
            highestModSeq: (row["highestModSeq"] as Int64?).map { UInt64(bitPattern: $0) },
            totalCount: row["totalCount"], unreadCount: row["unreadCount"],
            lastSyncDate: (row["lastSyncDate"] as Int64?).map(Date.init(millis:)),
            historyWindowDays: row["historyWindowDays"]
        )
    }

    var databaseArguments: StatementArguments {
        [id, accountId, name, path, folderType.rawValue, uidValidity.map { Int64($0) },
         lastSyncedUID.map { Int64($0) }, highestModSeq.map { Int64(bitPattern: $0) },
         totalCount, unreadCount, lastSyncDate?.millis, historyWindowDays]
    }

    static let columns = """
        id, accountId, name, path, folderType, uidValidity, lastSyncedUID, highestModSeq, \
        totalCount, unreadCount, lastSyncDate, historyWindowDays
        """
}

extension EmailThread {
    init(row: Row) {
        self.init(
            id: row["id"], accountId: row["accountId"], subject: row["subject"],
            latestDate: Date(millis: row["latestDate"]), messageCount: row["messageCount"],
            unreadCount: row["unreadCount"], isStarred: row["isStarred"],
            hasAttachments: row["hasAttachments"], snippet: row["snippet"],
            participants: row["participants"], aiCategory: row["aiCategory"]
        )
    }

    static let columns = """
        t.id, t.accountId, t.subject, t.latestDate, t.messageCount, t.unreadCount, t.isStarred, \
        t.hasAttachments, t.snippet, t.participants, t.aiCategory
        """
}

extension Email {
    init(row: Row) {
        self.init(
            id: row["id"], accountId: row["accountId"], threadId: row["threadId"],
            messageId: row["messageId"], inReplyTo: row["inReplyTo"], references: row["references"],
            fromAddress: row["fromAddress"], fromName: row["fromName"],
            toAddresses: Participant.decode(from: row["toAddresses"]),
            ccAddresses: Participant.decode(from: row["ccAddresses"]),
            bccAddresses: Participant.decode(from: row["bccAddresses"]),
            subject: row["subject"], bodyPlain: row["bodyPlain"], bodyHTML: row["bodyHTML"],
            snippet: row["snippet"], dateReceived: Date(millis: row["dateReceived"]),
            dateSent: (row["dateSent"] as Int64?).map(Date.init(millis:)),
            isRead: row["isRead"], isStarred: row["isStarred"], isDraft: row["isDraft"],
            spamFlagged: row["spamFlagged"], aiCategory: row["aiCategory"],
            sendState: SendState(rawValue: row["sendState"]) ?? .none,
            sizeBytes: row["sizeBytes"], hasAttachments: row["hasAttachments"]
        )
    }

    var databaseArguments: StatementArguments {
        [id, accountId, threadId, messageId, inReplyTo, references, fromAddress, fromName,
         Participant.encodeStored(toAddresses), Participant.encodeStored(ccAddresses), Participant.encodeStored(bccAddresses),
         subject, bodyPlain, bodyHTML, snippet, dateReceived.millis, dateSent?.millis,
         isRead, isStarred, isDraft, spamFlagged, aiCategory, sendState.rawValue, sizeBytes, hasAttachments]
    }

    static let columns = """
        id, accountId, threadId, messageId, inReplyTo, "references", fromAddress, fromName, \
        toAddresses, ccAddresses, bccAddresses, subject, bodyPlain, bodyHTML, snippet, dateReceived, \
        dateSent, isRead, isStarred, isDraft, spamFlagged, aiCategory, sendState, sizeBytes, hasAttachments
        """
}

extension Attachment {
    init(row: Row) {
        self.init(
            id: row["id"], emailId: row["emailId"], filename: row["filename"], mimeType: row["mimeType"],
            sizeBytes: row["sizeBytes"], contentId: row["contentId"], isInline: row["isInline"],
            partId: row["partId"]
        )
    }

    var databaseArguments: StatementArguments {
        [id, emailId, filename, mimeType, sizeBytes, contentId, isInline, partId]
    }

    static let columns = "id, emailId, filename, mimeType, sizeBytes, contentId, isInline, partId"
}

extension Participant {
    /// `encode(_:)`, without a JSON encoder for the usual empty list (cc, bcc): the same text.
    static func encodeStored(_ participants: [Participant]) -> String {
        participants.isEmpty ? "[]" : encode(participants)
    }
}

/// "?, ?, ?" for `count` placeholders.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
