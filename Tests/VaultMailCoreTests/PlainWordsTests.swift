import Foundation
import Testing
import VaultMailCore

/// Issue 29: every error the faces show says what happened and what to do in a person's words,
/// with no internal id, Swift type name, host:port or error number; the technical detail is
/// apart (`PlainProblem.detail`) and never carries a secret.
@Suite("Errors in people's words (issue 29)")
struct PlainWordsTests {
    /// What no sentence may show: ids, a port, type names, the tool's commands.
    static func expectPlain(_ words: String, without internals: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        for part in internals + ["Error(", "Error.", ":993", ":465", "`vaultmail", "errno"] {
            #expect(!words.contains(part), "“\(words)” shows \(part)", sourceLocation: sourceLocation)
        }
    }

    @Test("Issue 29: AI failures (a model download, a damaged or unreadable model, the writing model) in words; the model's id and path are detail")
    func aiErrors() {
        let download = AIError.downloadFailed(modelId: "smollm2-135m-instruct", reason: "HTTP 503 from huggingface.co:443")
        let said = PlainProblem(download)
        #expect(said.words == "The download didn't finish. Check your connection and press Download again: it resumes where it stopped.")
        #expect(said.detail?.contains("HTTP 503 from huggingface.co:443") == true)
        Self.expectPlain(said.words, without: ["smollm2", "503"])

        let unreadable = PlainProblem(AIError.modelUnreadable(path: "/home/ada/.local/share/vaultmail/models/x.gguf", reason: "truncated"))
        #expect(unreadable.words == "The AI model's files can't be read. Remove the model and download it again in Settings → On-device AI.")
        #expect(unreadable.detail?.contains("/home/ada/.local/share/vaultmail/models/x.gguf: truncated") == true)

        let damaged = PlainProblem(AIError.modelDamaged(modelId: "all-minilm-l6-v2", reason: "model.onnx is 12 bytes, expected 90 MB"))
        #expect(damaged.words == "The AI model is damaged, so it wasn't used. Download it again in Settings → On-device AI.")
        #expect(damaged.detail?.contains("model.onnx is 12 bytes") == true)
        Self.expectPlain(damaged.words, without: ["all-minilm"])

        let failed = PlainProblem(AIError.generationFailed(reason: "llama_decode returned -1"))
        #expect(failed.words.hasPrefix("The writing model failed. Try again;"))
        #expect(failed.detail?.contains("llama_decode returned -1") == true)
        #expect(PlainWords.of(AIError.modelNotInstalled(modelId: "smollm2-135m-instruct", feature: "smart replies"))
            == "No model for smart replies is installed on this computer. Download one in Settings → On-device AI.")
    }

    @Test("Issue 29: summaries and suggested replies of a conversation that is gone name no id")
    func writingErrors() {
        let gone = PlainProblem(WritingError.threadNotFound("7f3a9c0e-thread"))
        #expect(gone.words == "That conversation is no longer here: it may have been deleted or moved elsewhere.")
        #expect(gone.detail?.contains("7f3a9c0e-thread") == true, "the id is detail")
        Self.expectPlain(gone.words, without: ["7f3a9c0e"])
        #expect(PlainWords.of(WritingError.emptyConversation("t1"))
            == "This conversation has no messages on this computer yet. Wait for the next sync and try again.")
    }

    @Test("Issue 29: writing: 'Not sent' reasons, a message too large, a bad address, a draft gone; no message id")
    func composeErrors() {
        let large = ComposeError.tooLarge(size: 31_000_000, limit: 25_000_000)
        #expect(PlainWords.of(large) == "With its attachments the message is about \(ByteSize.string(31_000_000)), and the server accepts at most "
            + "\(ByteSize.string(25_000_000)). Remove an attachment or share it another way.")
        #expect(PlainProblem(large).detail == nil, "nothing technical behind it: no disclosure repeating the words")

        let address = PlainProblem(ComposeError.invalidAddress("ada@@example", field: "To", reason: "it has two @"))
        #expect(address.words == "“ada@@example” in To can't be used: it has two @. Write it as name@example.com or Name <name@example.com>.")

        let gone = PlainProblem(ComposeError.draftNotFound(id: "0123456789abcdef"))
        #expect(gone.words == "That draft is no longer here: it was sent or discarded.")
        Self.expectPlain(gone.words, without: ["0123456789"])
        #expect(PlainWords.of(ComposeError.tooLateToCancel(emailId: "e1", state: .sent)) == "Too late to take it back: it is already sent.")
        #expect(PlainWords.of(ComposeError.wrongState(emailId: "e1", state: .sending, action: "edit"))
            == "This message can't be changed now: it is being sent. The Outbox shows where it stands.")

        // A send refused: the reason kept as words and detail (the outbox stores `lines`).
        let refusal = MailTransportError(kind: .rejected, message: "cannot send to nobody@example.org through smtp.example.org:465: 550 5.1.1 no such user",
                                         words: "smtp.example.org refused: “550 5.1.1 no such user”")
        let reason = PlainWords.lines(refusal)
        #expect(reason == "smtp.example.org refused: “550 5.1.1 no such user”\n  Details: \(refusal.message)")
        let notSent = PlainProblem(ComposeError.notSent(emailId: "e1", state: .failed, reason: reason))
        #expect(notSent.words == "Not sent: smtp.example.org refused: “550 5.1.1 no such user” VaultMail won't try again by itself: it stays in the Outbox, "
            + "not sent. Change it (Cancel makes it a draft again), or press Send now once that is fixed.")
        #expect(notSent.detail?.contains("smtp.example.org:465") == true)
        Self.expectPlain(notSent.words, without: [":465", "e1 "])
        let queued = PlainProblem(ComposeError.notSent(emailId: "e1", state: .queued,
                                                      reason: "sending was interrupted before anything was transmitted (the app stopped)"))
        #expect(queued.words == "Not sent yet: sending was interrupted before anything was transmitted (the app stopped). "
            + "It waits in the Outbox, and VaultMail's daemon sends it by itself as soon as the server takes it.")
    }

    @Test("Issue 29: a transport failure without the server's words is said by its kind; an unreachable server is 'Server unreachable'")
    func transportKinds() {
        let down = PlainProblem(MailTransportError(kind: .unreachable, message: "cannot connect to 127.0.0.1:2525: Connection refused (errno 111)"))
        #expect(down.words == "Server unreachable: the outgoing mail server can't be reached. Check your connection; VaultMail will retry.")
        #expect(down.detail == "cannot connect to 127.0.0.1:2525: Connection refused (errno 111)")
        Self.expectPlain(down.words, without: ["2525", "111", "refused"])
        #expect(PlainWords.of(MailTransportError(kind: .authentication, message: "535 5.7.8"))
            == "The outgoing mail server refused the sign-in. Check the password in the account's settings.")
        #expect(PlainWords.unreachable("imap.example.org", retrying: false)
            == "Server unreachable: can't reach imap.example.org. Check the server's name and port, and your connection.")
    }

    @Test("Issue 29: a search that cannot be read says what was wrong and what to type; a store failure says to try again")
    func searchErrors() {
        let query = SearchQueryError(query: "from:alice OR", position: 11, length: 2, reason: "OR needs a term on each side, as in: from:alice OR from:bob")
        #expect(PlainWords.of(SearchError.invalidQuery(query))
            == "This search cannot be read: OR needs a term on each side, as in: from:alice OR from:bob.")
        let failed = PlainProblem(SearchError.failed(underlying: RepositoryError.storage("SQLITE_BUSY (5): database is locked")))
        #expect(failed.words == "The search couldn't be run on the mail on this computer. Try again.")
        #expect(failed.detail?.contains("SQLITE_BUSY (5)") == true)
        Self.expectPlain(failed.words, without: ["SQLITE", "(5)"])
    }

    @Test("Issue 29: account forms and OAuth sign-in: the words without endpoints, the keyring's reason, or the tool's options")
    func accountErrors() {
        let keyring = PlainProblem(AccountError.keyringUnavailable(email: "ada@example.org", reason: "org.freedesktop.DBus.Error.ServiceUnknown"))
        #expect(keyring.words == "VaultMail can't keep the password: no keyring (GNOME Keyring, KeePassXC) answered. "
            + "Start one and try again, or give a password command instead.")
        #expect(keyring.detail?.contains("org.freedesktop.DBus.Error.ServiceUnknown") == true)
        Self.expectPlain(keyring.words, without: ["DBus"])
        let taken = PlainProblem(AccountError.nameTaken("work"))
        #expect(taken.words == "An account named 'work' already exists: remove it first, or choose another name.")
        #expect(taken.detail == nil, "already a person's words: no disclosure repeating them")

        let unreachable = PlainProblem(OAuthError.unreachable(endpoint: "https://oauth2.googleapis.com:443/token", reason: "Connection refused"))
        #expect(unreachable.words == "Server unreachable: can't reach oauth2.googleapis.com. Check the server's name and port, and your connection.")
        #expect(unreachable.detail?.contains("oauth2.googleapis.com:443/token: Connection refused") == true)
        let refused = PlainProblem(OAuthError.tokenRefused(endpoint: "https://oauth2.googleapis.com/token", status: 400, error: "invalid_grant", description: "Bad Request"))
        #expect(refused.words == "Your provider refused the sign-in. Try again; if it keeps happening, check the OAuth client ID.")
        #expect(refused.detail?.contains("HTTP 400, invalid_grant") == true)
        Self.expectPlain(refused.words, without: ["invalid_grant", "400"])
        let noClient = PlainProblem(OAuthError.noClientID(provider: "Google"))
        Self.expectPlain(noClient.words, without: ["--oauth-client-id"])
        #expect(noClient.words == "VaultMail has no OAuth client ID for Google. Give your own client ID (docs/oauth.md says how to register one).")
    }

    @Test("Issue 34: a token endpoint that is down (5xx, 429, temporarily_unavailable, unreachable) is an outage; a refused credential is not")
    func oauthOutages() {
        let endpoint = "https://oauth2.googleapis.com/token"
        let outages: [OAuthError] = [
            .malformedResponse(endpoint: endpoint, status: 503), .malformedResponse(endpoint: endpoint, status: 429),
            .tokenRefused(endpoint: endpoint, status: 503, error: "server_error", description: nil),
            .tokenRefused(endpoint: endpoint, status: 400, error: "temporarily_unavailable", description: nil),
            .unreachable(endpoint: endpoint, reason: "timed out"),
        ]
        for outage in outages {
            #expect(outage.isOutage && !outage.needsSignIn, "\(outage)")
            #expect(!PlainWords.of(outage).contains("refused") && !PlainWords.of(outage).contains("client ID"), "\(PlainWords.of(outage))")
        }
        #expect(PlainWords.of(OAuthError.malformedResponse(endpoint: endpoint, status: 503))
            == "oauth2.googleapis.com isn't working right now. Try again in a while; your mail stays here.")
        let refusals: [OAuthError] = [
            .tokenRefused(endpoint: endpoint, status: 400, error: "invalid_grant", description: nil),
            .tokenRefused(endpoint: endpoint, status: 401, error: "invalid_client", description: nil),
            .malformedResponse(endpoint: endpoint, status: 200), .signInAgain(account: "gmail", reason: "revoked"),
        ]
        for refusal in refusals { #expect(!refusal.isOutage, "\(refusal)") }
    }

    @Test("Issue 34: a send whose fate is unknown says it may have gone and that nothing sends it again; a refusal that nothing retries it")
    func sendFates() {
        let unknown = NotSentAdvice.maybeDelivered + " Check with a recipient or in the Sent folder before sending it again, so it is not sent twice."
            + "\n  Details: connection lost"
        #expect(NotSentAdvice.fateUnknown(unknown))
        let words = PlainWords.of(ComposeError.notSent(emailId: "e1", state: .failed, reason: unknown))
        #expect(words.hasPrefix("Maybe sent: the message stopped while it was going out: it may have been delivered."), "\(words)")
        #expect(words.hasSuffix("VaultMail won't send it again by itself. If it didn't arrive, press Send now to send it again."), "\(words)")
        #expect(!NotSentAdvice.fateUnknown("smtp.example.org refused: “554 5.7.1 spam”"))
        #expect(NotSentAdvice.next(.failed, reason: "refused", sendNow: "run `vaultmail outbox --retry e1`").hasSuffix("or run `vaultmail outbox --retry e1` once that is fixed."))
    }

    @Test("Issue 29: settings that cannot be saved, refused notifications and attachments that cannot be read: no reason or id in the words")
    func settingsAndAttachments() {
        // The same words at both doors (the tool prints the description): no id, no disclosure repeating them.
        let refused = PlainProblem(NotificationSettingsError.permissionRefused("the notification server did not allow it"))
        #expect(refused.words == "VaultMail may not show notifications (the notification server did not allow it), so they stay off. "
            + "Start the desktop's notification server (or one such as dunst or mako) and switch them on again.")
        #expect(refused.detail == nil)
        #expect(PlainWords.of(NotificationSettingsError.notMuted("be3b460c03b924fc")) == "That conversation isn't muted.")
        #expect(PlainWords.of(SettingsError.notSaved("disk I/O error (10)")) == "The setting couldn't be saved. Check the disk space and try again.")
        #expect(PlainWords.of(NotificationSettingsError.noSuchConversation("t-42")) == "That conversation is no longer here: it may have been deleted or moved elsewhere.")

        let attachment = PlainProblem(AttachmentError.notFound(emailId: "e-0123456789", attachmentId: "a-9876543210"))
        #expect(attachment.words == "That attachment is no longer here: the message may have been deleted. Reload the conversation.")
        #expect(attachment.detail?.contains("a-98765432") == true)
        Self.expectPlain(attachment.words, without: ["e-01234", "a-98765"])
    }

    @Test("Issue 29: text kept as words and detail (an outgoing message's reason) reads back as both; a reason of words only has no detail")
    func keptAsLines() {
        let problem = PlainProblem(words: "Server unreachable: can't reach smtp.example.org.", detail: "cannot connect to smtp.example.org:465: refused")
        #expect(PlainProblem(lines: problem.lines) == problem)
        #expect(PlainProblem(lines: "its account no longer exists") == PlainProblem(words: "its account no longer exists"))
        #expect(PlainProblem(lines: "its account no longer exists").sentence == "Its account no longer exists.")
        #expect(problem.led(by: "Not sent: ").words == "Not sent: server unreachable: can't reach smtp.example.org.")
        #expect(PlainProblem(words: "VaultMail can't keep the password.").led(by: "Not added: ").words == "Not added: VaultMail can't keep the password.")
        #expect(PlainProblem(words: "The AI model is damaged.").led(by: "The summary could not be written. ").words
            == "The summary could not be written. The AI model is damaged.")
        #expect(problem.led(by: "Not sent: ").detail == problem.detail)
        // An error without words of its own says so, and keeps all of it as the detail.
        struct Odd: Error, CustomStringConvertible { var description: String { "odd failure 0x2a" } }
        #expect(PlainProblem(Odd()) == PlainProblem(words: "Something went wrong. Try again; the details say what failed.", detail: "odd failure 0x2a"))
    }
}
