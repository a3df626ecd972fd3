/// Why writing or sending a message failed, with what to do about it.
public enum ComposeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An address that cannot be written into a message or an SMTP envelope.
    case invalidAddress(String, field: String, reason: String)
    /// A message with nobody in To, Cc or Bcc.
    case noRecipients(emailId: String)
    case draftNotFound(id: String)
    case accountNotFound(id: String)
    /// The message is not in a state the action applies to (e.g. queueing a sent message).
    case wrongState(emailId: String, state: SendState, action: String)
    /// `cancel` came after the message started going out.
    case tooLateToCancel(emailId: String, state: SendState)
    /// The message was not sent; it waits in the outbox (`queued`, retried later) or needs
    /// the user (`failed`), and `reason` says why.
    case notSent(emailId: String, state: SendState, reason: String)
    /// The email to answer or forward is no longer stored.
    case originalNotFound(id: String)
    /// The message (about `size` bytes on the wire) is larger than the server's SIZE `limit`.
    case tooLarge(size: Int, limit: Int)
    /// Send later (issue 33): `text` names no date and time.
    case unreadableSendTime(String)
    /// Send later (issue 33): the time (local text) has passed at `now` (local text).
    case sendTimePassed(time: String, now: String)
    /// Send later (issue 33): a scheduled message could not be cancelled on the IMAP server (its
    /// copy in Drafts keeps its send time, so a VaultMail elsewhere would still send it).
    case scheduleKeptOnServer(emailId: String, reason: String)
    /// Encryption was asked for (or the message answers encrypted mail), but the account has
    /// no OpenPGP key for these recipients (issue 32): it is never sent where one could not read it.
    case cannotEncrypt(missingKeys: [String])

    public var description: String {
        switch self {
        case .invalidAddress(let address, let field, let reason):
            "'\(address)' in \(field) cannot be used: \(reason); write it as name@example.com or Name <name@example.com>"
        case .noRecipients(let id):
            "message \(id) has no recipient; add one in To, Cc or Bcc"
        case .draftNotFound(let id):
            "no draft or outgoing message with id \(id); it was sent or deleted"
        case .accountNotFound(let id):
            "no account with id \(id); `vaultmail account list` shows them"
        case .wrongState(let id, let state, let action):
            "cannot \(action) message \(id): it is \(state.rawValue) (`vaultmail outbox` shows where each message stands)"
        case .tooLateToCancel(let id, let state):
            "too late to cancel message \(id): it is already \(state == .sent ? "sent" : "being sent")"
        case .notSent(let id, let state, let reason):
            state == .queued
                ? "message \(id) was not sent yet; it stays in the outbox and is retried automatically: \(reason)"
                : NotSentAdvice.fateUnknown(reason)
                ? "message \(id) may or may not have been sent; it is in the outbox as failed and is never sent again automatically: \(reason)"
                : "message \(id) was not sent; it is in the outbox as failed and is never retried automatically: fix the cause, then retry: \(reason)"
        case .originalNotFound(let id):
            "the email \(id) to answer or forward is no longer here (deleted or moved); sync and pick it again"
        case .tooLarge(let size, let limit):
            "with its attachments the message is about \(ByteSize.string(size)), and the server accepts at most "
                + "\(ByteSize.string(limit)). Remove an attachment or share it another way."
        case .unreadableSendTime(let text):
            "'\(text)' is not a time to send at; write 2026-12-01 09:00 (local time) or 2026-12-01T09:00:00+01:00"
        case .sendTimePassed(let time, let now):
            "\(time) has passed (it is \(now)); choose a later time, or send now"
        case .scheduleKeptOnServer(let id, let reason):
            "message \(id) is still scheduled: its copy in the server's Drafts keeps its send time, and VaultMail on another "
                + "device would still send it (\(reason)); try again when the mail server can be reached"
        case .cannotEncrypt(let missing):
            "cannot encrypt the message: no OpenPGP key for \(missing.joined(separator: ", ")); add their keys "
                + "(`vaultmail key import ACCOUNT FILE`, or a message from them with an Autocrypt header), remove them, or send without encryption (--no-encrypt)"
        }
    }
}
