/// The email ids already notified in this session (NOTIF-17), bounded: past `capacity` the
/// oldest id is evicted first (NFR-NOTIF-03). Lookup and insertion are O(1).
public struct DeliveredNotificationIds: Sendable {
    public let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var head = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a dedup set needs room for at least one id")
        self.capacity = capacity
    }

    public var count: Int { members.count }

    public func contains(_ id: String) -> Bool { members.contains(id) }

    /// Adds `id`, evicting the oldest when full; false when it was already there.
    @discardableResult
    public mutating func insert(_ id: String) -> Bool {
        guard members.insert(id).inserted else { return false }
        order.append(id)
        while members.count > capacity {
            members.remove(order[head])
            head += 1
        }
        if head > 4096, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return true
    }

    /// Forgets `id` (a post that failed).
    public mutating func remove(_ id: String) {
        guard members.remove(id) != nil else { return }
        if let index = order[head...].firstIndex(of: id) { order.remove(at: index) }
    }

    /// The ids, oldest first.
    public var orderedIds: [String] { Array(order[head...]) }
}
