/// A set of message UIDs as IMAP sends it: `1:5,8,12:*`.
///
/// An open range (`from(_:)`) ends at `*`, the highest UID in the mailbox. IMAP answers
/// `n:*` with the last message even when its UID is below `n`; `IMAPConnection` drops such
/// strays, so results only ever contain UIDs this set contains.
public struct UIDSet: Sendable, Hashable, CustomStringConvertible {
    /// Closed ranges, sorted and merged.
    public private(set) var ranges: [ClosedRange<UInt32>]
    /// When set, every UID from this one upwards (`n:*`) is included as well.
    public private(set) var openFrom: UInt32?

    public init<S: Sequence>(_ uids: S) where S.Element == UInt32 {
        ranges = UIDSet.merge(uids.filter { $0 > 0 }.map { $0...$0 })
        openFrom = nil
    }

    public init(_ range: ClosedRange<UInt32>) {
        ranges = range.upperBound == 0 ? [] : [max(1, range.lowerBound)...range.upperBound]
        openFrom = nil
    }

    /// `first:*`: every UID from `first` upwards.
    public static func from(_ first: UInt32) -> UIDSet {
        var set = UIDSet([UInt32]())
        set.openFrom = max(1, first)
        return set
    }

    /// `1:*`: every message in the mailbox.
    public static let all = UIDSet.from(1)

    public var isEmpty: Bool { ranges.isEmpty && openFrom == nil }

    public func contains(_ uid: UInt32) -> Bool {
        if let openFrom, uid >= openFrom { return true }
        return ranges.contains { $0.contains(uid) }
    }

    /// The UIDs of the closed ranges (an open range has no end to list).
    public var closedUIDs: [UInt32] { ranges.flatMap { Array($0) } }

    /// Splits the closed ranges into sets of at most `size` UIDs each, for batched fetches.
    /// An open range stays whole in the last set.
    public func chunked(maxCount size: Int) -> [UIDSet] {
        precondition(size > 0, "a batch holds at least one UID")
        var result: [UIDSet] = []
        var current: [ClosedRange<UInt32>] = []
        var count = 0
        for range in ranges {
            var lower = range.lowerBound
            while lower <= range.upperBound {
                let room = UInt32(size - count)
                let upper = range.upperBound - lower >= room - 1 ? lower + (room - 1) : range.upperBound
                current.append(lower...upper)
                count += Int(upper - lower) + 1
                if count == size {
                    result.append(UIDSet(ranges: current, openFrom: nil))
                    current = []
                    count = 0
                }
                if upper == UInt32.max { break }
                lower = upper + 1
            }
        }
        if !current.isEmpty || openFrom != nil {
            result.append(UIDSet(ranges: current, openFrom: openFrom))
        }
        return result
    }

    /// IMAP sequence-set syntax: `1:5,8,12:*`.
    public var description: String {
        var parts = ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound):\($0.upperBound)" }
        if let openFrom { parts.append("\(openFrom):*") }
        return parts.joined(separator: ",")
    }

    private init(ranges: [ClosedRange<UInt32>], openFrom: UInt32?) {
        self.ranges = ranges
        self.openFrom = openFrom
    }

    private static func merge(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, last.upperBound == UInt32.max || range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
