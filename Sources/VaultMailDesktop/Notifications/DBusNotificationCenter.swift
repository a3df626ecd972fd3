import Foundation
import Observation
import VaultMailCore
import VaultMailNotifications

/// The Linux `NotificationCenterProviding`: the freedesktop Desktop Notifications protocol on
/// the session bus, one live notification per thread (replaced in place), the launcher
/// badge, and the server's signals turned into responses for the delegate.
///
/// Failures never stall or crash the engine: no bus, no server and a hung server each fail
/// fast with a `DesktopNotificationError` saying so, and posting resumes once a server
/// appears (`NameOwnerChanged`).
@MainActor
@Observable
public final class DBusNotificationCenter: NotificationCenterProviding {
    public struct Configuration: Sendable {
        public var appName = "VaultMail"
        public var appIcon = "mail-message-new"
        /// The `.desktop` file's name without extension (`desktop-entry` hint, badge URI).
        public var desktopEntry = "vaultmail"
        /// How long to wait for the notification server; past it the call fails.
        public var callTimeout: Duration = .seconds(2)
        /// After a timeout, posts fail at once for this long before the server is tried again.
        public var unresponsiveBackoff: Duration = .seconds(30)
        /// The bus to use; nil for the session bus found in `environment`.
        public var busAddress: String?
        /// Where the session bus is looked up when `busAddress` is nil.
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        public var launcherPath = "/com/vaultmail/LauncherEntry"
        /// Where the notifications on screen are remembered, so that after a restart their
        /// actions still work (a click opens the conversation, AC-N-20) and mail read since
        /// withdraws them; nil remembers nothing.
        public var rememberedIn: URL?

        public init() {}
    }

    public struct ServerInformation: Sendable, Equatable {
        public var name: String
        public var vendor: String
        public var version: String
        public var specVersion: String
    }

    public private(set) var capabilities: Set<String> = []
    public private(set) var serverInformation: ServerInformation?
    public private(set) var lastError: DesktopNotificationError?
    public var badgeCount: Int { badge.current }

    @ObservationIgnored private let configuration: Configuration
    /// When set, authorization is `.denied` while the user has turned notifications off.
    @ObservationIgnored public let settings: SettingsStore?
    @ObservationIgnored private weak var delegate: (any NotificationCenterDelegate)?
    @ObservationIgnored private var connection: DBusConnection?
    @ObservationIgnored private var connecting: Task<DBusConnection, any Error>?
    @ObservationIgnored private var signalTask: Task<Void, Never>?
    @ObservationIgnored private var status: NotificationAuthStatus = .notDetermined
    @ObservationIgnored private var serverOwner: String?
    @ObservationIgnored private var unresponsiveUntil: ContinuousClock.Instant?
    @ObservationIgnored private var groups = NotificationGroups()
    @ObservationIgnored private let badge: LauncherBadge

    /// `settings`, when given, makes authorization `.denied` while the user has turned
    /// notifications off.
    public init(configuration: Configuration = Configuration(), settings: SettingsStore? = nil) {
        self.configuration = configuration
        self.settings = settings
        badge = LauncherBadge(desktopEntry: configuration.desktopEntry, path: configuration.launcherPath)
    }

    /// The unique bus name this centre uses (for tests and the dock's `Query`).
    public func uniqueBusName() async throws -> String {
        try await connect().uniqueName()
    }

    // MARK: - NotificationCenterProviding

    public func requestAuthorization(options: NotificationAuthorizationOptions) async throws -> Bool {
        try await refreshServer()
        return await authorizationStatus() == .authorized
    }

    public func authorizationStatus() async -> NotificationAuthStatus {
        if settings?.notificationsEnabled == false { return .denied }
        return status
    }

    public func add(_ request: NotificationRequest) async throws {
        let connection = try await connect()
        if let until = unresponsiveUntil, ContinuousClock.now < until {
            throw fail(.serverTimeout(seconds: configuration.callTimeout / .seconds(1)))
        }
        if serverOwner == nil { try await refreshServer() }
        guard serverOwner != nil else { throw fail(.noServer) }
        let (group, replacesId) = groups.adding(request)
        let arguments = FreedesktopNotification.arguments(for: group, replacing: replacesId, options: options)
        let serverId = try await notify(connection, arguments)
        groups.record(group, threadId: request.content.threadIdentifier, serverId: serverId, replaced: replacesId)
        remember()
        lastError = nil
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
        for (serverId, remaining) in groups.removing(identifiers) {
            do {
                let connection = try await connect()
                if remaining.isEmpty {
                    _ = try await connection.call(
                        destination: FreedesktopNotification.service, path: FreedesktopNotification.path,
                        interface: FreedesktopNotification.interface, member: "CloseNotification",
                        arguments: [.uint32(serverId)], timeout: configuration.callTimeout)
                } else {
                    let arguments = FreedesktopNotification.arguments(for: remaining, replacing: serverId, options: options)
                    let newId = try await notify(connection, arguments)
                    groups.record(remaining, threadId: remaining[0].content.threadIdentifier, serverId: newId, replaced: serverId)
                }
            } catch {
                _ = fail(map(error))
            }
        }
        remember()
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async {
        // Notifications are posted at once: nothing is ever pending.
    }

    public func setNotificationCategories(_ categories: Set<NotificationCategory>) async {
        // The freedesktop protocol sends actions with each notification (see `FreedesktopNotification.actions`).
    }

    public func setBadgeCount(_ count: Int) async throws {
        badge.set(count)
        let connection = try await connect()
        do {
            try await connection.emitSignal(path: badge.path, interface: LauncherBadge.interface, member: "Update",
                                            arguments: badge.arguments())
        } catch {
            throw fail(map(error))
        }
    }

    public func deliveredNotifications() async -> [DeliveredNotification] {
        groups.delivered
    }

    public func setDelegate(_ delegate: (any NotificationCenterDelegate)?) {
        self.delegate = delegate
    }

    // MARK: - The connection and the server

    private var options: FreedesktopNotification.Options {
        .init(appName: configuration.appName, appIcon: configuration.appIcon,
              desktopEntry: configuration.desktopEntry, capabilities: capabilities)
    }

    /// The open connection, opening it (with its subscriptions and the badge object) when
    /// there is none or the bus went away.
    private func connect() async throws -> DBusConnection {
        if let connection, await connection.isConnected { return connection }
        if let connecting { return try await connecting.value }
        let task = Task { try await self.openConnection() }
        connecting = task
        defer { connecting = nil }
        return try await task.value
    }

    private func openConnection() async throws -> DBusConnection {
        signalTask?.cancel()
        do {
            let address = try configuration.busAddress ?? DBusConnection.sessionBusAddress(environment: configuration.environment)
            let connection = try await DBusConnection.connect(address: address)
            try await connection.subscribe(match: "type='signal',interface='\(FreedesktopNotification.interface)'")
            try await connection.subscribe(match: """
                type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',\
                member='NameOwnerChanged',arg0='\(FreedesktopNotification.service)'
                """)
            let badge = badge
            try await connection.export(path: badge.path) { badge.handle($0) }
            self.connection = connection
            serverOwner = nil
            groups.reset()
            signalTask = Task { [weak self] in
                for await signal in connection.signals {
                    await self?.handle(signal)
                }
            }
            return connection
        } catch {
            status = .denied
            throw fail(map(error))
        }
    }

    /// Asks who owns the notification name and, when someone does, what it can do.
    private func refreshServer() async throws {
        let connection = try await connect()
        do {
            let reply = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(FreedesktopNotification.service)], timeout: configuration.callTimeout)
            serverOwner = reply.first?.stringValue
            recall()
        } catch DBusError.remote(name: "org.freedesktop.DBus.Error.NameHasNoOwner", _, _) {
            serverGone()
            return
        } catch {
            throw fail(map(error))
        }
        do {
            let caps = try await callServer(connection, "GetCapabilities")
            capabilities = Set(caps.first?.arrayValue?.compactMap(\.stringValue) ?? [])
            let info = try await callServer(connection, "GetServerInformation")
            if info.count == 4 {
                serverInformation = ServerInformation(name: info[0].stringValue ?? "", vendor: info[1].stringValue ?? "",
                                                      version: info[2].stringValue ?? "", specVersion: info[3].stringValue ?? "")
            }
            status = .authorized
            unresponsiveUntil = nil
        } catch {
            throw fail(map(error))
        }
    }

    private func callServer(_ connection: DBusConnection, _ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await connection.call(destination: FreedesktopNotification.service, path: FreedesktopNotification.path,
                                  interface: FreedesktopNotification.interface, member: member,
                                  arguments: arguments, timeout: configuration.callTimeout)
    }

    private func notify(_ connection: DBusConnection, _ arguments: [DBusValue]) async throws -> UInt32 {
        do {
            let reply = try await callServer(connection, "Notify", arguments)
            guard let id = reply.first?.uint32Value else {
                throw DBusError.unexpectedReply(member: "Notify", signature: reply.map(\.signature).joined())
            }
            return id
        } catch {
            throw fail(map(error))
        }
    }

    // MARK: - Signals

    private func handle(_ signal: DBusSignal) async {
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard signal.arguments.count == 3, signal.arguments[0].stringValue == FreedesktopNotification.service else { return }
            // Server ids do not survive a server restart: forget them.
            groups.reset()
            remember()
            unresponsiveUntil = nil
            let newOwner = signal.arguments[2].stringValue ?? ""
            if newOwner.isEmpty {
                serverGone()
            } else {
                try? await refreshServer()
            }
        case ("org.freedesktop.DBus.Local", "Disconnected"):
            connection = nil
            serverOwner = nil
            groups.reset()
        case (FreedesktopNotification.interface, let member):
            guard let owner = serverOwner, signal.sender == owner,
                  let serverId = signal.arguments.first?.uint32Value,
                  let newest = groups.newest(serverId: serverId) else { return }  // another application's notification
            switch member {
            case "ActionInvoked":
                let key = signal.arguments.dropFirst().first?.stringValue ?? ""
                guard key != FreedesktopNotification.inlineReplyKey else { return }
                if let suggestion = FreedesktopNotification.suggestion(for: key, in: newest.content) {
                    await respond(AppConstants.notificationActionReply, newest, text: suggestion)
                    return
                }
                let action = key == FreedesktopNotification.defaultActionKey ? NotificationResponse.defaultActionIdentifier : key
                await respond(action, newest, text: nil)
            case "NotificationReplied":
                await respond(AppConstants.notificationActionReply, newest, text: signal.arguments.dropFirst().first?.stringValue)
            case "NotificationClosed":
                groups.closed(serverId: serverId)
                remember()
            default:
                break
            }
        default:
            break
        }
    }

    private func respond(_ action: String, _ request: NotificationRequest, text: String?) async {
        let notification = DeliveredNotification(request: request, date: request.content.date ?? Date())
        await delegate?.didReceive(NotificationResponse(actionIdentifier: action, notification: notification, userText: text))
    }

    // MARK: - Across restarts

    /// Writes down what the server shows now (see `Configuration.rememberedIn`).
    private func remember() {
        guard let file = configuration.rememberedIn else { return }
        do {
            try RememberedNotifications(server: serverOwner ?? "", groups: groups).save(to: file)
        } catch {
            lastError = .serverError("cannot remember the notifications shown in \(file.path): \(error)")
        }
    }

    /// Takes in the notifications an earlier run posted, when this server showed them.
    private func recall() {
        guard groups.isEmpty, let file = configuration.rememberedIn, let owner = serverOwner,
              let remembered = RememberedNotifications.load(from: file, server: owner) else { return }
        groups = remembered
    }

    // MARK: - Errors

    private func map(_ error: any Error) -> DesktopNotificationError {
        switch error {
        case let error as DesktopNotificationError:
            return error
        case let error as DBusError:
            switch error {
            case .noSessionBus, .connectFailed, .disconnected: return .noSessionBus(error.description)
            case .timeout(_, _, let seconds):
                unresponsiveUntil = ContinuousClock.now.advanced(by: configuration.unresponsiveBackoff)
                return .serverTimeout(seconds: seconds)
            case .remote(let name, _, _) where name.hasSuffix("ServiceUnknown") || name.hasSuffix("NameHasNoOwner"):
                serverGone()
                return .noServer
            default: return .serverError(error.description)
            }
        default:
            return .serverError("\(error)")
        }
    }

    /// No notification server owns the name any more: what it said about itself is stale.
    private func serverGone() {
        serverOwner = nil
        capabilities = []
        serverInformation = nil
        status = .denied
    }

    private func fail(_ error: DesktopNotificationError) -> DesktopNotificationError {
        lastError = error
        return error
    }
}
