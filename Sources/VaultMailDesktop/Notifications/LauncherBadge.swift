import Foundation

/// The launcher badge over `com.canonical.Unity.LauncherEntry` (read by KDE, Dash to Dock,
/// Plank): an `Update` signal when the count changes, and an answer to `Query` so a dock
/// started later shows the current count.
final class LauncherBadge: Sendable {
    static let interface = "com.canonical.Unity.LauncherEntry"
    let appURI: String
    let path: String
    private let count = LockedCount()

    init(desktopEntry: String, path: String) {
        appURI = "application://\(desktopEntry).desktop"
        self.path = path
    }

    var current: Int { count.value }

    func set(_ value: Int) { count.value = value }

    /// `Update`'s and `Query`'s two values: the app URI and the properties.
    func arguments() -> [DBusValue] {
        let value = count.value
        return [.string(appURI), .vardict([("count", .int64(Int64(value))), ("count-visible", .bool(value > 0))])]
    }

    /// Answers `Query`; anything else is not ours.
    func handle(_ call: DBusMethodCall) -> DBusMethodResult {
        guard call.interface == Self.interface || call.interface.isEmpty, call.member == "Query" else { return .notHandled }
        return .reply(arguments())
    }
}

/// An integer read on the bus thread and written on the main actor.
private final class LockedCount: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored = 0

    var value: Int {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
