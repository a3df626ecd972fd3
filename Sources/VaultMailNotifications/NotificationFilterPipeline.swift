import VaultMailCore

/// What the pipeline says about one email.
public enum FilterVerdict: Sendable, Equatable {
    /// Notify; `rule` is `.vip` when the VIP override decided, else `.allFilters`.
    case notify(rule: NotificationRule)
    /// Do not notify, because of `rule`.
    case suppress(rule: NotificationRule)

    public var shouldNotify: Bool {
        if case .notify = self { true } else { false }
    }
}

/// NOTIF-07: the VIP override first, then every other filter in order (cheapest first),
/// stopping at the first that says no.
@MainActor
public final class NotificationFilterPipeline {
    private let vipFilter: VIPContactFilter
    private let filters: [any NotificationFilter]

    public init(vipFilter: VIPContactFilter, filters: [any NotificationFilter]) {
        self.vipFilter = vipFilter
        self.filters = filters
    }

    /// The pipeline of the spec, in its order: Account, Spam, FolderType, MutedThread,
    /// Category, QuietHours, FocusMode behind the VIP override (which, given `verification`,
    /// needs the sender authenticated by the user's server: issue 33).
    public static func standard(settings: SettingsStore, clock: any WallClock,
                                verification: SenderVerification? = nil) -> NotificationFilterPipeline {
        NotificationFilterPipeline(
            vipFilter: VIPContactFilter(settings: settings, verification: verification),
            filters: [
                AccountNotificationFilter(settings: settings),
                SpamNotificationFilter(),
                FolderTypeNotificationFilter(),
                MutedThreadFilter(settings: settings),
                CategoryNotificationFilter(settings: settings),
                QuietHoursFilter(settings: settings, clock: clock),
                FocusModeFilter(),
            ])
    }

    public func evaluate(_ email: Email) async -> FilterVerdict {
        await evaluateExplained(email).verdict
    }

    /// The verdict and, for mail from a VIP address, what the user's server said of its sender
    /// (the decision's detail, which `notify why` prints).
    public func evaluateExplained(_ email: Email) async -> (verdict: FilterVerdict, detail: String?) {
        var note: String?
        switch await vipFilter.check(email) {
        case .notVIP: break
        case .breaksThrough(let detail): return (.notify(rule: .vip), detail)
        case .treatedAsAnyone(let detail): note = detail
        }
        for filter in filters where await !filter.shouldNotify(for: email) {
            return (.suppress(rule: filter.rule), note)
        }
        return (.notify(rule: .allFilters), note)
    }

    /// The emails that should notify, in the given order.
    public func filter(_ emails: [Email]) async -> [Email] {
        var passing: [Email] = []
        for email in emails where await evaluate(email).shouldNotify {
            passing.append(email)
        }
        return passing
    }
}
