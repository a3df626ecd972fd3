import Foundation
import VaultMailCore
import VaultMailIMAP

/// `AccountAdministration` over the mail servers and the OAuth2 providers: the web app's
/// "Test connection" and "Sign in with Google / Microsoft". A signed-in account is stored
/// through `Accounts`, as every other.
public struct AccountAdministrator: AccountAdministration {
    let accounts: Accounts
    let credentials: any CredentialStore
    let timeout: Duration
    let oauthConfiguration: OAuthConfiguration
    let accessTokens: OAuthAccessTokens?
    let oauthTimeout: Duration
    let signIns = OAuthSignIns()
    /// Told the account's id once it was signed in again (the daemon tries it at once: issue 34).
    let onSignedInAgain: (@Sendable (_ accountId: String) async -> Void)?

    /// - Parameters:
    ///   - oauthConfiguration: where the providers' clients and endpoints come from.
    ///   - accessTokens: the daemon's access tokens in memory, told about a new sign-in.
    ///   - oauthTimeout: how long a sign-in waits for the browser to come back.
    ///   - accounts: where a signed-in account is stored.
    ///   - onSignedInAgain: told the account's id after "Sign in again" (the daemon retries it at once).
    public init(accounts: Accounts, credentials: any CredentialStore, timeout: Duration = .seconds(20),
                oauthConfiguration: OAuthConfiguration = OAuthConfiguration(), accessTokens: OAuthAccessTokens? = nil,
                oauthTimeout: Duration = .seconds(300), onSignedInAgain: (@Sendable (_ accountId: String) async -> Void)? = nil) {
        self.onSignedInAgain = onSignedInAgain
        self.accounts = accounts
        self.credentials = credentials
        self.timeout = timeout
        self.oauthConfiguration = oauthConfiguration
        self.accessTokens = accessTokens
        self.oauthTimeout = oauthTimeout
    }

    /// Tries the servers of a new account as it will sign in (`Account.signingIn(with:)`): the
    /// secret from the same provider as sync and sending (`AccountCredentials`, which runs a
    /// command), sent by the same choice of mechanism (`AccountLogin`).
    public func check(_ account: Account, secret: AccountSecret) async -> ConnectionCheck {
        let account = account.signingIn(with: secret)
        var steps: [ConnectionCheck.Step] = []
        let password: Secret
        do {
            if case .password(let given) = secret {
                password = given
            } else {
                password = try await AccountCredentials(store: credentials).secret(for: account)
            }
        } catch {
            let words = error is any PlainWordsError ? PlainWords.of(error)
                : "VaultMail couldn't get the password from its command. Run the command in a terminal to see why, then try again."
            return ConnectionCheck(steps: [.init(name: "Get the password", problem: PlainProblem(words: words, detail: PlainWords.detail(error)))])
        }
        let imap: IMAPConnection
        do {
            imap = try IMAPConnection(endpoint: IMAPEndpoint(account: account, connectTimeout: timeout, readTimeout: timeout))
        } catch {
            return ConnectionCheck(steps: [.init(name: "The incoming mail server's settings", problem: Self.problem(error))])
        }
        if await step(&steps, "Connect to the incoming mail server (IMAP)", { try await imap.connect() }),
           await step(&steps, "Sign in to the incoming mail server as \(account.username)", { try await AccountLogin.signIn(imap, as: account, with: password) }) {
            await imap.logout()
        } else {
            await imap.disconnect()
            return ConnectionCheck(steps: steps)
        }
        let smtp = SMTPConnection(endpoint: SMTPEndpoint(account: account, connectTimeout: timeout, readTimeout: timeout))
        if await step(&steps, "Connect to the outgoing mail server (SMTP)", { try await smtp.connect() }),
           await step(&steps, "Sign in to the outgoing mail server as \(account.username)", { try await AccountLogin.signIn(smtp, as: account, with: password) }) {
            await smtp.quit()
        } else {
            await smtp.disconnect()
        }
        return ConnectionCheck(steps: steps)
    }

    /// Runs one step and records it; true when it passed.
    private func step(_ steps: inout [ConnectionCheck.Step], _ name: String, _ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            steps.append(.init(name: name))
            return true
        } catch {
            steps.append(.init(name: name, problem: Self.problem(error)))
            return false
        }
    }

    /// A failed step in words: a server that cannot be reached is said with what to check, the
    /// user trying it now (not "VaultMail will retry"); the detail names the server and port.
    static func problem(_ error: any Error) -> PlainProblem {
        let words = switch error {
        case let error as IMAPError: error.plainWords(retrying: false)
        case let error as SMTPError: error.plainWords(retrying: false)
        default: PlainWords.of(error)
        }
        return PlainProblem(words: words, detail: PlainWords.detail(error))
    }
}

// MARK: Signing in with a provider in the web app's browser

extension AccountAdministrator {
    public func startOAuthSignIn(_ request: OAuthAccountRequest, returnTo: URL) async throws -> OAuthSignInStarted {
        let name = try Accounts.validName(request.name), email = request.email.trimmingCharacters(in: .whitespaces)
        let id = OAuthSignIns.newID()
        let oauth = signIn(returnTo: returnTo, id: id)
        let provider: OAuthProvider, client: OAuthClient
        do {
            provider = try oauth.provider(request.provider)
            client = try oauth.client(provider, option: request.clientID.flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            throw AccountAdministrationError(Self.webProblem(error))
        }
        let account = Account(
            name: name, email: email, imapHost: provider.imapHost, imapPort: provider.imapPort, smtpHost: provider.smtpHost,
            smtpPort: provider.smtpPort, security: .tls, username: email, authMethod: .oauth2, credentialCommand: nil)
        try await accounts.checkNew(account)
        let accounts = accounts
        return try await signIns.start(id: id) { show in
            try await oauth.signIn(account, provider: provider, client: client, show: show)
            try await accounts.add(account, secret: nil)
            return .signedIn(accountId: account.id, reauthorized: false,
                             message: "Signed in with \(provider.name) and added \(account.name) (\(account.email)). The sign-in is kept in your keyring, never in VaultMail's database.")
        }
    }

    public func reauthorize(accountId: String, returnTo: URL) async throws -> OAuthSignInStarted {
        guard let account = try await accounts.account(id: accountId) else { throw AccountError.notFound(id: accountId) }
        let id = OAuthSignIns.newID()
        let oauth = signIn(returnTo: returnTo, id: id)
        let provider: OAuthProvider, client: OAuthClient
        do {
            (provider, client) = try await oauth.reauthorization(of: account, clientID: nil)
        } catch {
            throw AccountAdministrationError(Self.webProblem(error))
        }
        let signedInAgain = onSignedInAgain
        return try await signIns.start(id: id) { show in
            try await oauth.signIn(account, provider: provider, client: client, show: show)
            await signedInAgain?(account.id)
            return .signedIn(accountId: account.id, reauthorized: true,
                             message: "Signed in to \(account.name) (\(account.email)) again with \(provider.name); all its mail stayed on this computer.")
        }
    }

    public func oauthSignInOutcome(id: String, wait: Duration) async -> OAuthSignInOutcome? {
        await signIns.outcome(id: id, wait: wait)
    }

    public func unseenOAuthFailures() async -> [PlainProblem] {
        await signIns.unseenFailures()
    }

    private func signIn(returnTo: URL, id: String) -> OAuthAccountSignIn {
        var back = URLComponents(url: returnTo, resolvingAgainstBaseURL: false)
        let items = back?.queryItems ?? []
        back?.queryItems = items + [URLQueryItem(name: "signin", value: id)]
        return OAuthAccountSignIn(configuration: oauthConfiguration, credentials: credentials, tokens: accessTokens,
                                  browser: NoBrowserLauncher(), timeout: oauthTimeout, returnTo: back?.url ?? returnTo)
    }

    /// An error of a sign-in as the web app says it: its words, and its detail in the web's
    /// words (issue 29).
    static func webProblem(_ error: any Error) -> PlainProblem {
        if let error = error as? AccountAdministrationError { return error.problem }
        return PlainProblem(words: PlainWords.of(error), detail: webWords("\(error)"))
    }

    /// The command line's words for the web app: no options, no commands to run.
    static func webWords(_ text: String) -> String {
        text.replacingOccurrences(of: "give --oauth-client-id, or set it", with: "give a client ID, or set it")
            .replacingOccurrences(of: "run the command again", with: "try again")
    }
}

/// The sign-ins the web app started: each runs on its own until the browser comes back (or
/// it times out); its outcome is kept for the page the browser returns to.
actor OAuthSignIns {
    private var running: [String: Task<OAuthSignInOutcome, Never>] = [:]
    private var seen: Set<String> = []
    private var failures: [String: PlainProblem] = [:]

    /// A random name for a sign-in (it names no secret: the state and verifier stay inside).
    static func newID() -> String { PKCE.randomToken(bytes: 12) }

    /// Runs `body` in the background and returns once it showed the consent URL (or failed before).
    func start(id: String, _ body: @escaping @Sendable (_ show: @escaping @Sendable (URL) async -> Void) async throws -> OAuthSignInOutcome)
        async throws -> OAuthSignInStarted {
        let (urls, continuation) = AsyncThrowingStream.makeStream(of: URL.self)
        let task = Task<OAuthSignInOutcome, Never> {
            do {
                let outcome = try await body { url in
                    continuation.yield(url)
                    continuation.finish()
                }
                continuation.finish()
                return outcome
            } catch {
                continuation.finish(throwing: error)
                let outcome = OAuthSignInOutcome.failed(AccountAdministrator.webProblem(error))
                self.failed(id: id, outcome)
                return outcome
            }
        }
        running[id] = task
        do {
            for try await url in urls { return OAuthSignInStarted(id: id, consentURL: url) }
        } catch {
            throw AccountAdministrationError(AccountAdministrator.webProblem(error))
        }
        throw AccountAdministrationError(PlainProblem(words: "The sign-in did not start. Try again."))
    }

    private func failed(id: String, _ outcome: OAuthSignInOutcome) {
        if case .failed(let message) = outcome, !seen.contains(id) { failures[id] = message }
    }

    func outcome(id: String, wait: Duration) async -> OAuthSignInOutcome? {
        guard let task = running[id] else { return nil }
        seen.insert(id)
        failures[id] = nil
        let waiting = Task<OAuthSignInOutcome?, Never> {
            await withTaskGroup(of: OAuthSignInOutcome?.self) { group in
                group.addTask { await task.value }
                group.addTask {
                    try? await Task.sleep(for: wait)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
        return await waiting.value
    }

    func unseenFailures() -> [PlainProblem] {
        let messages = failures.keys.sorted().compactMap { failures[$0] }
        for id in failures.keys { seen.insert(id) }
        failures = [:]
        return messages
    }
}

/// Why an account could not be added or changed, with what to do: in words, the detail apart.
public struct AccountAdministrationError: Error, CustomStringConvertible, Sendable, PlainWordsError {
    public let problem: PlainProblem
    init(_ problem: PlainProblem) { self.problem = problem }

    public var plainWords: String { problem.words }
    public var description: String { problem.detail ?? problem.words }
}
