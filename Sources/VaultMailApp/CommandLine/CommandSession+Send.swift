import Foundation
import VaultMailCore

extension CommandSession {
    public struct Outgoing: Sendable {
        public var account: String
        public var to: [String]
        public var cc: [String] = []
        public var subject: String?
        public var replyTo: String?
        public var attachments: [String] = []
        public var body: String

        public init(account: String, to: [String], body: String) {
            self.account = account
            self.to = to
            self.body = body
        }
    }

    /// `vaultmail send`: builds the message, sends it now; when the server cannot be reached
    /// it stays in the outbox and the daemon sends it later.
    public func send(_ outgoing: Outgoing) async throws -> String {
        let account = try await account(named: outgoing.account)
        do {
            for address in outgoing.to { _ = try EmailAddress.parse(address, field: "--to") }
            for address in outgoing.cc { _ = try EmailAddress.parse(address, field: "--cc") }
        } catch {
            throw CommandError("\(error)", usage: true)
        }
        var to = outgoing.to
        var subject = outgoing.subject ?? ""
        var inReplyTo: String?
        var references: String?
        var threadId: String?
        if let reply = outgoing.replyTo {
            let id = try await emailId(reply)
            guard let original = try await emails.getEmail(id: id) else { throw CommandError("email \(id) disappeared") }
            let headers = ReplyHeaders(answering: original)
            if to.isEmpty { to = [headers.to] }
            if outgoing.subject == nil { subject = headers.subject }
            inReplyTo = headers.inReplyTo
            references = headers.references
            threadId = headers.threadId
        }
        guard !to.isEmpty else { throw CommandError("give at least one --to address (or --reply-to an email)", usage: true) }
        var files: [DraftAttachment] = []
        for path in outgoing.attachments {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read the attachment \(path)", usage: true)
            }
            files.append(DraftAttachment(filename: (path as NSString).lastPathComponent, mimeType: Self.mimeType(of: path), data: data))
        }
        let compose = sending.compose
        let draftId = try await compose.saveDraft(
            draftId: nil, accountId: account.id, threadId: threadId, toAddresses: to, ccAddresses: outgoing.cc, bccAddresses: [],
            subject: subject, bodyPlain: outgoing.body, inReplyTo: inReplyTo, references: references, attachments: files)
        try await compose.queueForSending(emailId: draftId)
        do {
            try await compose.executeSend(emailId: draftId)
            return "Sent \"\(subject)\" to \(to.joined(separator: ", "))."
        } catch {
            throw CommandError("not sent yet: \(error); it waits in the outbox (`vaultmail outbox`) and the daemon retries it")
        }
    }

    public func retryOutgoing(_ prefix: String) async throws -> String {
        let id = try await emailId(prefix)
        switch try await sending.compose.retry(emailId: id) {
        case .sent: return "Sent."
        case .cancelled: return "Cancelled; it is a draft again."
        case .queued(let reason, _): throw CommandError("still not sent: \(reason); it stays queued and is retried")
        case .failed(let reason): throw CommandError("sending failed: \(reason)")
        }
    }

    public func cancelOutgoing(_ prefix: String) async throws -> String {
        let id = try await emailId(prefix)
        try await sending.compose.cancel(emailId: id)
        return "Cancelled: it is a draft again and was not sent."
    }

    static func mimeType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "txt": "text/plain"
        case "html", "htm": "text/html"
        case "pdf": "application/pdf"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "zip": "application/zip"
        case "json": "application/json"
        case "csv": "text/csv"
        case "ics": "text/calendar"
        default: "application/octet-stream"
        }
    }
}
