import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailSync

/// Sending, composed: the outbox in the store, SMTP for transmission, IMAP for Sent and
/// Drafts on the account's pooled connection, one `OutboxSender` shared by the compose use
/// case and the outbox processor (so they never send a message twice). Pass `compose` to
/// `AppDependencies` as its `ComposeEmailUseCase`; `start()` the processor in the daemon.
public struct MailSending: Sendable {
    public let sender: OutboxSender
    public let compose: ComposeEmailService
    public let processor: OutboxProcessor

    /// - Parameters:
    ///   - credentials: the password or access token of each account, told when a server
    ///     refused an access token (the next is fresh).
    ///   - undoDelaySeconds: the current undo-send delay; usually `SettingsStore`'s.
    ///   - connections: the IMAP connections of the accounts, shared with sync and the
    ///     server-side actions (`MailServices.connections`), so filing to Sent and Drafts opens
    ///     no login of its own; without it, sending keeps a pool of its own over `credentials`.
    ///   - transport, remoteMailbox: SMTP and IMAP unless given (tests pass doubles).
    ///   - openPGP: the OpenPGP engine messages are encrypted and signed with (issue 32,
    ///     `OpenPGPWriting`); without it every message goes plain.
    ///   - runId: the sender's run id; the daemon's starts with `OutboxSender.daemonRunPrefix`.
    public init(
        database: AppDatabase, credentials: any CredentialProvider,
        undoDelaySeconds: @escaping @Sendable () async -> Int,
        clock: any WallClock = SystemWallClock(), sleeper: any Clock<Duration> = ContinuousClock(),
        backoff: RetryBackoff = .standard, pollInterval: Duration = .seconds(60), connections: IMAPConnectionPool? = nil,
        transport: (any MailTransport)? = nil, remoteMailbox: (any RemoteMailbox)? = nil, openPGP: (any OpenPGPEngine)? = nil,
        runId: String = UUID().uuidString.lowercased()
    ) {
        let pool = connections ?? IMAPConnectionPool(credentials: credentials)
        let imap = remoteMailbox ?? IMAPRemoteMailbox(connections: pool)
        // Send later on the server (issue 33), with the real IMAP server (not beside a double).
        let scheduled = remoteMailbox == nil ? IMAPScheduledSendServer(connections: pool, parser: GMimeMessageParser()) : nil
        sender = OutboxSender(
            outbox: GRDBOutboxRepository(database: database), accounts: GRDBAccountRepository(database: database),
            transport: transport ?? SMTPMailTransport(credentials: credentials),
            remoteMailbox: imap, scheduledServer: scheduled, clock: clock, backoff: backoff, runId: runId)
        compose = ComposeEmailService(
            sender: sender, openPGP: openPGP.map { OpenPGPWriting(engine: $0, emails: GRDBEmailRepository(database: database),
                                                                      peers: GRDBAutocryptPeerRepository(database: database)) },
            sleeper: sleeper, undoDelaySeconds: undoDelaySeconds)
        processor = OutboxProcessor(sender: sender, sleeper: sleeper, pollInterval: pollInterval)
    }

    /// Sending whose undo delay is `settings.undoSendDelaySeconds` (AC-U-11).
    public init(
        database: AppDatabase, settings: SettingsStore, credentials: any CredentialProvider,
        clock: any WallClock = SystemWallClock(), sleeper: any Clock<Duration> = ContinuousClock(),
        backoff: RetryBackoff = .standard, connections: IMAPConnectionPool? = nil, openPGP: (any OpenPGPEngine)? = nil,
        runId: String = UUID().uuidString.lowercased()
    ) {
        self.init(
            database: database, credentials: credentials, undoDelaySeconds: { await MainActor.run { settings.undoSendDelaySeconds } },
            clock: clock, sleeper: sleeper, backoff: backoff, connections: connections, openPGP: openPGP, runId: runId)
    }
}
