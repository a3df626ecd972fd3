import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting

/// Sending over the real store (in memory unless a database is given) with a recording SMTP
/// transport and an in-memory IMAP server, for the outbox's rules without the network.
struct FakeSending {
    let database: AppDatabase
    let account: Account
    let folders: [Folder]
    let transport: RecordingMailTransport
    let remote: RecordingRemoteMailbox
    let clock: FixedClock
    let sending: MailSending
    var sender: OutboxSender { sending.sender }
    var compose: ComposeEmailService { sending.compose }
    var processor: OutboxProcessor { sending.processor }
    var outbox: GRDBOutboxRepository { GRDBOutboxRepository(database: database) }
    var emails: GRDBEmailRepository { GRDBEmailRepository(database: database) }

    /// `sleeper`: the clock the undo delay and the Drafts copy's pause are waited on.
    static func make(account: Account = MailFixtures.account(name: "work", email: "ada@example.com"), undoDelay: Int = 0,
                     sleeper: any Clock<Duration> = ContinuousClock()) async throws -> FakeSending {
        let database = try AppDatabase.inMemory()
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await GRDBEmailRepository(database: database).saveFolders(folders)
        return FakeSending(
            database: database, account: account, folders: folders, transport: RecordingMailTransport(),
            remote: RecordingRemoteMailbox(), clock: FixedClock(MailFixtures.referenceDate), undoDelay: undoDelay,
            sleeper: sleeper)
    }

    init(
        database: AppDatabase, account: Account, folders: [Folder], transport: RecordingMailTransport,
        remote: RecordingRemoteMailbox, clock: FixedClock, undoDelay: Int, sleeper: any Clock<Duration> = ContinuousClock(),
        runId: String = UUID().uuidString.lowercased()
    ) {
        self.database = database
        self.account = account
        self.folders = folders
        self.transport = transport
        self.remote = remote
        self.clock = clock
        sending = MailSending(
            database: database, credentials: FixedCredentialProvider(everyAccount: "unused"), undoDelaySeconds: { undoDelay }, clock: clock,
            sleeper: sleeper, transport: transport, remoteMailbox: remote, runId: runId)
    }

    /// The same store and servers seen by a new process (new run id), as after a restart.
    func restarted(undoDelay: Int = 0, runId: String = UUID().uuidString.lowercased()) -> FakeSending {
        FakeSending(
            database: database, account: account, folders: folders, transport: transport, remote: remote, clock: clock,
            undoDelay: undoDelay, runId: runId)
    }

    /// A saved draft's id.
    func draft(
        to: [String] = ["Grace Hopper <grace@example.com>"], cc: [String] = [], bcc: [String] = [],
        subject: String = "Hello", body: String = "Hi Grace,\nsee you.\n", attachments: [DraftAttachment] = []
    ) async throws -> String {
        try await compose.saveDraft(
            draftId: nil, accountId: account.id, threadId: nil, toAddresses: to, ccAddresses: cc, bccAddresses: bcc,
            subject: subject, bodyPlain: body, inReplyTo: nil, references: nil, attachments: attachments)
    }

    func entry(_ id: String) async throws -> OutboxEntry? {
        try await outbox.entry(emailId: id)
    }

    func state(_ id: String) async throws -> SendState? {
        try await entry(id)?.state
    }

    /// The local folders the email is linked to, by type.
    func folderTypes(_ id: String) async throws -> Set<FolderType> {
        try await emails.getEmail(id: id)?.folderTypes ?? []
    }
}
