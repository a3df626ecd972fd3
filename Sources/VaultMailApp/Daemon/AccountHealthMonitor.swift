import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailNotifications
import VaultMailSync

/// Tells the user, once, when an account stops working: a login that fails raises a
/// notification at once; a connection that cannot be restored raises one after
/// `outageGrace` (5 minutes). No repeats while the problem lasts; the notification is
/// withdrawn when the account works again.
@MainActor
public final class AccountHealthMonitor {
    public enum Problem: Sendable, Equatable {
        case loginFailed(String)
        case unreachable(String)
        /// The connection could not be made safe (TLS, the certificate, plain text refused):
        /// a setting to change, announced at once and never called "unreachable".
        case insecure(words: String, detail: String)
        /// The provider no longer accepts the account's OAuth2 sign-in (a revoked refresh token):
        /// `vaultmail account reauth NAME` signs in again.
        case signInAgain(String)
        /// This computer's disk is full, so mail cannot be stored (issue 34): never called a
        /// lost connection; announced at once, since only freeing space ends it.
        case diskFull(String)
        /// The OAuth2 provider's sign-in (token) server is down or cannot be reached (issue 34):
        /// an outage like an unreachable mail server, with its grace and words.
        case signInServerUnreachable(host: String, detail: String)

        /// The web app's offline indicator, in a person's words (issue 29): the host without its
        /// port, what happened and what to do; for a revoked sign-in, where to sign in again.
        public func words(for account: Account) -> String {
            switch self {
            case .loginFailed: "\(account.imapHost) refused the sign-in for \(account.username). Check the password in the account's settings."
            case .unreachable: PlainWords.unreachable(account.imapHost)
            case .insecure(let words, _): words
            case .signInAgain: PlainWords.signInAgain
            case .diskFull: PlainWords.diskFull
            case .signInServerUnreachable(let host, _): PlainWords.unreachable(host)
            }
        }

        /// The technical detail behind the words (shown on demand).
        public var detail: String {
            switch self {
            case .loginFailed(let detail), .unreachable(let detail), .insecure(_, let detail), .signInAgain(let detail),
                 .diskFull(let detail), .signInServerUnreachable(_, let detail): detail
            }
        }

        /// A full disk is a full disk, whatever wraps it (issue 34). A refused login (or a
        /// credential that cannot be had) is announced at once, a sign-in
        /// the provider no longer accepts as such, a connection that cannot be made safe as
        /// such; anything else (the server cannot be reached) only if it lasts.
        public init(_ error: any Error) {
            if PlainWords.isDiskFull(error) {
                self = .diskFull("\(error)")
            } else if let oauth = Self.oauthError(in: error), oauth.isOutage {
                self = .signInServerUnreachable(host: oauth.endpointHost ?? "your provider's sign-in server", detail: "\(error)")
            } else if let oauth = Self.oauthError(in: error), oauth.needsSignIn {
                self = .signInAgain("\(oauth)")
            } else if SyncError.isLoginRefusal(error) {
                self = .loginFailed("\(error)")
            } else if let failure = Self.imapError(in: error)?.connectionFailure, [.tlsFailed, .certificateRejected, .plaintextRefused].contains(failure) {
                self = .insecure(words: PlainWords.of(error), detail: "\(error)")
            } else {
                self = .unreachable("\(error)")
            }
        }

        private static func oauthError(in error: any Error) -> OAuthError? {
            if let error = error as? OAuthError { return error }
            if let error = error as? SyncError, let underlying = error.underlying { return oauthError(in: underlying) }
            return nil
        }

        private static func imapError(in error: any Error) -> IMAPError? {
            if let error = error as? IMAPError { return error }
            if let error = error as? SyncError, let underlying = error.underlying { return imapError(in: underlying) }
            return nil
        }
    }

    private struct State {
        var since: Date
        var announced: Bool
    }

    private let center: any NotificationCenterProviding
    private let clock: any WallClock
    private let outageGrace: TimeInterval
    private var states: [String: State] = [:]

    public init(center: any NotificationCenterProviding, clock: any WallClock, outageGrace: TimeInterval = 300) {
        self.center = center
        self.clock = clock
        self.outageGrace = outageGrace
    }

    /// Records a failure; announces it when it is due and not announced yet.
    public func report(_ problem: Problem, for account: Account) async {
        let now = clock.now
        var state = states[account.id] ?? State(since: now, announced: false)
        let due: Bool = switch problem {
        case .loginFailed, .signInAgain, .insecure, .diskFull: true
        case .unreachable, .signInServerUnreachable: now.timeIntervalSince(state.since) >= outageGrace
        }
        if due && !state.announced {
            do {
                try await center.add(Self.request(problem, account, outageGrace: outageGrace))
                state.announced = true
            } catch {
                // No notification server: try again on the next report.
            }
        }
        states[account.id] = state
    }

    /// The account works again: forget the problem and withdraw its notification.
    public func recovered(_ account: Account) async {
        guard let state = states.removeValue(forKey: account.id), state.announced else { return }
        await center.removeDeliveredNotifications(withIdentifiers: [Self.identifier(account)])
    }

    /// The account is gone: forget it and withdraw its alert.
    public func forget(accountId: String) async {
        guard states.removeValue(forKey: accountId)?.announced == true else { return }
        await center.removeDeliveredNotifications(withIdentifiers: [Self.identifier(accountId: accountId)])
    }

    public func isAnnounced(_ account: Account) -> Bool { states[account.id]?.announced ?? false }

    /// "5 minutes", "1 minute", "30 seconds".
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole >= 60, whole % 60 == 0 { return whole == 60 ? "1 minute" : "\(whole / 60) minutes" }
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }

    static func identifier(_ account: Account) -> String { identifier(accountId: account.id) }

    static func identifier(accountId: String) -> String { "account-\(accountId)" }

    static func request(_ problem: Problem, _ account: Account, outageGrace: TimeInterval) -> NotificationRequest {
        let body: String = switch problem {
        case .loginFailed: "Cannot log in: \(problem.words(for: account))"
        case .unreachable, .signInServerUnreachable: "No connection for \(duration(outageGrace)). \(problem.words(for: account))"
        case .insecure(let words, _): "Cannot connect securely: \(words)"
        case .diskFull: "Cannot store mail: \(problem.words(for: account))"
        case .signInAgain: "Your provider no longer accepts VaultMail's sign-in. Press Sign in again on the account's page in VaultMail's settings, or run `vaultmail account reauth \(account.name)`; your mail stays here."
        }
        let title = if case .signInAgain = problem { "Sign in again to \(account.name)" } else { "VaultMail: \(account.name) needs attention" }
        return NotificationRequest(
            identifier: identifier(account),
            content: NotificationContent(
                title: title, subtitle: account.email, body: body,
                categoryIdentifier: "ACCOUNT_PROBLEM", threadIdentifier: identifier(account),
                userInfo: NotificationUserInfo(emailId: "", threadId: identifier(account), accountId: account.id, fromAddress: ""),
                interruptionLevel: .timeSensitive))
    }
}
