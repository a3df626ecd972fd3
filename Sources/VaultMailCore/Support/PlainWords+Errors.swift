import Foundation

// Core's errors in a person's words (issue 29): what happened and what to do, with no internal
// id, no command of the tool, no host:port and no error number; each `description` keeps the
// technical detail (and the tool's words), shown behind the words.

extension AIError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .modelNotInstalled(_, let feature):
            "No model for \(feature) is installed on this computer. Download one in Settings → On-device AI."
        case .modelNotLoaded: "The AI model isn't ready yet. Try again in a moment."
        case .modelUnreadable:
            "The AI model's files can't be read. Remove the model and download it again in Settings → On-device AI."
        case .unknownModel: "There is no such AI model. Settings → On-device AI lists the ones there are."
        case .downloadFailed: "The download didn't finish. Check your connection and press Download again: it resumes where it stopped."
        case .checksumMismatch: "The downloaded file isn't the one published, so it wasn't installed. Download it again."
        case .cancelled: "The download was cancelled. Press Download to resume it where it stopped."
        case .promptTooLong: "This is too long for the writing model. Try it on a shorter conversation."
        case .generationFailed:
            "The writing model failed. Try again; if it keeps failing, remove the model and download it again in Settings → On-device AI."
        case .noProcessorCode: "The writing model can't run on this computer's processor."
        case .modelDamaged:
            "The AI model is damaged, so it wasn't used. Download it again in Settings → On-device AI."
        }
    }
}

extension WritingError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .threadNotFound: PlainWords.threadGone
        case .emptyConversation: "This conversation has no messages on this computer yet. Wait for the next sync and try again."
        }
    }
}

extension ComposeError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .invalidAddress(let address, let field, let reason):
            "“\(address)” in \(field) can't be used: \(reason). Write it as name@example.com or Name <name@example.com>."
        case .noRecipients: "Add at least one recipient in To, Cc or Bcc."
        case .draftNotFound: "That draft is no longer here: it was sent or discarded."
        case .accountNotFound: "The account this message is from no longer exists. Choose another in From."
        case .wrongState(_, let state, _):
            "This message can't be changed now: \(Self.words(state)). The Outbox shows where it stands."
        case .tooLateToCancel(_, let state):
            "Too late to take it back: it is \(state == .sent ? "already sent" : "being sent")."
        case .notSent(_, let state, let reason): NotSentAdvice.words(state, reason: reason)
        case .originalNotFound:
            "The message to answer or forward is no longer here (deleted or moved). Open the conversation again."
        case .tooLarge(let size, let limit):
            "With its attachments the message is about \(ByteSize.string(size)), and the server accepts at most "
                + "\(ByteSize.string(limit)). Remove an attachment or share it another way."
        case .unreadableSendTime(let text):
            "“\(text)” is not a time. Write it as 2026-12-01 09:00."
        case .sendTimePassed(let time, let now):
            "\(time) has passed (it is \(now)). Choose a later time, or send now."
        case .scheduleKeptOnServer:
            "It is still scheduled: the mail server couldn't be reached to take its time off, so it could still be sent from another device. Try again when the server can be reached."
        case .cannotEncrypt(let missing):
            "Can't encrypt it: there is no key for \(missing.joined(separator: ", ")). Add their key, remove them, or turn encryption off to send it readable by anyone on the way."
        }
    }

    private static func words(_ state: SendState) -> String {
        switch state {
        case .none: "it is a received message"
        case .draft: "it is a draft"
        case .queued: "it waits in the Outbox"
        case .sending: "it is being sent"
        case .failed: "it is in the Outbox, not sent"
        case .sent: "it is already sent"
        }
    }
}

extension MailTransportError: PlainWordsError {
    /// The server's error in words when the transport gave them, else the kind's.
    public var plainWords: String {
        if let words { return words }
        return switch kind {
        case .unreachable: "Server unreachable: the outgoing mail server can't be reached. Check your connection; VaultMail will retry."
        case .temporary: "The outgoing mail server can't take the message right now. VaultMail will try again."
        case .authentication: "The outgoing mail server refused the sign-in. Check the password in the account's settings."
        case .rejected: "The outgoing mail server refused the message."
        case .insecure: "Can't make a secure connection to the outgoing mail server. Check the account's security setting and port."
        case .invalid: "The message can't be sent as it is. Check the recipients and try again."
        }
    }
}

extension SearchQueryError: PlainWordsError {
    /// "This search cannot be read: OR needs a term on each side, as in: from:alice OR from:bob."
    /// (what was wrong and what to type instead; the faces mark the part that could not be read).
    public var plainWords: String {
        "This search cannot be read: \(reason)\(reason.hasSuffix(".") ? "" : ".")"
    }
}

extension SearchError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .invalidQuery(let error): error.plainWords
        case .failed(let underlying as AIError): underlying.plainWords
        case .failed: "The search couldn't be run on the mail on this computer. Try again."
        }
    }
}

extension AccountError: PlainWordsError {
    /// The description, but for a missing keyring, whose reason is detail.
    public var plainWords: String {
        switch self {
        case .keyringUnavailable:
            "VaultMail can't keep the password: no keyring (GNOME Keyring, KeePassXC) answered. Start one and try again, or give a password command instead."
        case .invalidName, .nameTaken, .notFound, .invalidSyncWindow, .emptyPassword, .unreadableCAFile: description
        }
    }
}

extension OAuthError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .timedOut(let provider, let after):
            "The sign-in with \(provider) wasn't finished within \(Self.words(after)). Try again and complete the page in your browser."
        case .stateMismatch: "The browser came back from a sign-in VaultMail didn't start, so nothing was changed. Try again."
        case .denied: "The sign-in was refused. Try again, and allow VaultMail on your provider's page."
        case .missingCode: "Your provider sent the browser back without finishing the sign-in. Try again."
        // A provider that is down is not a refusal (issue 34).
        case .tokenRefused where isOutage: Self.outageWords(endpointHost)
        case .malformedResponse where isOutage: Self.outageWords(endpointHost)
        case .tokenRefused: "Your provider refused the sign-in. Try again; if it keeps happening, check the OAuth client ID."
        case .malformedResponse: "Your provider answered in a way VaultMail didn't understand. Try again."
        case .unreachable(let endpoint, _):
            PlainWords.unreachable(URL(string: endpoint)?.host ?? "your provider's sign-in server", retrying: false)
        case .signInAgain(let account, _):
            "Sign in again to \(account): your provider no longer accepts VaultMail's sign-in. Press Sign in again on the account's page in Settings; your mail stays here."
        case .noClientID(let provider):
            "VaultMail has no OAuth client ID for \(provider). Give your own client ID (docs/oauth.md says how to register one)."
        case .noGrant(let account): "\(account) has no sign-in in the keyring. Press Sign in again on the account's page in Settings."
        }
    }
}

extension OAuthError {
    static func outageWords(_ host: String?) -> String {
        "\(host ?? "Your provider's sign-in server") isn't working right now. Try again in a while; your mail stays here."
    }
}

extension SettingsError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .invalidQuietHours: "Quiet hours need times of day between 00:00 and 23:59."
        case .notSaved: "The setting couldn't be saved. Check the disk space and try again."
        }
    }
}

extension NotificationSettingsError: PlainWordsError {
    /// Its description: written for both doors (the tool and the web app say the same), with no
    /// id (issue 29).
    public var plainWords: String { description }
}

extension AttachmentError: PlainWordsError {
    public var plainWords: String {
        switch self {
        case .notFound: "That attachment is no longer here: the message may have been deleted. Reload the conversation."
        case .sourceMissing: "This message's source isn't on this computer, so its attachments can't be read. Sync the account again."
        case .partMissing(let filename):
            "“\(filename)” couldn't be read out of the stored message (it may be damaged). Open the message in another mail app."
        case .storeFailed: "The mail store on this computer couldn't be read. Try again."
        }
    }
}
