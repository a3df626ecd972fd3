import Foundation
import VaultMailCore
import VaultMailStore

/// The daemon's side of "one truth between the tool and the daemon": the store marks from
/// which it evaluates each account's mail (so mail `vaultmail sync` stores beside it is
/// evaluated like its own), the session record `vaultmail notify why` reads, and the watcher
/// that reports other processes' commits.
@MainActor
final class OtherProcessChanges {
    let watcher: StoreChangeWatcher
    let ledger: GRDBNotificationLedger
    private let storage: GRDBSettingsStorage
    private var session: DaemonSession
    /// When each account was last signed in again, as last seen (`SignedInAgain`).
    private var signIns: [String: Date] = [:]

    init(database: AppDatabase, interval: Duration = .milliseconds(250)) {
        watcher = StoreChangeWatcher(database: database, interval: interval)
        ledger = GRDBNotificationLedger(database: database)
        storage = GRDBSettingsStorage(database: database)
        session = DaemonSession(pid: ProcessInfo.processInfo.processIdentifier, startedAt: Date())
    }

    /// The daemon starts: the accounts it first syncs (silently) are evaluated from now on.
    func begin(accounts: [Account]) async throws {
        let mark = try await ledger.storeMark()
        session = DaemonSession(pid: ProcessInfo.processInfo.processIdentifier, startedAt: Date(), accountMarks: Dictionary(accounts.map { ($0.id, mark) }, uniquingKeysWith: { $1 }))
        signIns = SignedInAgain.all(in: storage)
        try session.save(to: storage)
    }

    /// The accounts another process signed in again since the last look (issue 34).
    func signedInAgain() -> [String] {
        let now = SignedInAgain.all(in: storage)
        defer { signIns = now }
        return now.filter { signIns[$0.key] != $0.value }.map(\.key).sorted()
    }

    /// An account added beside the daemon had its silent first sync: its mail stored from now on is evaluated.
    func evaluate(accountId: String) async throws {
        session.accountMarks[accountId] = try await ledger.storeMark()
        try session.save(to: storage)
    }

    func forget(accountId: String) {
        session.accountMarks[accountId] = nil
        try? session.save(to: storage)
    }

    /// The daemon stops: mail stored from now on was stored with no daemon running.
    func end() async {
        session.stoppedAt = Date()
        // Read outside the daemon's task, which is cancelled by now (GRDB's async reads stop then).
        let ledger = ledger
        session.stoppedMark = try? await Task { try await ledger.storeMark() }.value
        try? session.save(to: storage)
    }

    /// Received mail of the watched accounts stored above their marks that the engine never decided on.
    func undecidedEmailIds() async throws -> [String] {
        var ids: [String] = []
        for (accountId, mark) in session.accountMarks.sorted(by: { $0.key < $1.key }) {
            ids += try await ledger.undecidedEmailIds(accountId: accountId, storedAfter: mark)
        }
        return ids
    }
}
