import Foundation
import VaultMailCore

extension CommandSession {
    public enum CredentialSource: Sendable {
        case passwordCommand(String)
        case oauth2TokenCommand(String)
        /// A password to keep in the Secret Service.
        case password(String)
    }

    public struct NewAccount: Sendable {
        public var name: String
        public var email: String
        public var imap: String
        public var smtp: String
        public var security: ConnectionSecurity = .tls
        public var user: String?
        public var caFile: String?
        public var syncWindowDays = AppConstants.defaultSyncWindowDays
        public var credential: CredentialSource

        public init(name: String, email: String, imap: String, smtp: String, credential: CredentialSource) {
            self.name = name
            self.email = email
            self.imap = imap
            self.smtp = smtp
            self.credential = credential
        }
    }

    /// `vaultmail account add`: validates and stores the account. Secrets are not stored:
    /// the command that prints them is.
    public func addAccount(_ new: NewAccount) async throws -> String {
        guard !new.name.isEmpty, new.name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw CommandError("account names use letters, digits, '-', '_' and '.' only", usage: true)
        }
        do {
            try EmailAddress.validate(new.email, field: "--email")
        } catch {
            throw CommandError("\(error)", usage: true)
        }
        guard (1...AppConstants.allMailSyncWindowDays).contains(new.syncWindowDays) else {
            throw CommandError("--sync-window-days must be between 1 and \(AppConstants.allMailSyncWindowDays), or 'all'", usage: true)
        }
        let imap = try Self.endpoint(new.imap, option: "--imap", defaultPort: new.security == .tls ? 993 : 143, security: new.security)
        let smtp = try Self.endpoint(new.smtp, option: "--smtp", defaultPort: new.security == .tls ? 465 : new.security == .starttls ? 587 : 25,
                                     security: new.security)
        if let caFile = new.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw CommandError("--ca-file \(caFile) cannot be read", usage: true)
        }
        let (method, command): (AuthMethod, String?) = switch new.credential {
        case .passwordCommand(let command): (.password, command)
        case .oauth2TokenCommand(let command): (.oauth2, command)
        case .password: (.password, nil)
        }
        let account = Account(
            name: new.name, email: new.email, imapHost: imap.host, imapPort: imap.port, smtpHost: smtp.host,
            smtpPort: smtp.port, security: new.security, username: new.user ?? new.email, authMethod: method,
            credentialCommand: command, caFile: new.caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
            syncWindowDays: new.syncWindowDays)
        if try await accounts.getAccount(named: account.name) != nil {
            throw CommandError("an account named '\(account.name)' already exists; `vaultmail account remove \(account.name)` first, or choose another name")
        }
        if case .password(let password) = new.credential {
            guard !password.isEmpty else { throw CommandError("the password read from standard input is empty", usage: true) }
            do {
                try await credentials.storeSecret(password, for: account)
            } catch {
                throw CommandError("cannot keep the password: \(error)")
            }
        }
        do {
            try await accounts.addAccount(account)
        } catch {
            try? await credentials.deleteSecret(for: account)
            throw error
        }
        return "Added account '\(account.name)' (\(account.email)): IMAP \(imap.host):\(imap.port), SMTP \(smtp.host):\(smtp.port), \(new.security.rawValue)."
    }

    public func listAccounts() async throws -> String {
        let all = try await accounts.getAccounts()
        guard !all.isEmpty else { return "No accounts. Add one with `vaultmail account add NAME --email … --imap … --smtp …`." }
        return all.map { account in
            let notify = settings.notificationsEnabled(for: account.id) ? "notify on" : "notify off"
            return "\(ThreadRow.pad(account.name, 12)) \(ThreadRow.pad(account.email, 28)) imap \(account.imapHost):\(account.imapPort)  smtp \(account.smtpHost):\(account.smtpPort)  \(account.security.rawValue)  \(notify)"
        }.joined(separator: "\n")
    }

    /// `vaultmail account remove`: the account and everything stored for it (AC-SEC-03).
    public func removeAccount(named name: String) async throws -> String {
        let account = try await account(named: name)
        let revoked = await revokeSignIn(of: account)
        try await accounts.removeAccount(id: account.id)
        var text = "Removed account '\(name)' and all its mail, folders and settings from this machine."
        if account.credentialCommand == nil {
            do {
                try await credentials.deleteSecret(for: account)
                text += account.authMethod == .oauth2 ? " Its sign-in was removed from the keyring." : " Its password was removed from the keyring."
                if let revoked { text += " " + revoked }
            } catch {
                throw CommandError("removed the account's data, but not its password from the keyring: \(error); remove it with `secret-tool clear application vaultmail account-id \(account.id)`")
            }
        }
        return text
    }

    /// HOST or HOST:PORT (IPv6 in brackets); plain connections only to loopback.
    static func endpoint(_ text: String, option: String, defaultPort: Int, security: ConnectionSecurity) throws -> (host: String, port: Int) {
        var host = text
        var port = defaultPort
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { port = try parsePort(String(rest.dropFirst()), option) }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            port = try parsePort(String(text[text.index(after: colon)...]), option)
        }
        guard !host.isEmpty else { throw CommandError("\(option) needs a host name, as HOST or HOST:PORT", usage: true) }
        if security == .plain, !ConnectionSecurity.isLoopback(host) {
            throw CommandError("--security plain is only allowed to loopback (127.0.0.1, ::1, localhost): passwords would cross the network unencrypted; use tls or starttls", usage: true)
        }
        return (host, port)
    }

    private static func parsePort(_ text: String, _ option: String) throws -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw CommandError("\(option): '\(text)' is not a port number (1–65535)", usage: true)
        }
        return port
    }
}
