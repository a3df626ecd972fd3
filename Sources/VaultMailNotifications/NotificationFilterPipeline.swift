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
    private let vipFilter: any NotificationFilter
    private let filters: [any NotificationFilter]

    public init(vipFilter: any NotificationFilter, filters: [any NotificationFilter]) {
        self.vipFilter = vipFilter
        self.filters = filters
    }

    /// The pipeline of the spec, in its order: Account, Spam, FolderType, MutedThread,
    /// Category, QuietHours, FocusMode behind the VIP override.
    public static func standard(settings: SettingsStore, clock: any WallClock) -> NotificationFilterPipeline {
        NotificationFilterPipeline(
            vipFilter: VIPContactFilter(settings: settings),
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
        if await vipFilter.shouldNotify(for: email) { return .notify(rule: .vip) }
        for filter in filters where await !filter.shouldNotify(for: email) {
            return .suppress(rule: filter.rule)
        }
        return .notify(rule: .allFilters)
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
