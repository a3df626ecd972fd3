import Foundation

/// The application service for writing mail (ARCHITECTURE.md, "The application layer"): what
/// an answer or a forward starts as, where the text the person wrote goes, and whether a
/// message fits the outgoing server's size limit. The `vaultmail` tool and the web composer
/// both ask it, so a reply is the same whichever door it leaves by (issue 28).
///
/// - `answer`: reply, reply all or forward of a stored email — recipients (never the user's
///   own addresses), "Re:"/"Fwd:" subject, In-Reply-To and References, the account's
///   signature, the attribution line and the quoted original (`ComposeTemplate`), with the
///   text already written above them (`placing(_:above:)`).
/// - `forwardedAttachments`: a forward carries the files of every message of the conversation
///   up to the one forwarded (each file once), leaving out, by name and with the reason, what
///   would take the message past the server's size limit.
/// - `checkSize`: refuses a message larger than the server announces (SMTP SIZE) with
///   `ComposeError.tooLarge`, saying both sizes and what to do.
///
/// Drafts, the outbox and sending itself are `ComposeEmailService`'s.
public struct Compose: Sendable {
    private let emails: any EmailRepository
    private let accounts: any AccountRepository
    private let clock: any WallClock
    private let signature: @Sendable (_ accountId: String) async -> String?
    private let sizeLimit: @Sendable (_ accountId: String) async -> Int?

    /// - Parameters:
    ///   - signature: the account's signature, if it has one.
    ///   - sizeLimit: the largest message the account's outgoing server accepts; nil when it
    ///     names none or cannot be asked now (the message is not refused then).
    public init(
        emails: any EmailRepository, accounts: any AccountRepository, clock: any WallClock,
        signature: @escaping @Sendable (_ accountId: String) async -> String?,
        sizeLimit: @escaping @Sendable (_ accountId: String) async -> Int?
    ) {
        self.emails = emails
        self.accounts = accounts
        self.clock = clock
        self.signature = signature
        self.sizeLimit = sizeLimit
    }

    /// Signatures from `settings`, the size limit as `sending` asks it of the server (once per account).
    public init(
        emails: any EmailRepository, accounts: any AccountRepository, settings: SettingsStore, sending: ComposeEmailService,
        clock: any WallClock
    ) {
        self.init(
            emails: emails, accounts: accounts, clock: clock,
            signature: { id in await MainActor.run { settings.signatures[id] } },
            sizeLimit: { id in await sending.sizeLimit(accountId: id) })
    }

    // MARK: Answers and forwards

    /// The message that answers or forwards the email `emailId` (`kind` is `.reply`,
    /// `.replyAll` or `.forward`), written from `accountId` (the original's account when nil),
    /// with `typed` above the signature, the attribution and the quote.
    /// Throws `ComposeError.originalNotFound` when the email is gone, `.accountNotFound`.
    public func answer(_ kind: ComposeKind, emailId: String, from accountId: String? = nil, typed: String = "") async throws -> DraftContent {
        guard let original = try await emails.getEmail(id: emailId) else { throw ComposeError.originalNotFound(id: emailId) }
        let all = try await accounts.getAccounts()
        let id = accountId ?? original.accountId
        guard let account = all.first(where: { $0.id == id }) else { throw ComposeError.accountNotFound(id: id) }
        var content = ComposeTemplate.make(
            kind, answering: original, account: account, ownAddresses: Set(all.map(\.email)),
            signature: await signature(account.id), timeZone: clock.timeZone)
        content.body = Self.placing(typed, above: content.body)
        return content
    }

    /// The text the person wrote above a template's body (signature, attribution and quote, or
    /// the forwarded message), one empty line between them; either alone when the other is empty.
    public static func placing(_ typed: String, above template: String) -> String {
        guard !template.isEmpty else { return typed }
        var top = typed
        while let last = top.last, last.isWhitespace { top.removeLast() }
        guard !top.isEmpty else { return template }
        return top + "\n\n" + template.drop { $0 == "\n" }
    }

    // MARK: Forwarded files

    /// The attachments a forward of `emailId` carries: those of every message of its
    /// conversation up to it, oldest first — not only the forwarded message's — without
    /// inline images, drafts' files or a file sent again (same name, type and size, as a reply
    /// re-attaching it). When the account's server names a size limit, the newest files are
    /// kept first and any file that would take the message past it is left out, with the reason.
    public func forwardedAttachments(emailId: String) async throws -> ForwardedAttachments {
        guard let original = try await emails.getEmail(id: emailId) else { throw ComposeError.originalNotFound(id: emailId) }
        // In reading order (`Conversations.ordered`), up to and with the one forwarded.
        let ordered = Conversations.ordered(try await emails.getEmails(threadId: original.threadId)
            .filter { $0.id == original.id || (!$0.isDraft && ($0.sendState == .none || $0.sendState == .sent)) })
        let conversation = ordered.firstIndex { $0.id == original.id }.map { Array(ordered[...$0]) } ?? [original]
        var files: [Attachment] = []
        var seen = Set<String>()
        for email in conversation {
            for attachment in try await emails.getAttachments(emailId: email.id) where !attachment.isInline {
                if seen.insert("\(attachment.filename.lowercased())\u{1F}\(attachment.mimeType.lowercased())\u{1F}\(attachment.sizeBytes)").inserted {
                    files.append(attachment)
                }
            }
        }
        guard let limit = await sizeLimit(original.accountId) else { return ForwardedAttachments(carried: files) }
        // Room for the headers and the text (the estimate's own allowance and 64 KiB of text).
        var room = limit - Self.estimatedSize(text: String(repeating: " ", count: 65_536), html: nil, attachments: [])
        var kept = Set<String>()
        var leftOut: [ForwardedAttachments.LeftOut] = []
        for file in files.reversed() {
            let size = Self.encodedSize(file.sizeBytes)
            if size <= room {
                room -= size
                kept.insert(file.id)
            } else {
                leftOut.insert(.init(attachment: file, reason: "with it the message would be larger than the \(ByteSize.string(limit)) the outgoing server accepts; attach it to a message of its own"), at: 0)
            }
        }
        return ForwardedAttachments(carried: files.filter { kept.contains($0.id) }, leftOut: leftOut)
    }

    // MARK: Size limit

    /// Throws `ComposeError.tooLarge` when a message of this text, HTML alternative and
    /// attachments would be larger than the account's server accepts.
    public func checkSize(accountId: String, text: String, html: String?, attachments: [DraftAttachment]) async throws {
        let estimate = Self.estimatedSize(text: text, html: html, attachments: attachments)
        if let limit = await sizeLimit(accountId), estimate > limit {
            throw ComposeError.tooLarge(size: estimate, limit: limit)
        }
    }

    /// About the size of the message on the wire: headers, the text with a little for its
    /// encoding, attachments grown by a third in base64 plus line ends.
    public static func estimatedSize(text: String, html: String?, attachments: [DraftAttachment]) -> Int {
        let written = text.utf8.count + (html?.utf8.count ?? 0)
        return 2_048 + written * 105 / 100 + attachments.reduce(0) { $0 + encodedSize($1.data.count) }
    }

    /// A file of `bytes` in base64 with its line ends.
    static func encodedSize(_ bytes: Int) -> Int { (bytes + 2) / 3 * 4 * 78 / 76 }
}
