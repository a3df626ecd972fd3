import Foundation
import VaultMailCore

/// Builders for accounts, folders and emails in tests and benchmarks.
public enum MailFixtures {
    public static let referenceDate = Date(timeIntervalSince1970: 1_768_478_400) // 2026-01-15 12:00 UTC

    public static func account(name: String = "work", email: String? = nil, id: String? = nil) -> Account {
        Account(
            id: id ?? "acct-\(name)", name: name, email: email ?? "\(name)@example.com",
            imapHost: "127.0.0.1", imapPort: 1143, smtpHost: "127.0.0.1", smtpPort: 1025, security: .plain,
            createdAt: referenceDate)
    }

    /// One folder of each system type, paths as a typical IMAP server names them.
    public static func standardFolders(accountId: String) -> [Folder] {
        let layout: [(String, FolderType)] = [
            ("INBOX", .inbox), ("Sent", .sent), ("Drafts", .drafts), ("Trash", .trash),
            ("Junk", .spam), ("Archive", .archive), ("Starred", .starred),
        ]
        return layout.map { path, type in
            Folder(accountId: accountId, name: path == "INBOX" ? "Inbox" : path, path: path, folderType: type)
        }
    }

    public static func email(
        accountId: String,
        number: Int,
        threadId: String? = nil,
        from: String = "sender@example.com",
        fromName: String? = "Sender",
        subject: String? = nil,
        date: Date? = nil,
        isRead: Bool = false,
        isStarred: Bool = false,
        category: AICategory? = nil,
        sendState: SendState = .none,
        snippet: String? = nil
    ) -> Email {
        let messageId = "<msg-\(number)@example.com>"
        return Email(
            accountId: accountId,
            threadId: threadId ?? "thread-\(accountId)-\(number)",
            messageId: messageId,
            fromAddress: from,
            fromName: fromName,
            toAddresses: [Participant(name: "Me", email: "me@example.com")],
            subject: subject ?? "Message \(number)",
            bodyPlain: "Body of message \(number)",
            snippet: snippet ?? "Preview of message \(number)",
            dateReceived: date ?? referenceDate.addingTimeInterval(Double(number) * 60),
            isRead: isRead,
            isStarred: isStarred,
            aiCategory: category?.rawValue,
            sendState: sendState,
            sizeBytes: 2048)
    }

    /// The email linked to these folders.
    public static func incoming(_ email: Email, in folders: [Folder], uid: UInt32? = nil) -> IncomingEmail {
        IncomingEmail(email: email, links: folders.map { EmailFolder(emailId: email.id, folderId: $0.id, uid: uid) })
    }

    /// `vaultmail notify quiet-hours` argument from an hour before `now` to an hour after it,
    /// in `calendar`'s time zone (the daemon's local time).
    public static func quietHoursAroundNow(_ now: Date = Date(), calendar: Calendar = .current) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let minutes = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let clock = { (minutes: Int) in
            let wrapped = (minutes % 1440 + 1440) % 1440
            return String(format: "%02d:%02d", wrapped / 60, wrapped % 60)
        }
        return "\(clock(minutes - 60))-\(clock(minutes + 60))"
    }
}

extension Array where Element == Folder {
    /// The first folder of the type; traps in a test that set up no such folder.
    public func of(_ type: FolderType) -> Folder {
        first { $0.folderType == type }!
    }
}
