import Foundation
import VaultMailCore

/// Core's `MemoryPressureSource` on Linux (AC-P-03): memory is short when the kernel's pressure
/// stall information says tasks waited for memory over the last 10 s (`/proc/pressure/memory`:
/// "some avg10" ≥ `someLimit` or "full avg10" ≥ `fullLimit`, in percent), or when
/// `/proc/meminfo`'s MemAvailable is below `availableFraction` of MemTotal. A file that cannot
/// be read (no PSI in the kernel) says nothing. It is read only when a model session asks,
/// which it does only while a model is loaded and idle.
public struct LinuxMemoryPressure: MemoryPressureSource {
    public var pressurePath = "/proc/pressure/memory"
    public var meminfoPath = "/proc/meminfo"
    public var someLimit = 10.0
    public var fullLimit = 2.0
    public var availableFraction = 0.05

    public init() {}

    public func isUnderPressure() -> Bool {
        let pressure = (try? String(contentsOfFile: pressurePath, encoding: .utf8)).map(Self.stalls)
        let memory = (try? String(contentsOfFile: meminfoPath, encoding: .utf8)).map(Self.memory)
        if let pressure, pressure.some >= someLimit || pressure.full >= fullLimit { return true }
        if let memory, memory.total > 0, Double(memory.available) < Double(memory.total) * availableFraction { return true }
        return false
    }

    /// "avg10" of the "some" and "full" lines of `/proc/pressure/memory` (0 when absent).
    public static func stalls(_ text: String) -> (some: Double, full: Double) {
        func avg10(_ kind: String) -> Double {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(kind + " ") }),
                  let field = line.split(separator: " ").first(where: { $0.hasPrefix("avg10=") }) else { return 0 }
            return Double(field.dropFirst("avg10=".count)) ?? 0
        }
        return (avg10("some"), avg10("full"))
    }

    /// MemTotal and MemAvailable of `/proc/meminfo`, in kB (0 when absent).
    public static func memory(_ text: String) -> (total: Int, available: Int) {
        func value(_ key: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
        return (value("MemTotal"), value("MemAvailable"))
    }
}
