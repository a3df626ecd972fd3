/// Servers of well-known mail providers, shipped with VaultMail so that setting up an account
/// asks nothing of anyone (no autoconfig lookup leaves the machine); anything else gets a
/// guess (`imap.DOMAIN`, `smtp.DOMAIN`) the user can correct.
public struct MailProvider: Sendable, Hashable {
    public var name: String
    public var domains: [String]
    public var imapHost: String
    public var imapPort: Int
    public var smtpHost: String
    public var smtpPort: Int
    public var security: ConnectionSecurity
    /// What the user needs to know to sign in (an app password).
    public var note: String?

    public static let known: [MailProvider] = [
        MailProvider(name: "Gmail", domains: ["gmail.com", "googlemail.com"], imapHost: "imap.gmail.com", imapPort: 993,
                     smtpHost: "smtp.gmail.com", smtpPort: 465, security: .tls,
                     note: "Gmail asks for an app password (Google Account → Security → 2-Step Verification → App passwords)."),
        MailProvider(name: "Outlook", domains: ["outlook.com", "hotmail.com", "live.com", "msn.com"], imapHost: "outlook.office365.com",
                     imapPort: 993, smtpHost: "smtp-mail.outlook.com", smtpPort: 587, security: .tls,
                     note: "Outlook.com asks for an app password when two-step verification is on (account.microsoft.com → Security)."),
        MailProvider(name: "Fastmail", domains: ["fastmail.com", "fastmail.fm", "messagingengine.com"], imapHost: "imap.fastmail.com",
                     imapPort: 993, smtpHost: "smtp.fastmail.com", smtpPort: 465, security: .tls,
                     note: "Fastmail asks for an app password (Settings → Privacy & Security → App passwords)."),
        MailProvider(name: "iCloud", domains: ["icloud.com", "me.com", "mac.com"], imapHost: "imap.mail.me.com", imapPort: 993,
                     smtpHost: "smtp.mail.me.com", smtpPort: 587, security: .tls,
                     note: "iCloud asks for an app-specific password (appleid.apple.com → Sign-In and Security). The user name is the part before @."),
        MailProvider(name: "Yahoo", domains: ["yahoo.com", "ymail.com", "rocketmail.com"], imapHost: "imap.mail.yahoo.com", imapPort: 993,
                     smtpHost: "smtp.mail.yahoo.com", smtpPort: 465, security: .tls,
                     note: "Yahoo asks for an app password (Account security → Generate app password)."),
    ]

    /// The provider of `address`'s domain, or the generic guess for it.
    public static func forAddress(_ address: String) -> MailProvider {
        let domain = address.split(separator: "@").last.map { $0.lowercased() } ?? ""
        if let known = known.first(where: { $0.domains.contains(domain) }) { return known }
        return MailProvider(name: "Other", domains: [domain], imapHost: "imap.\(domain)", imapPort: 993,
                            smtpHost: "smtp.\(domain)", smtpPort: 465, security: .tls, note: nil)
    }

    /// The user name the provider expects for `address`.
    public func username(for address: String) -> String {
        name == "iCloud" ? String(address.split(separator: "@").first ?? "") : address
    }

    public var isGeneric: Bool { name == "Other" }
}
