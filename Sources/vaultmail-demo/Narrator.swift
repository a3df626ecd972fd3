import Foundation

/// Tells the newcomer what is happening, one plain line at a time, written at once (no
/// buffering) so the story keeps pace with the work even through a pipe.
struct Narrator: Sendable {
    private let start = ContinuousClock.now

    /// A chapter heading, numbered when `number` is given.
    func step(_ number: Int?, _ title: String) {
        let elapsed = ContinuousClock.now - start
        let heading = "── \(number.map { "\($0). " } ?? "")\(title) "
        let time = " \(Self.seconds(elapsed)) ──"
        let rule = String(repeating: "─", count: max(3, 78 - heading.count - time.count))
        write("\n" + heading + rule + time)
    }

    /// A sentence of explanation.
    func say(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            write("   " + line)
        }
    }

    /// Something that worked.
    func done(_ text: String) { write("   ✓ " + text) }

    /// Something that did not go as it should (the demo goes on).
    func warn(_ text: String) { write("   ✗ " + text) }

    /// A command as typed, and what it printed.
    func command(_ line: String, output: String) {
        write("   $ " + line)
        quote(output)
    }

    /// Output of a program, indented under what produced it.
    func quote(_ output: String, prefix: String = "     ") {
        let trimmed = output.trimmingCharacters(in: .newlines)
        guard !trimmed.isEmpty else { return }
        for line in trimmed.split(separator: "\n", omittingEmptySubsequences: false) {
            write(prefix + line)
        }
    }

    /// A line the daemon logged.
    func daemonLog(_ line: String) { write("     daemon │ " + line) }

    /// A notification as the desktop showed it.
    func notification(_ shown: ShownNotification) {
        var line = "   🔔 \(shown.summary) — \(shown.subject)"
        if !shown.text.isEmpty { line += " — " + shown.text }
        write(Self.fit(line, 100))
        if !shown.actions.isEmpty {
            write("      buttons: " + shown.actions.joined(separator: " · "))
        }
    }

    /// A blank line.
    func blank() { write("") }

    /// A line as it is. A closed pipe (`| head`) is ignored: the demo still cleans up.
    func write(_ line: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }

    /// "0.4 s", "12.3 s".
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", Double(milliseconds(duration)) / 1000)
    }

    /// "40 ms" below a second, else as `seconds`.
    static func brief(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        return milliseconds < 1000 ? "\(milliseconds) ms" : seconds(duration)
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }
}
