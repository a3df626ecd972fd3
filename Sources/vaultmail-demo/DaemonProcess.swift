import Foundation
import VaultMailTesting

/// `vaultmail daemon`, running in the background; its log (standard error) is read as it
/// grows, so the demo can wait for what it says and show it.
@MainActor
final class DaemonProcess {
    private let process: ChildProcess
    /// How many log lines have been handed out by `newLogLines()`.
    private var shown = 0

    init(tool: VaultMailTool) throws {
        // The web app on a free port (a fixed one may be taken on the user's machine).
        process = try ChildProcess(tool.path, ["daemon", "--web-port", "0"], environment: tool.environment)
    }

    /// The complete lines logged so far, without timestamp, level and label.
    var logLines: [String] {
        let log = process.errorOutput
        guard let end = log.lastIndex(of: "\n") else { return [] }  // a line still being written waits
        return log[..<end].split(separator: "\n").map { Self.message(of: String($0)) }
    }

    /// The log lines not handed out before.
    func newLogLines() -> [String] {
        let lines = logLines
        defer { shown = lines.count }
        return Array(lines.dropFirst(shown))
    }

    /// Waits until a log line contains `text`.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !logLines.contains(where: { $0.contains(text) }) {
            guard process.isRunning else {
                throw DemoFailure("the daemon exited (status \(process.exitStatus)) before logging \"\(text)\": \(process.errorOutput)")
            }
            guard ContinuousClock.now < deadline else {
                throw DemoFailure("the daemon did not log \"\(text)\" within \(timeout); its log: \(process.errorOutput)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, as systemd or Ctrl-C would send, then waits for the exit (SIGKILL after 15 s).
    /// Returns how long it took and the exit status (nil when it had to be killed).
    @discardableResult
    func stop() async -> (duration: Duration, status: Int32?) {
        await process.terminate(grace: .seconds(15))
    }

    /// swift-log's "TIMESTAMP LEVEL LABEL: [SOURCE] MESSAGE" → "MESSAGE" (other levels than
    /// info keep theirs: "warning: MESSAGE").
    static func message(of line: String) -> String {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let source = parts[2].range(of: "] ") else { return line }
        let text = parts[2][source.upperBound...]
        return parts[1] == "info" ? String(text) : "\(parts[1]): \(text)"
    }
}
