import Foundation
import VaultMailNotifications

/// Which notifications are live on the server: one per thread, holding that thread's
/// requests newest first, and the maps request id ↔ server id and thread ↔ server id.
struct NotificationGroups: Codable {
    private var requestsByServerId: [UInt32: [NotificationRequest]] = [:]
    private var serverIdByThread: [String: UInt32] = [:]
    private var serverIdByRequest: [String: UInt32] = [:]

    /// The group `request` joins (newest first) and the server id it replaces (0 for new).
    func adding(_ request: NotificationRequest) -> (group: [NotificationRequest], replacesId: UInt32) {
        let threadId = request.content.threadIdentifier
        guard let serverId = serverIdByThread[threadId], let existing = requestsByServerId[serverId] else {
            return ([request], 0)
        }
        let group = (existing.filter { $0.identifier != request.identifier } + [request]).sorted(by: Self.newestFirst)
        return (group, serverId)
    }

    /// Records what the server now shows under `serverId` (which may differ from `replaced`).
    mutating func record(_ group: [NotificationRequest], threadId: String, serverId: UInt32, replaced: UInt32) {
        if replaced != 0, replaced != serverId { closed(serverId: replaced) }
        requestsByServerId[serverId] = group
        serverIdByThread[threadId] = serverId
        for request in group { serverIdByRequest[request.identifier] = serverId }
    }

    /// Takes the requests out of their groups; returns each touched group's server id with
    /// the requests it has left (empty: close it).
    mutating func removing(_ identifiers: [String]) -> [(UInt32, [NotificationRequest])] {
        var touched: [UInt32: Set<String>] = [:]
        for identifier in identifiers {
            if let serverId = serverIdByRequest.removeValue(forKey: identifier) { touched[serverId, default: []].insert(identifier) }
        }
        return touched.sorted { $0.key < $1.key }.map { serverId, removed in
            let remaining = (requestsByServerId[serverId] ?? []).filter { !removed.contains($0.identifier) }
            if remaining.isEmpty { closed(serverId: serverId) } else { requestsByServerId[serverId] = remaining }
            return (serverId, remaining)
        }
    }

    /// The server closed (or replaced) a notification.
    mutating func closed(serverId: UInt32) {
        guard let group = requestsByServerId.removeValue(forKey: serverId) else { return }
        for request in group where serverIdByRequest[request.identifier] == serverId {
            serverIdByRequest[request.identifier] = nil
        }
        for (thread, id) in serverIdByThread where id == serverId { serverIdByThread[thread] = nil }
    }

    mutating func reset() { self = NotificationGroups() }

    var isEmpty: Bool { requestsByServerId.isEmpty }

    func newest(serverId: UInt32) -> NotificationRequest? { requestsByServerId[serverId]?.first }

    var delivered: [DeliveredNotification] {
        requestsByServerId.keys.sorted().flatMap { serverId in
            (requestsByServerId[serverId] ?? []).map { DeliveredNotification(request: $0, date: $0.content.date ?? Date()) }
        }
    }

    private static func newestFirst(_ a: NotificationRequest, _ b: NotificationRequest) -> Bool {
        (a.content.date ?? .distantPast) > (b.content.date ?? .distantPast)
    }
}
