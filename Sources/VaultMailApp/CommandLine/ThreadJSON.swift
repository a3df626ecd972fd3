import Foundation
import VaultMailCore

/// The stable JSON of `vaultmail threads --json` and `vaultmail show --json` (see docs/cli.md).
public enum ThreadJSON {
    public struct Person: Codable, Sendable, Equatable {
        public var name: String?
        public var email: String

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(name, forKey: .name)
            try keys.encode(email, forKey: .email)
        }
    }

    public struct Thread: Codable, Sendable {
        public var id: String
        public var accountId: String
        public var subject: String
        public var participants: [Person]
        public var snippet: String?
        public var latestDate: String
        public var messageCount: Int
        public var unreadCount: Int
        public var isStarred: Bool
        public var hasAttachments: Bool
        public var category: String?
        /// Muted for notifications (NOTIF-11).
        public var isMuted: Bool
        public var emails: [Message]?

        /// Every key of the contract, `null` when there is no value; `emails` only in `show`.
        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(id, forKey: .id)
            try keys.encode(accountId, forKey: .accountId)
            try keys.encode(subject, forKey: .subject)
            try keys.encode(participants, forKey: .participants)
            try keys.encode(snippet, forKey: .snippet)
            try keys.encode(latestDate, forKey: .latestDate)
            try keys.encode(messageCount, forKey: .messageCount)
            try keys.encode(unreadCount, forKey: .unreadCount)
            try keys.encode(isStarred, forKey: .isStarred)
            try keys.encode(hasAttachments, forKey: .hasAttachments)
            try keys.encode(category, forKey: .category)
            try keys.encode(isMuted, forKey: .isMuted)
            try keys.encodeIfPresent(emails, forKey: .emails)
        }
    }

    public struct Page: Codable, Sendable {
        public var threads: [Thread]
        public var nextCursor: String?
        public var hasMore: Bool

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(threads, forKey: .threads)
            try keys.encode(nextCursor, forKey: .nextCursor)
            try keys.encode(hasMore, forKey: .hasMore)
        }
    }

    public struct AttachmentInfo: Codable, Sendable {
        public var filename: String
        public var mimeType: String
        public var size: Int
    }

    /// A message's OpenPGP state (issue 32): every key present, `null` when it has no value.
    public struct Crypto: Codable, Sendable, Equatable {
        /// `not-encrypted`, `decrypted`, `no-key`, `integrity-failure`, `key-unavailable`.
        public var encryption: String
        /// `not-signed`, `good`, `bad`, `unknown-key`.
        public var signature: String
        /// The key that made a good signature.
        public var signer: OpenPGPKeyInfo?
        /// The key id or fingerprint a bad or unknown-key signature names.
        public var signatureKeyId: String?
        /// The state in a person's words, as the web app's badge says it.
        public var summary: String

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(encryption, forKey: .encryption)
            try keys.encode(signature, forKey: .signature)
            try keys.encode(signer, forKey: .signer)
            try keys.encode(signatureKeyId, forKey: .signatureKeyId)
            try keys.encode(summary, forKey: .summary)
        }

        static func of(_ state: MessageCrypto) -> Crypto {
            var signer: OpenPGPKeyInfo?
            var keyId: String?
            switch state.signature {
            case .good(let key): signer = key
            case .bad(let id): keyId = id
            case .unknownKey(let id): keyId = id
            case .notSigned: break
            }
            return Crypto(encryption: state.encryption.name, signature: state.signature.name, signer: signer,
                          signatureKeyId: keyId, summary: state.summary)
        }
    }

    public struct Message: Codable, Sendable {
        public var id: String
        public var messageId: String
        public var from: Person
        public var to: [Person]
        public var cc: [Person]
        public var subject: String
        public var date: String
        public var isRead: Bool
        public var isStarred: Bool
        public var inReplyTo: String?
        public var references: [String]
        public var bodyPlain: String?
        public var attachments: [AttachmentInfo]
        /// The email's category, who decided it and why (issue 15); null before it is categorized.
        public var category: String?
        public var categorySource: String?
        public var categoryReason: String?
        /// OpenPGP: encrypted or signed, and what became of it (issue 32).
        public var crypto: Crypto

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: CodingKeys.self)
            try keys.encode(id, forKey: .id)
            try keys.encode(messageId, forKey: .messageId)
            try keys.encode(from, forKey: .from)
            try keys.encode(to, forKey: .to)
            try keys.encode(cc, forKey: .cc)
            try keys.encode(subject, forKey: .subject)
            try keys.encode(date, forKey: .date)
            try keys.encode(isRead, forKey: .isRead)
            try keys.encode(isStarred, forKey: .isStarred)
            try keys.encode(inReplyTo, forKey: .inReplyTo)
            try keys.encode(references, forKey: .references)
            try keys.encode(bodyPlain, forKey: .bodyPlain)
            try keys.encode(attachments, forKey: .attachments)
            try keys.encode(category, forKey: .category)
            try keys.encode(categorySource, forKey: .categorySource)
            try keys.encode(categoryReason, forKey: .categoryReason)
            try keys.encode(crypto, forKey: .crypto)
        }
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func person(_ participant: Participant) -> Person { Person(name: participant.name, email: participant.email) }

    /// `muted`: whether the conversation is muted for notifications.
    public static func thread(_ thread: EmailThread, muted: Bool, emails: [Message]? = nil) -> Thread {
        Thread(id: thread.id, accountId: thread.accountId, subject: thread.subject,
               participants: thread.participantList.map(person), snippet: thread.snippet,
               latestDate: iso(thread.latestDate), messageCount: thread.messageCount, unreadCount: thread.unreadCount,
               isStarred: thread.isStarred, hasAttachments: thread.hasAttachments, category: thread.aiCategory,
               isMuted: muted, emails: emails)
    }

    /// `muted`: the ids of the conversations muted for notifications.
    public static func page(_ page: ThreadPage, muted: Set<String>) -> Page {
        Page(threads: page.threads.map { thread($0, muted: muted.contains($0.id)) }, nextCursor: page.nextCursor?.encoded, hasMore: page.hasMore)
    }

    /// `crypto`: the message's OpenPGP state as it was opened, nil for plain mail; its
    /// structural parts (ciphertext, signature) are not listed among the attachments.
    public static func message(_ email: Email, attachments: [Attachment], category: CategoryDecision? = nil,
                               crypto: OpenedCrypto? = nil) -> Message {
        let attachments = crypto?.listed(attachments) ?? attachments
        return Message(id: email.id, messageId: email.messageId, from: person(email.from), to: email.toAddresses.map(person),
                cc: email.ccAddresses.map(person), subject: email.subject, date: iso(email.dateSent ?? email.dateReceived),
                isRead: email.isRead, isStarred: email.isStarred, inReplyTo: email.inReplyTo,
                references: (email.references ?? "").split(separator: " ").map(String.init), bodyPlain: email.bodyPlain,
                attachments: attachments.map { AttachmentInfo(filename: $0.filename, mimeType: $0.mimeType, size: $0.sizeBytes) },
                category: category?.category.rawValue ?? email.aiCategory, categorySource: category?.source.rawValue,
                categoryReason: category?.reason,
                crypto: Crypto.of(crypto?.state ?? MessageCrypto(encryption: .notEncrypted, signature: .notSigned)))
    }

    /// Encodes with sorted keys, so output is stable.
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
