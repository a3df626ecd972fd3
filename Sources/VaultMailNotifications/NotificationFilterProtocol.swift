import VaultMailCore

/// One rule of the filter pipeline (NOTIF-07). Filters read `SettingsStore`, so they live
/// on the main actor.
@MainActor
public protocol NotificationFilter {
    /// The rule named in the decision log when this filter says no.
    var rule: NotificationRule { get }
    func shouldNotify(for email: Email) async -> Bool
}
