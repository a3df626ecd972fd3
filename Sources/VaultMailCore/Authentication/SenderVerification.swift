/// Reads whether the user's own server authenticated a stored message's sender
/// (`SenderAuthenticity`): the message's `Authentication-Results` fields from its stored source,
/// and its account's IMAP host for the names trusted when none is configured (`AuthservTrust`).
public struct SenderVerification: Sendable {
    private let sources: any MessageSourceRepository
    private let accounts: any AccountRepository
    /// The header block is all that is read; 64 KiB holds any real one.
    static let headerBytes = 65_536

    public init(sources: any MessageSourceRepository, accounts: any AccountRepository) {
        self.sources = sources
        self.accounts = accounts
    }

    /// `configured`: the account's authserv-id setting, if any.
    public func authenticity(of email: Email, configured: String?) async -> SenderAuthenticity {
        let host = (try? await accounts.getAccount(id: email.accountId))?.imapHost ?? ""
        let trust = AuthservTrust(imapHost: host, configured: configured)
        guard let raw = try? await sources.rawSource(emailId: email.id) else { return .unchecked(trust: trust) }
        let fields = MessageHeaderFields.values(named: "authentication-results", in: raw.prefix(Self.headerBytes))
        return SenderAuthenticity.of(fromAddress: email.fromAddress, fields: fields, trust: trust)
    }
}
