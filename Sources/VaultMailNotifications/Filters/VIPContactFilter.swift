import VaultMailCore

/// NOTIF-10: mail from a VIP skips every other filter — since issue 33 only when the user's
/// own server authenticated the sender (`SenderVerification`: its `Authentication-Results`
/// say DMARC, or aligned DKIM or SPF, passed), so a forged VIP address never breaks through
/// quiet hours. Mail whose server wrote no results it trusts, when no authserv-id is
/// configured for the account, is let through as before and its decision says it was not
/// checked.
@MainActor
public struct VIPContactFilter: NotificationFilter {
    public let rule = NotificationRule.vip
    private let settings: SettingsStore
    private let verification: SenderVerification?

    /// What the filter found.
    public enum Finding: Sendable, Equatable {
        case notVIP
        /// A VIP whose mail skips every other filter; the words say what the server found.
        case breaksThrough(String?)
        /// A VIP address whose sender was not authenticated: the mail meets every filter.
        case treatedAsAnyone(String)
    }

    /// Without `verification`, a VIP address is enough (the engine's unit tests, benchmarks).
    public init(settings: SettingsStore, verification: SenderVerification? = nil) {
        self.settings = settings
        self.verification = verification
    }

    public func shouldNotify(for email: Email) async -> Bool {
        if case .breaksThrough = await check(email) { return true }
        return false
    }

    public func check(_ email: Email) async -> Finding {
        guard settings.isVIP(email.fromAddress) else { return .notVIP }
        guard let verification else { return .breaksThrough(nil) }
        let found = await verification.authenticity(of: email, configured: settings.authservIds[email.accountId])
        switch found {
        case .authenticated:
            return .breaksThrough("the VIP sender was \(found.explanation)")
        case .unchecked(let trust) where !trust.isConfigured:
            return .breaksThrough("the VIP sender could not be checked: \(found.explanation) (name the server with `vaultmail notify authserv ACCOUNT NAME` to insist on it)")
        case .unchecked, .failed:
            return .treatedAsAnyone("the sender's address is a VIP's, but it was \(found.explanation), so it was treated like anyone's mail")
        }
    }
}
