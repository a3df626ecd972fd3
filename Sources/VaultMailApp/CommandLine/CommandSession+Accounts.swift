import Foundation
import VaultMailCore

extension CommandSession {
    public struct NewAccount: Sendable {
        public var name: String
        public var email: String
        public var imap: String
        public var smtp: String
        public var security: ConnectionSecurity = .tls
        public var user: String?
        public var caFile: String?
        public var syncWindowDays = AppConstants.defaultSyncWindowDays
        public var credential: AccountSecret

        public init(name: String, email: String, imap: String, smtp: String, credential: AccountSecret) {
            self.name = name
            self.email = email
            self.imap = imap
            self.smtp = smtp
            self.credential = credential
        }
    }

    /// `vaultmail account add`: reads the servers and stores the account through `Accounts`
    /// (name, address, keyring). A password goes to the keyring; commands are kept instead.
    public func addAccount(_ new: NewAccount) async throws -> String {
        let imap = try Self.endpoint(new.imap, option: "--imap", defaultPort: new.security == .tls ? 993 : 143, security: new.security)
        let smtp = try Self.endpoint(new.smtp, option: "--smtp", defaultPort: new.security == .tls ? 465 : new.security == .starttls ? 587 : 25,
                                     security: new.security)
        // A relative --ca-file is taken from where the command runs.
        let account = Account(
            name: new.name, email: new.email, imapHost: imap.host, imapPort: imap.port, smtpHost: smtp.host,
            smtpPort: smtp.port, security: new.security, username: new.user ?? new.email,
            caFile: new.caFile.map { URL(fileURLWithPath: $0).path },
            syncWindowDays: new.syncWindowDays)
        let added: Account
        do {
            added = try await accountService.add(account, secret: new.credential)
        } catch {
            throw CommandError.presenting(error)
        }
        return "Added account '\(added.name)' (\(added.email)): IMAP \(imap.host):\(imap.port), SMTP \(smtp.host):\(smtp.port), \(new.security.rawValue)."
    }

    public func listAccounts() async throws -> String {
        let all = try await accountService.all()
        guard !all.isEmpty else { return "No accounts. Add one with `vaultmail account add NAME --email … --imap … --smtp …`." }
        var lines: [String] = []
        let main = try await accountService.defaultAccount()?.id
        for account in all {
            let notify = await notificationSettings.notificationsOn(accountId: account.id) ? "notify on" : "notify off"
            lines.append("\(ThreadRow.pad(account.name, 12)) \(ThreadRow.pad(account.email, 28)) imap \(account.imapHost):\(account.imapPort)  smtp \(account.smtpHost):\(account.smtpPort)  \(account.security.rawValue)  \(notify)"
                + (account.id == main && all.count > 1 ? "  default" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// `vaultmail account default NAME`: new mail is written from it when none is chosen (AC-U-12).
    public func setDefaultAccount(named name: String) async throws -> String {
        let account = try await account(named: name)
        try await accountService.setDefault(accountId: account.id)
        return "New mail is written from \(account.name) (\(account.email)) unless you choose another."
    }

    /// `vaultmail account remove`: the account and everything kept for it (AC-SEC-03), through
    /// `Accounts.remove`, as the web app removes it. A keyring that refused fails the command.
    public func removeAccount(named name: String) async throws -> String {
        let removal = try await accountService.remove(accountId: try await account(named: name).id)
        guard removal.isComplete else { throw CommandError(removal.summary) }
        return removal.summary
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
