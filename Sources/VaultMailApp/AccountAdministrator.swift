import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailStore

/// `AccountAdministration` over the store, the Secret Service and the mail servers: what the
/// web app's onboarding and account settings (and `vaultmail account`) do to accounts.
public struct AccountAdministrator: AccountAdministration {
    let accounts: any AccountRepository
    let credentials: any CredentialStore
    let settings: SettingsStore
    let timeout: Duration

    public init(database: AppDatabase, credentials: any CredentialStore, settings: SettingsStore, timeout: Duration = .seconds(20)) {
        accounts = GRDBAccountRepository(database: database)
        self.credentials = credentials
        self.settings = settings
        self.timeout = timeout
    }

    public func check(_ account: Account, secret: AccountSecret) async -> ConnectionCheck {
        var steps: [ConnectionCheck.Step] = []
        let password: String
        do {
            password = try await Self.resolve(secret, account: account, credentials: credentials)
        } catch {
            return ConnectionCheck(steps: [.init(name: "Password", passed: false, detail: "\(error)")])
        }
        let imap: IMAPConnection
        do {
            imap = try IMAPConnection(endpoint: IMAPEndpoint(account: account, connectTimeout: timeout, readTimeout: timeout))
        } catch {
            return ConnectionCheck(steps: [.init(name: "IMAP settings", passed: false, detail: "\(error)")])
        }
        let imapAddress = "IMAP \(account.imapHost):\(account.imapPort)"
        if await step(&steps, "Connect to \(imapAddress) (\(account.security.rawValue))", { try await imap.connect() }),
           await step(&steps, "Sign in to \(imapAddress) as \(account.username)", { try await imap.login(user: account.username, password: password) }) {
            await imap.logout()
        } else {
            await imap.disconnect()
            return ConnectionCheck(steps: steps)
        }
        let smtpEndpoint = SMTPEndpoint(account: account, connectTimeout: timeout, readTimeout: timeout)
        let smtp = SMTPConnection(endpoint: smtpEndpoint)
        let smtpAddress = "SMTP \(account.smtpHost):\(account.smtpPort)"
        if await step(&steps, "Connect to \(smtpAddress) (\(smtpEndpoint.security.rawValue))", { try await smtp.connect() }),
           await step(&steps, "Sign in to \(smtpAddress) as \(account.username)", { try await smtp.login(user: account.username, password: password) }) {
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
            steps.append(.init(name: name, passed: true, detail: "OK"))
            return true
        } catch {
            steps.append(.init(name: name, passed: false, detail: "\(error)"))
            return false
        }
    }

    /// The password: as given, or what the command prints.
    static func resolve(_ secret: AccountSecret, account: Account, credentials: any CredentialStore) async throws -> String {
        switch secret {
        case .password(let password):
            return password
        case .passwordCommand(let command):
            var withCommand = account
            withCommand.credentialCommand = command
            return try await AccountCredentials(store: credentials).secret(for: withCommand)
        }
    }

    public func add(_ account: Account, secret: AccountSecret) async throws {
        var account = account
        if try await accounts.getAccount(named: account.name) != nil {
            throw AccountAdministrationError("an account named '\(account.name)' already exists; choose another name")
        }
        switch secret {
        case .passwordCommand(let command):
            account.credentialCommand = command
        case .password(let password):
            account.credentialCommand = nil
            do {
                try await credentials.storeSecret(password, for: account)
            } catch {
                throw AccountAdministrationError(
                    "VaultMail cannot keep the password: no Secret Service (GNOME Keyring, KeePassXC) answered (\(error)). "
                        + "Start one and try again, or give a password command instead, such as `pass show mail/\(account.email)`.")
            }
        }
        do {
            try await accounts.addAccount(account)
        } catch {
            if case .password = secret { try? await credentials.deleteSecret(for: account) }
            throw error
        }
    }

    public func update(_ account: Account) async throws {
        if let other = try await accounts.getAccount(named: account.name), other.id != account.id {
            throw AccountAdministrationError("an account named '\(account.name)' already exists; choose another name")
        }
        try await accounts.updateAccount(account)
    }

    public func remove(accountId: String) async throws -> String? {
        guard let account = try await accounts.getAccount(id: accountId) else { return nil }
        try await accounts.removeAccount(id: accountId)
        await MainActor.run { settings.setSignature("", for: accountId) }
        guard account.credentialCommand == nil else { return nil }
        do {
            try await credentials.deleteSecret(for: account)
            return nil
        } catch {
            return "its password could not be removed from the keyring (\(error)); remove it with `secret-tool clear application vaultmail account-id \(account.id)`"
        }
    }
}

/// Why an account could not be added or changed, with what to do.
public struct AccountAdministrationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
