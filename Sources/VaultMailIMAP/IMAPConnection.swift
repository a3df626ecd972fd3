import Foundation
import VaultMailCore

/// One IMAP connection over libetpan.
///
/// An actor with its own thread: every libetpan call blocks that thread only, never Swift's
/// shared concurrency pool, so many accounts can sync at once without starving each other.
/// Commands run one at a time in call order. IDLE can be ended from any task with
/// `stopIdle()` (or by cancelling the task that waits in `idle`).
///
/// Certificates are verified (system store plus the endpoint's CA file, and the host name)
/// before any credential is sent. Plain-text connections are refused unless the host is a
/// loopback address. Errors (`IMAPError`) name the host, port, user and mailbox and quote the
/// server; they never contain a password or token.
///
/// ```swift
/// let imap = try IMAPConnection(endpoint: IMAPEndpoint(account: account))
/// try await imap.connect()
/// try await imap.login(user: account.username, password: secret)
/// let inbox = try await imap.select("INBOX")
/// let uids = try await imap.searchUIDs(since: thirtyDaysAgo)
/// let messages = try await imap.fetchMessages(UIDSet(uids), items: .fullMessage)
/// ```
public actor IMAPConnection: MailConnection {
    public nonisolated let endpoint: IMAPEndpoint
    private nonisolated let executor: OwnerThreadExecutor
    private nonisolated let interrupter: IdleInterrupter
    /// Internal so the extensions in other files (delete, NOTIFY) reach it; used only on this actor.
    let session: IMAPSession

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// A connection to `endpoint`, not yet opened: call `connect()`.
    public init(endpoint: IMAPEndpoint) throws {
        self.endpoint = endpoint
        executor = OwnerThreadExecutor(name: "imap \(endpoint.address)")
        session = IMAPSession(endpoint: endpoint)
        do {
            interrupter = try IdleInterrupter()
        } catch {
            executor.shutDown()
            throw IMAPError(
                kind: .connectionFailed, operation: "prepare a connection to", host: endpoint.host, port: endpoint.port,
                reason: "no pipe could be created (\(String(cString: strerror(error.errno)))); VaultMail may have run out of file descriptors: close other connections or raise `ulimit -n`")
        }
    }

    deinit {
        executor.shutDown()
    }

    // MARK: Connection

    /// Opens the connection. For `.tls` the certificate is checked right after the handshake;
    /// for `.starttls` after the upgrade; `.plain` is refused for non-loopback hosts.
    public func connect() throws {
        try session.connect()
    }

    /// LOGIN with a password.
    public func login(user: String, password: Secret) throws {
        try session.login(user: user, password: password.revealed)
    }

    /// SASL XOAUTH2 with an access token obtained by the caller.
    public func authenticateXOAuth2(user: String, accessToken: Secret) throws {
        try session.authenticateXOAuth2(user: user, accessToken: accessToken.revealed)
    }

    /// SASL OAUTHBEARER (RFC 7628) with an access token obtained by the caller.
    public func authenticateOAuthBearer(user: String, accessToken: Secret) throws {
        try session.authenticateOAuthBearer(user: user, accessToken: accessToken.revealed)
    }

    /// An OAuth2 access token by XOAUTH2 (Gmail, Outlook) when offered, else OAUTHBEARER.
    public func authenticateOAuth(user: String, accessToken: Secret) throws {
        try session.authenticateOAuth(user: user, accessToken: accessToken.revealed)
    }

    /// What the server announced; refreshed after connecting, STARTTLS and login.
    public var capabilities: IMAPCapabilities { session.capabilities }

    /// Asks the server for its capabilities again.
    @discardableResult
    public func refreshCapabilities() throws -> IMAPCapabilities {
        try session.refreshCapabilities()
        return session.capabilities
    }

    public var isConnected: Bool { session.isConnected }
    public var isAuthenticated: Bool { session.isAuthenticated }
    /// The mailbox commands act on, nil when none is selected.
    public var selectedMailbox: String? { session.selectedMailbox }

    /// LOGOUT, then closes the connection. Never throws: the connection is closed either way.
    public func logout() {
        session.logout()
    }

    /// Closes the connection at once, without LOGOUT.
    public func disconnect() {
        session.dropConnection()
    }

    // MARK: Mailboxes

    /// Every mailbox with its attributes (special-use included where the server has them).
    /// `FolderTypeMapping.folderTypes(for:)` gives their roles.
    public func listFolders() throws -> [IMAPFolder] {
        try session.listFolders()
    }

    /// SELECT: opens `mailbox` read-write and reports UIDVALIDITY, UIDNEXT, EXISTS and
    /// HIGHESTMODSEQ (CONDSTORE is enabled when offered).
    public func select(_ mailbox: String) throws -> IMAPMailboxStatus {
        try session.select(mailbox, readOnly: false)
    }

    /// EXAMINE: like `select`, read-only.
    public func examine(_ mailbox: String) throws -> IMAPMailboxStatus {
        try session.select(mailbox, readOnly: true)
    }

    public func createMailbox(_ mailbox: String) throws {
        try session.createMailbox(mailbox)
    }

    public func deleteMailbox(_ mailbox: String) throws {
        try session.deleteMailbox(mailbox)
    }

    public func renameMailbox(_ mailbox: String, to newName: String) throws {
        try session.renameMailbox(mailbox, to: newName)
    }

    // MARK: Messages (of the selected mailbox)

    /// UID SEARCH: UIDs of messages whose internal date is on or after the day of `since`
    /// (UTC), within `uids` and, with `unseenOnly`, without `\Seen`; ascending. No criteria:
    /// every message.
    public func searchUIDs(since: Date? = nil, in uids: UIDSet? = nil, unseenOnly: Bool = false) throws -> [UInt32] {
        try session.searchUIDs(since: since, in: uids, unseenOnly: unseenOnly)
    }

    /// UID SEARCH HEADER: UIDs of messages whose header `name` contains `value` (e.g. a
    /// Message-ID), ascending.
    public func searchUIDs(header name: String, containing value: String) throws -> [UInt32] {
        try session.searchUIDs(header: name, containing: value)
    }

    /// UID FETCH of `items` (the UID always) for `uids`, ascending by UID. For large sets use
    /// `messageBatches` so each answer stays small.
    public func fetchMessages(_ uids: UIDSet, items: IMAPFetchItems = .fullMessage) throws -> [IMAPMessage] {
        try session.fetchMessages(uids, items: items)
    }

    /// The messages of `uids` fetched `batchSize` at a time, one array per batch, in order.
    public nonisolated func messageBatches(
        _ uids: [UInt32], items: IMAPFetchItems = .fullMessage, batchSize: Int = 50
    ) -> AsyncThrowingStream<[IMAPMessage], any Error> {
        let batches = UIDSet(uids).chunked(maxCount: max(1, batchSize))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for batch in batches {
                        try Task.checkCancellation()
                        continuation.yield(try await self.fetchMessages(batch, items: items))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Flags of `uids` (a plain sweep), or with `changedSince` only of messages whose flags
    /// changed after that mod-sequence (CONDSTORE; `.unsupported` without it).
    public func fetchFlags(_ uids: UIDSet = .all, changedSince: UInt64? = nil) throws -> [IMAPMessageFlags] {
        try session.fetchFlags(uids, changedSince: changedSince)
    }

    /// UID STORE: adds, removes or replaces flags (`\Seen`, `\Flagged`, `\Deleted`, keywords).
    public func storeFlags(_ flags: Set<IMAPFlag>, _ operation: IMAPFlagOperation, uids: UIDSet) throws {
        try session.storeFlags(flags, operation, uids: uids)
    }

    /// UID STORE (UNCHANGEDSINCE `modSeq`) (CONDSTORE, RFC 7162): changes only the messages
    /// whose mod-sequence is still at most `modSeq`; returns the UIDs the server left alone
    /// because they changed since (its `[MODIFIED …]` answer). Only one of several clients
    /// storing with the same `modSeq` succeeds on a message, which makes it a claim.
    /// `.unsupported` when the server has no CONDSTORE.
    public func storeFlags(_ flags: Set<IMAPFlag>, _ operation: IMAPFlagOperation, uids: UIDSet,
                           unchangedSince modSeq: UInt64) throws -> Set<UInt32> {
        try session.storeFlags(flags, operation, uids: uids, unchangedSince: modSeq)
    }

    /// UID COPY to `mailbox`; the new UIDs when the server has UIDPLUS.
    @discardableResult
    public func copy(_ uids: UIDSet, to mailbox: String) throws -> IMAPCopyResult? {
        try session.copy(uids, to: mailbox)
    }

    /// UID MOVE to `mailbox` (or COPY + `\Deleted` + UID EXPUNGE where MOVE is missing); the
    /// new UIDs when the server has UIDPLUS.
    @discardableResult
    public func move(_ uids: UIDSet, to mailbox: String) throws -> IMAPCopyResult? {
        try session.move(uids, to: mailbox)
    }

    /// UID EXPUNGE: permanently removes these messages if they are flagged `\Deleted`
    /// (needs UIDPLUS; `.unsupported` otherwise).
    public func expunge(_ uids: UIDSet) throws {
        try session.expunge(uids)
    }

    /// EXPUNGE: permanently removes every `\Deleted` message of the selected mailbox.
    public func expungeAll() throws {
        try session.expungeAll()
    }

    /// APPEND to `mailbox` (need not be selected) with flags and an internal date; where the
    /// message landed when the server has UIDPLUS. Lines end in CRLF on the wire.
    @discardableResult
    public func append(
        _ message: Data, to mailbox: String, flags: Set<IMAPFlag> = [], internalDate: Date? = nil
    ) throws -> IMAPAppendResult? {
        try session.append(message, to: mailbox, flags: flags, internalDate: internalDate)
    }

    // MARK: Server events

    /// NOOP: gives the server a chance to report changes, and returns them.
    public func noop() throws -> [IMAPServerEvent] {
        try session.noop()
    }

    /// IDLE on the selected mailbox until the server reports something, `stopIdle()` is
    /// called, the calling task is cancelled, or `timeout` passes. Call it again to keep
    /// listening (as the daemon's IDLE monitor does); renew at least every 29 minutes.
    /// A dropped connection or a killed server ends it with `.connectionLost`.
    public func idle(timeout: Duration = .seconds(25 * 60)) async throws -> IMAPIdleResult {
        let interrupter = self.interrupter
        return try await withTaskCancellationHandler {
            try session.idle(timeout: timeout, interrupter: interrupter)
        } onCancel: {
            interrupter.stop()
        }
    }

    /// True while the server is in IDLE for this connection (from its continuation until
    /// DONE); readable from any task.
    public nonisolated var isIdling: Bool {
        interrupter.isEstablished
    }

    /// Ends the running `idle` promptly; callable from any task or thread. When no IDLE runs,
    /// the next `idle` returns `.stopped` at once.
    public nonisolated func stopIdle() {
        interrupter.stop()
    }
}
