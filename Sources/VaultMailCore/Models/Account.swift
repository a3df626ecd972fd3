import Foundation

/// A configured mail account: where its servers are and how to reach them.
/// Secrets (passwords, tokens) are never part of this value (AC-SEC-02); they come from a
/// `CredentialStore` or a command named by `credentialCommand`.
public struct Account: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    /// The short name the user gives the account (`vaultmail account add NAME`); unique.
    public var name: String
    public var email: String
    public var displayName: String?
    public var imapHost: String
    public var imapPort: Int
    public var smtpHost: String
    public var smtpPort: Int
    public var security: ConnectionSecurity
    /// The login name; defaults to the email address.
    public var username: String
    public var authMethod: AuthMethod
    /// A shell command that prints the password or access token (like mbsync's `PassCmd`).
    /// `nil` when the secret lives in the Secret Service.
    public var credentialCommand: String?
    /// A PEM file of CA certificates to trust for this account in addition to the system store.
    public var caFile: String?
    public var syncWindowDays: Int
    public var isActive: Bool
    public var createdAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(),
        name: String,
        email: String,
        displayName: String? = nil,
        imapHost: String,
        imapPort: Int = 993,
        smtpHost: String,
        smtpPort: Int = 465,
        security: ConnectionSecurity = .tls,
        username: String? = nil,
        authMethod: AuthMethod = .password,
        credentialCommand: String? = nil,
        caFile: String? = nil,
        syncWindowDays: Int = AppConstants.defaultSyncWindowDays,
        isActive: Bool = true,
        createdAt: Date = Date()
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.displayName = displayName
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.security = security
        self.username = username ?? email
        self.authMethod = authMethod
        self.credentialCommand = credentialCommand
        self.caFile = caFile
        self.syncWindowDays = syncWindowDays
        self.isActive = isActive
        self.createdAt = createdAt
    }

    /// Gmail files sent mail itself and archives by removing the Inbox label.
    public var isGmail: Bool {
        let host = imapHost.lowercased()
        return host == "imap.gmail.com" || host.hasSuffix(".gmail.com") || host == "imap.googlemail.com"
    }
}

extension Account {
    /// Whether the account's sync window is "all mail" (`AppConstants.allMailSyncWindowDays`
    /// or more): sync then reaches back without a date limit.
    public var syncsAllMail: Bool { syncWindowDays >= AppConstants.allMailSyncWindowDays }
}
