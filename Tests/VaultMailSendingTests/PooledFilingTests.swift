import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailSync
import VaultMailTesting

/// Issue 18 against real servers: sending files to Sent and cleans Drafts on the account's
/// pooled IMAP connection (no login of its own, counted in Dovecot's log), and a send-now
/// uploads no draft first. In the serialized suite of the other real-server tests.
extension RealServerSendingTests {
    /// Sending over `fixture`'s store whose IMAP work goes through `pool`, already logged in
    /// once as the sync engine would be.
    static func pooledSending(_ fixture: ServerFixture) async throws -> (IMAPConnectionPool, MailSending) {
        let pool = IMAPConnectionPool(credentials: FixedCredentialProvider([fixture.account.id: ServerFixture.password]))
        _ = try await pool.withConnection(for: fixture.account) { try await $0.listFolders() }
        let sending = MailSending(
            database: try fixture.openDatabase(), credentials: FixedCredentialProvider(everyAccount: ServerFixture.password), undoDelaySeconds: { 0 },
            clock: fixture.clock, connections: pool)
        return (pool, sending)
    }

    /// The IMAP logins of "ada" Dovecot logged since `mark`, made before `checks` logins of
    /// the test's own (which mark the end of what is counted: the log is written by another
    /// process, so the test waits for them).
    static func logins(_ fixture: ServerFixture, since mark: Int, beforeChecks checks: Int) async throws -> Int {
        let count = { fixture.dovecot.log(since: mark).components(separatedBy: "Login: user=<ada>").count - 1 }
        try await fixture.dovecot.waitForLog(since: mark) { _ in count() >= checks }
        return count() - checks
    }

    /// UIDNEXT of a mailbox: 1 while nothing was ever APPENDed to it.
    static func uidNext(_ mailbox: String, _ fixture: ServerFixture) async throws -> UInt32 {
        let imap = try await IMAPConnection.connect(
            to: IMAPEndpoint(host: fixture.dovecot.host, port: fixture.dovecot.imapsPort, security: .tls, caFile: fixture.dovecot.caFile))
        try await imap.login(user: ServerFixture.user, password: Secret(ServerFixture.password))
        let status = try await imap.examine(mailbox)
        await imap.logout()
        return status.uidNext
    }

    @Test("Issue 18: saving a draft, sending it and filing it (Sent, Drafts) use the account's pooled IMAP connection: no login of their own")
    func filingOnThePooledConnection() async throws {
        let fixture = try await ServerFixture()
        let (pool, sending) = try await Self.pooledSending(fixture)
        let mark = fixture.dovecot.logMark()
        let id = try await fixture.draft(sending.compose, subject: "Draft one")
        _ = try await fixture.draft(sending.compose, subject: "Draft two", draftId: id)
        #expect(try await sending.compose.send(emailId: id) == .sent)

        let sent = try await fixture.messages(in: "Sent")
        let drafts = try await fixture.messages(in: "Drafts")
        #expect(try await Self.logins(fixture, since: mark, beforeChecks: 2) == 0, "\(fixture.dovecot.log(since: mark))")
        let received = try await fixture.smtp.waitForMessages(count: 1)
        #expect(sent.map(\.rawMessage) == [received[0].raw])
        #expect(drafts.isEmpty)
        #expect(try await Self.uidNext("Drafts", fixture) == 3, "two versions were APPENDed, each replacing the one before")
        let entry = try #require(try await GRDBOutboxRepository(database: try fixture.openDatabase()).entry(emailId: id))
        #expect(!entry.filingPending)
        #expect(entry.sentCopy?.uid == sent.first?.uid)
        await pool.closeAll()
    }

    @Test("Issue 18: a send-now (saveForSending, queueForSending, executeSend) APPENDs nothing to Drafts and logs in to IMAP no more")
    func sendNowUploadsNoDraft() async throws {
        let fixture = try await ServerFixture()
        let (pool, sending) = try await Self.pooledSending(fixture)
        var content = DraftContent(accountId: fixture.account.id)
        content.to = ["Grace Hopper <grace@example.com>"]
        content.subject = "Right away"
        content.body = "No undo for this one.\n"
        let mark = fixture.dovecot.logMark()
        let id = try await sending.compose.saveForSending(content, html: nil, attachments: [])
        try await sending.compose.queueForSending(emailId: id)
        try await sending.compose.executeSend(emailId: id)

        let sent = try await fixture.messages(in: "Sent")
        #expect(try await Self.logins(fixture, since: mark, beforeChecks: 1) == 0, "\(fixture.dovecot.log(since: mark))")
        #expect(try await Self.uidNext("Drafts", fixture) == 1, "nothing was ever APPENDed to Drafts")
        let received = try await fixture.smtp.waitForMessages(count: 1)
        #expect(GMimeMessageParser().parse(Array(received[0].raw)).subject == "Right away")
        #expect(sent.map(\.rawMessage) == [received[0].raw])
        let entry = try #require(try await GRDBOutboxRepository(database: try fixture.openDatabase()).entry(emailId: id))
        #expect(entry.state == .sent)
        #expect(entry.remoteDraft == nil)
        #expect(!entry.filingPending)
        await pool.closeAll()
    }

    @Test("Issue 18: a draft already in Drafts that is then sent now: its last version is not uploaded, and the copy there is removed after the send")
    func sendNowOfADraftOnTheServer() async throws {
        let fixture = try await ServerFixture()
        let (pool, sending) = try await Self.pooledSending(fixture)
        let id = try await fixture.draft(sending.compose, subject: "Started")
        #expect(try await fixture.messages(in: "Drafts").count == 1)
        var content = DraftContent(accountId: fixture.account.id)
        content.draftId = id
        content.to = ["grace@example.com"]
        content.subject = "Finished"
        content.body = "Done now.\n"
        #expect(try await sending.compose.saveForSending(content, html: nil, attachments: nil) == id)
        try await sending.compose.queueForSending(emailId: id)
        try await sending.compose.executeSend(emailId: id)

        #expect(try await fixture.messages(in: "Drafts").isEmpty)
        #expect(try await Self.uidNext("Drafts", fixture) == 2, "only the first version was ever APPENDed")
        let sent = try await fixture.messages(in: "Sent")
        #expect(sent.map { GMimeMessageParser().parse(Array($0.rawMessage ?? Data())).subject } == ["Finished"])
        await pool.closeAll()
    }
}
