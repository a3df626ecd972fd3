import Foundation
import VaultMailCore
import VaultMailNotifications

/// A recording notification centre (§8): every call is kept for assertions, posting can be
/// made to fail, and responses can be played back to the delegate.
@MainActor
public final class MockNotificationCenter: NotificationCenterProviding {
    public private(set) var addedRequests: [NotificationRequest] = []
    public private(set) var removedIdentifiers: [String] = []
    public private(set) var removedPendingIdentifiers: [String] = []
    public private(set) var registeredCategories: Set<NotificationCategory> = []
    public private(set) var currentBadgeCount = 0
    public private(set) var badgeHistory: [Int] = []
    public private(set) var authorizationRequests: [NotificationAuthorizationOptions] = []
    /// What `requestAuthorization` grants.
    public var authorizationGranted = true
    public var status: NotificationAuthStatus = .notDetermined
    /// When set, `add` throws it (a notification server that is gone).
    public var addError: (any Error)?
    public private(set) weak var delegate: (any NotificationCenterDelegate)?
    private var delivered: [String: DeliveredNotification] = [:]
    private var deliveryOrder: [String] = []

    public init() {}

    public struct Unavailable: Error, CustomStringConvertible {
        public init() {}
        public var description: String { "no notification server owns org.freedesktop.Notifications" }
    }

    public func requestAuthorization(options: NotificationAuthorizationOptions) async throws -> Bool {
        authorizationRequests.append(options)
        status = authorizationGranted ? .authorized : .denied
        return authorizationGranted
    }

    public func authorizationStatus() async -> NotificationAuthStatus { status }

    public func add(_ request: NotificationRequest) async throws {
        if let addError { throw addError }
        addedRequests.append(request)
        if delivered[request.identifier] == nil { deliveryOrder.append(request.identifier) }
        delivered[request.identifier] = DeliveredNotification(request: request, date: Date())
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
        removedIdentifiers += identifiers
        for identifier in identifiers { delivered[identifier] = nil }
        deliveryOrder.removeAll { delivered[$0] == nil }
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async {
        removedPendingIdentifiers += identifiers
    }

    public func setNotificationCategories(_ categories: Set<NotificationCategory>) async {
        registeredCategories = categories
    }

    public func setBadgeCount(_ count: Int) async throws {
        currentBadgeCount = count
        badgeHistory.append(count)
    }

    public func deliveredNotifications() async -> [DeliveredNotification] {
        deliveryOrder.compactMap { delivered[$0] }
    }

    public func setDelegate(_ delegate: (any NotificationCenterDelegate)?) {
        self.delegate = delegate
    }

    /// Shows a notification as if left over from an earlier run.
    public func preload(_ request: NotificationRequest) {
        deliveryOrder.append(request.identifier)
        delivered[request.identifier] = DeliveredNotification(request: request, date: Date())
    }

    /// Plays a user's response to the notification `identifier` back to the delegate.
    public func respond(to identifier: String, action: String, text: String? = nil) async throws {
        guard let notification = delivered[identifier] ?? addedRequests.last(where: { $0.identifier == identifier })
            .map({ DeliveredNotification(request: $0, date: Date()) }) else {
            throw MockError("no notification \(identifier) was posted")
        }
        guard let delegate else { throw MockError("no delegate is set") }
        await delegate.didReceive(NotificationResponse(actionIdentifier: action, notification: notification, userText: text))
    }

    public struct MockError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
