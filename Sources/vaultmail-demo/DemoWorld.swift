import Foundation
import VaultMailTesting

/// Everything the demo starts, so that all of it is stopped and removed at the end — after
/// a failure or Ctrl-C too.
@MainActor
final class DemoWorld {
    /// The demo's own temporary directory: the VaultMail data directory, the password file,
    /// dunst's configuration.
    let directory: URL
    var dovecot: DovecotServer?
    var smtp: SMTPTestServer?
    var bus: DBusDaemon?
    var desk: NotificationDesk?
    var daemon: DaemonProcess?

    init() throws {
        let parent = FileManager.default.temporaryDirectory
        var template = Array(parent.appendingPathComponent("vaultmail-demo-XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw DemoFailure("cannot create a temporary directory in \(parent.path): \(String(cString: strerror(errno)))")
        }
        directory = URL(fileURLWithPath: String(cString: created))
    }

    /// The directories the servers and the demo wrote to.
    var directories: [URL] {
        [directory, dovecot?.directory, smtp?.directory, bus?.directory].compactMap { $0?.standardizedFileURL }
    }

    /// Stops everything, newest first, and removes every temporary directory. Returns what
    /// it did, one line each.
    func shutDown() async -> [String] {
        var report: [String] = []
        if let daemon {
            let (duration, status) = await daemon.stop()
            report.append(status.map { "the daemon stopped on SIGTERM in \(Narrator.brief(duration)) (exit status \($0))" }
                ?? "the daemon did not stop on SIGTERM within \(Narrator.seconds(duration)); it was killed")
            self.daemon = nil
        }
        if let desk {
            desk.stop()
            report.append("the notification server stopped")
            self.desk = nil
        }
        let removable = directories
        if let bus {
            bus.stop()
            report.append("the private D-Bus stopped")
            self.bus = nil
        }
        if let smtp {
            smtp.stop()
            report.append("the SMTP server stopped")
            self.smtp = nil
        }
        if let dovecot {
            do {
                try await dovecot.stop()
            } catch {
                dovecot.kill()
            }
            report.append("Dovecot stopped")
            self.dovecot = nil
        }
        for url in removable {
            try? FileManager.default.removeItem(at: url)
        }
        let left = removable.filter { FileManager.default.fileExists(atPath: $0.path) }
        report.append(left.isEmpty
            ? "removed \(removable.map(\.path).joined(separator: ", "))"
            : "could not remove \(left.map(\.path).joined(separator: ", "))")
        return report
    }
}
