import Foundation

/// The Autocrypt Setup Message (Autocrypt Level 1 §4.4, issue 32), once for every face: sending
/// the account's secret key to itself under a new setup code, so another app of the person's
/// can take the same key, and taking a key from a setup message another app sent.
///
/// - Sending: a new `SetupCode`; the key made unlocked, with `Autocrypt-Prefer-Encrypt: mutual`,
///   encrypted with the code (`OpenPGPEngine.setupPayload`); the message built as Level 1 says
///   and sent through the outbox like any other (SMTP, then a copy filed in Sent). The code is
///   returned to be shown once and is kept nowhere.
/// - Importing: the message is looked at (`Autocrypt-Setup-Message: v1`, From and To the
///   account's own address, the `application/autocrypt-setup` part); the code typed is checked
///   for form, then the engine opens the payload with it and makes the key inside the
///   account's key. A wrong code changes nothing.
public struct AutocryptSetup: Sendable {
    private let engine: any OpenPGPEngine
    private let accounts: any AccountRepository
    private let emails: any EmailRepository
    private let sources: any MessageSourceRepository
    private let reader: any AutocryptSetupReader
    private let compose: ComposeEmailService
    private let outbox: any OutboxRepository
    private let builder: any MessageBuilder
    private let clock: any WallClock

    public init(engine: any OpenPGPEngine, accounts: any AccountRepository, emails: any EmailRepository,
                sources: any MessageSourceRepository, reader: any AutocryptSetupReader, compose: ComposeEmailService,
                outbox: any OutboxRepository, builder: any MessageBuilder = RFC5322MessageBuilder(), clock: any WallClock = SystemWallClock()) {
        self.engine = engine
        self.accounts = accounts
        self.emails = emails
        self.sources = sources
        self.reader = reader
        self.compose = compose
        self.outbox = outbox
        self.builder = builder
        self.clock = clock
    }

    /// A setup message that was sent (or waits in the outbox for the server).
    public struct Sent: Sendable {
        /// The code that opens it: show it once, keep it nowhere.
        public var code: SetupCode
        /// The sent message's email id.
        public var emailId: String
        /// Why it waits in the outbox (the server could not be reached); nil when it went.
        /// The daemon sends it later, and the code stays the one to use.
        public var waiting: String?
    }

    /// Makes and sends a setup message for `account` (its key made on first need).
    public func sendSetupMessage(account: Account) async throws -> Sent {
        let code = SetupCode.generate()
        let payload = try await engine.setupPayload(
            for: account, keyHeaders: ["Autocrypt-Prefer-Encrypt: mutual"], setupCode: code.secret,
            armorHeaders: ["Passphrase-Format: numeric9x4", "Passphrase-Begin: \(code.begin)"])
        let attachment = DraftAttachment(filename: AutocryptSetupMessage.filename, mimeType: AutocryptSetupMessage.mimeType,
                                         data: Data(payload.utf8))
        var content = DraftContent(accountId: account.id)
        content.to = [account.email]
        content.subject = AutocryptSetupMessage.subject
        content.body = AutocryptSetupMessage.explanation
        let emailId = try await compose.saveForSending(content, attachments: [attachment])
        guard let entry = try await outbox.entry(emailId: emailId) else { throw ComposeError.draftNotFound(id: emailId) }
        let me = Participant(name: account.displayName, email: account.email)
        let message = OutgoingMessage(messageId: entry.email.messageId, date: clock.now, timeZone: clock.timeZone, from: me, to: [me],
                                      subject: AutocryptSetupMessage.subject, textBody: AutocryptSetupMessage.explanation,
                                      attachments: [attachment])
        // Level 1's header first; the builder writes the rest (multipart/mixed, the text, then the attachment).
        let raw = Array("\(AutocryptSetupMessage.headerName): \(AutocryptSetupMessage.headerValue)\r\n".utf8) + (try builder.build(message))
        try await outbox.queue(emailId: emailId, rawMessage: raw, notBefore: clock.now, now: clock.now)
        do {
            try await compose.executeSend(emailId: emailId)
        } catch ComposeError.notSent(_, .queued, let reason) {
            return Sent(code: code, emailId: emailId, waiting: reason)
        }
        return Sent(code: code, emailId: emailId, waiting: nil)
    }

    /// The setup message `email` is, when it is one the account sent itself; nil otherwise.
    public func setupMessage(_ email: Email) async -> AutocryptSetupMessage? {
        guard email.hasAttachments, let raw = (try? await sources.rawSource(emailId: email.id)) ?? nil,
              let message = reader.autocryptSetupMessage(in: raw),
              let account = try? await accounts.getAccount(id: email.accountId), message.isSelfAddressed(account.email) else { return nil }
        return message
    }

    /// Makes the key in setup message `emailId` the account's key, opened with `typedCode`.
    /// Throws `AutocryptSetupError` when the email is no setup message of this account,
    /// `SetupCodeError` for a code of the wrong form, `OpenPGPError.setupCodeRejected` for a
    /// wrong code; nothing changes then.
    public func importSetupMessage(emailId: String, typedCode: String) async throws -> (account: Account, key: OpenPGPKeyInfo) {
        guard let email = try await emails.getEmail(id: emailId) else { throw AutocryptSetupError.notFound(emailId) }
        guard let account = try await accounts.getAccount(id: email.accountId) else { throw ComposeError.accountNotFound(id: email.accountId) }
        guard let raw = try await sources.rawSource(emailId: emailId), let message = reader.autocryptSetupMessage(in: raw) else {
            throw AutocryptSetupError.notASetupMessage
        }
        guard message.isSelfAddressed(account.email) else { throw AutocryptSetupError.notSelfAddressed(account: account.email) }
        let code = try SetupCode.typed(typedCode, format: message.passphraseFormat)
        let key = try await engine.importSetupPayload(Array(message.payload.utf8), setupCode: code.secret, account: account)
        return (account, key)
    }
}

/// Why a message cannot be imported as an Autocrypt Setup Message.
public enum AutocryptSetupError: Error, Sendable, Equatable, CustomStringConvertible, PlainWordsError {
    case notFound(String)
    case notASetupMessage
    case notSelfAddressed(account: String)

    public var description: String {
        switch self {
        case .notFound(let id): "no email \(id); give the id `vaultmail list` or `search` shows"
        case .notASetupMessage:
            "this email is not an Autocrypt Setup Message (it needs the header Autocrypt-Setup-Message: v1 and an application/autocrypt-setup attachment)"
        case .notSelfAddressed(let account):
            "this setup message was not sent by \(account) to itself, so it is not taken (Autocrypt Level 1 asks both From and To to be the account's address)"
        }
    }

    public var plainWords: String {
        switch self {
        case .notFound: "That email isn't here."
        case .notASetupMessage: "This email isn't an Autocrypt Setup Message."
        case .notSelfAddressed: "This setup message wasn't sent by this account to itself, so it can't be imported."
        }
    }
}
