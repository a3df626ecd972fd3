import Foundation

/// Whether the machine is idle enough for work nobody asked for: a conversation is summarized
/// when opened only then (issue 35, "automatic summaries only when the machine is idle"); the
/// Summarize button works whatever the load.
///
/// Idle means the one-minute load average per core is below `maximumLoadPerCore`. A machine
/// whose load cannot be read counts as idle (the setting still decides).
public struct MachineIdleness: Sendable {
    /// The most runnable work per core that still counts as idle.
    public static let maximumLoadPerCore = 0.5

    private let cores: Int
    private let loadAverage: @Sendable () -> Double?

    /// `loadAverage` gives the one-minute load average (default: the system's, from
    /// /proc/loadavg); `cores` the processors it is shared by.
    public init(cores: Int = ProcessInfo.processInfo.activeProcessorCount,
                loadAverage: @escaping @Sendable () -> Double? = MachineIdleness.systemLoadAverage) {
        self.cores = max(1, cores)
        self.loadAverage = loadAverage
    }

    /// True when the load per core is below `maximumLoadPerCore`, or cannot be read.
    public func isIdle() -> Bool {
        guard let load = loadAverage() else { return true }
        return load / Double(cores) < Self.maximumLoadPerCore
    }

    /// The system's one-minute load average (the first field of /proc/loadavg); nil where
    /// there is none.
    @Sendable public static func systemLoadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
              let first = text.split(separator: " ").first else { return nil }
        return Double(first)
    }
}
