import Foundation
import Testing
import VaultMailApp

/// AC-P-03: the Linux reader of memory pressure, over sample `/proc` text.
@Suite("AC-P-03: memory pressure read from /proc on Linux")
struct LinuxMemoryPressureTests {
    static let calm = """
        some avg10=0.00 avg60=0.12 avg300=0.05 total=123456
        full avg10=0.00 avg60=0.00 avg300=0.00 total=2345
        """
    static let stalled = """
        some avg10=34.50 avg60=12.00 avg300=3.10 total=99123456
        full avg10=8.25 avg60=4.00 avg300=1.00 total=5123456
        """
    static func meminfo(available: Int) -> String {
        "MemTotal:        8000000 kB\nMemFree:          100000 kB\nMemAvailable:   \(available) kB\nBuffers:           1000 kB\n"
    }

    @Test("AC-P-03: avg10 of the some and full lines, MemTotal and MemAvailable are read from sample /proc text")
    func parses() {
        #expect(LinuxMemoryPressure.stalls(Self.stalled) == (34.5, 8.25))
        #expect(LinuxMemoryPressure.stalls(Self.calm) == (0, 0))
        #expect(LinuxMemoryPressure.memory(Self.meminfo(available: 250_000)) == (8_000_000, 250_000))
        #expect(LinuxMemoryPressure.memory("garbage") == (0, 0))
    }

    @Test("AC-P-03: pressure when tasks stall on memory or little is available; none when calm or unreadable", arguments: [
        (calm, 4_000_000, false), (stalled, 4_000_000, true), (calm, 250_000, true), ("", 0, false),
    ])
    func decides(pressure: String, available: Int, expected: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-psi-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var reader = LinuxMemoryPressure()
        reader.pressurePath = folder.appendingPathComponent("memory").path
        reader.meminfoPath = folder.appendingPathComponent("meminfo").path
        if !pressure.isEmpty {
            try pressure.write(toFile: reader.pressurePath, atomically: true, encoding: .utf8)
            try Self.meminfo(available: available).write(toFile: reader.meminfoPath, atomically: true, encoding: .utf8)
        }
        #expect(reader.isUnderPressure() == expected)
    }

    @Test("AC-P-03: this machine's /proc is readable and gives an answer without crashing")
    func thisMachine() {
        _ = LinuxMemoryPressure().isUnderPressure()
        #expect(LinuxMemoryPressure.memory((try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? "").total > 0)
    }
}
