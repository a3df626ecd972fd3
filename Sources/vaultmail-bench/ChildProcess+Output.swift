import Foundation
import VaultMailTesting

extension ChildProcess {
    /// Everything it printed so far, standard output and standard error.
    var allOutput: String { lines.joined(separator: "\n") + "\n" + errorOutput }

    /// How often `text` occurs in its output so far.
    func occurrences(of text: String) -> Int {
        allOutput.components(separatedBy: text).count - 1
    }

    /// Waits until `text` has occurred `count` times in its output (standard output or
    /// standard error); throws with the end of its output when it exits or `timeout` passes.
    func waitForOutput(_ text: String, count: Int = 1, timeout: Duration) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while occurrences(of: text) < count {
            guard isRunning else {
                throw Failure(description: "\(name) exited (status \(exitStatus)) before printing '\(text)': \(allOutput.suffix(3000))")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(name) did not print '\(text)' within \(timeout): \(allOutput.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
