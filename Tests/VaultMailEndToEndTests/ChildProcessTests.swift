import Foundation
import Testing
import VaultMailTesting

/// The helper every server test starts its servers with: its output must arrive whole, and
/// starting and stopping many children must never bring the test process down (reading pipes
/// through dispatch sources did, now and then, in a long run).
@Suite("Child processes for tests")
struct ChildProcessTests {
    @Test("Hundreds of short children, several at a time: every line of output and error arrives")
    func manyShortChildren() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<40 {
                        let tag = "\(worker)-\(round)"
                        let child = try ChildProcess("/bin/sh", ["-c", "echo out \(tag); echo err \(tag) >&2; echo last \(tag)"])
                        let last = try await child.waitForLine(where: { $0 == "last \(tag)" })
                        #expect(last.index == 1)
                        #expect(child.lines.first == "out \(tag)")
                        try await child.waitForOutput("err \(tag)", timeout: .seconds(30))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("A child that exits without the awaited line fails the wait at once, with its status and its error output")
    func exitWithoutLine() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo started; echo 'no config' >&2; exit 3"])
        let start = ContinuousClock.now
        await #expect(throws: ChildProcess.Failure.self) {
            try await child.waitForLine(timeout: .seconds(60), where: { $0 == "ready" })
        }
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(child.exitStatus == 3)
        #expect(child.errorOutput.contains("no config"))
        #expect(child.lines == ["started"])
    }

    @Test("Output written just before the exit is still read")
    func outputBeforeExit() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "seq 1 20000"])
        let last = try await child.waitForLine(where: { $0 == "20000" })
        #expect(last.index == 19_999)
    }
}
