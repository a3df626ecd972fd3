import Foundation
import VaultMailCore

/// Opens a conversation the user tapped in a notification, by running the user's open
/// command (`vaultmail daemon --open-command CMD`) with `/bin/sh`: the thread id is `$1` and
/// `$VAULTMAIL_THREAD_ID`, the tool is `$VAULTMAIL_BIN`, the home `$VAULTMAIL_HOME`. Without
/// one, the web app shows it in the browser when the daemon serves it, else a terminal
/// (`x-terminal-emulator`, Debian's alternative) shows `vaultmail show`.
struct ThreadOpener: Sendable {
    /// The conversation in the web app, in the default browser, signed in.
    static let webCommand = #""$VAULTMAIL_BIN" open --thread "$VAULTMAIL_THREAD_ID""#

    /// The command used when none is configured, or nil when this machine has no terminal.
    static var defaultCommand: String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/x-terminal-emulator") else { return nil }
        return #"x-terminal-emulator -e sh -c '"$VAULTMAIL_BIN" show "$VAULTMAIL_THREAD_ID" | less -R'"#
    }

    let command: String?
    let home: String

    /// Starts the command in the background and returns at once; `failed` is told if it
    /// could not be started.
    func open(threadId: String, failed: @escaping @Sendable (String) -> Void) {
        guard let command else {
            failed("no open command and no terminal (x-terminal-emulator); see it with `vaultmail show \(threadId.prefix(10))`, or start the daemon with --open-command")
            return
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_THREAD_ID"] = threadId
        environment["VAULTMAIL_HOME"] = home
        environment["VAULTMAIL_BIN"] = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
        // The viewer runs in the background of a shell that exits at once: the daemon does
        // not wait (or poll) while the user reads, and the viewer is not its child.
        let detached = "(\(command)) </dev/null >/dev/null 2>&1 &"
        Task.detached {
            do {
                let result = try await ProcessCapture.run("/bin/sh", ["-c", detached, "vaultmail-open", threadId], environment: environment,
                                                          timeout: .seconds(10))
                guard result.exitedNormally, result.status == 0 else {
                    let output = String(decoding: result.output.prefix(300), as: UTF8.self)
                    failed("the open command for thread \(threadId.prefix(10)) could not start (status \(result.status)): \(output)")
                    return
                }
            } catch {
                failed("cannot run the open command: \(error)")
            }
        }
    }
}
