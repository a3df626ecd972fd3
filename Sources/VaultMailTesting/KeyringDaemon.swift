import Foundation
import VaultMailCore

/// A headless GNOME Keyring serving `org.freedesktop.secrets` on a test bus, its login
/// keyring created and unlocked with a throwaway password, its files in a temporary home.
public final class KeyringDaemon: @unchecked Sendable {
    // @unchecked: immutable after init; `ChildProcess` is thread-safe.
    private let process: ChildProcess
    private let home: URL

    public static func start(on bus: DBusDaemon) async throws -> KeyringDaemon {
        let home = bus.directory.appendingPathComponent("keyring-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = bus.environment()
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["XDG_RUNTIME_DIR"] = bus.directory.path
        let process = try ChildProcess("/usr/bin/gnome-keyring-daemon",
                                       ["--foreground", "--unlock", "--components=secrets"], environment: environment)
        try process.send("vaultmail-test-keyring")
        try process.closeInput()
        let daemon = KeyringDaemon(process: process, home: home)
        try await daemon.waitUntilServing(busAddress: bus.address)
        return daemon
    }

    private init(process: ChildProcess, home: URL) {
        self.process = process
        self.home = home
    }

    /// Waits until the keyring owns its bus name (it prints nothing we can wait for).
    private func waitUntilServing(busAddress: String) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while true {
            let probe = try? await ProcessCapture.run(
                "/usr/bin/dbus-send", ["--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"], timeout: .seconds(5))
            if let probe, String(decoding: probe.output, as: UTF8.self).contains("boolean true") { return }
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw ChildProcess.Failure(description: "gnome-keyring-daemon did not serve org.freedesktop.secrets within 30 s: \(process.errorOutput)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The daemon's process id (its memory is part of what a Secret Service client costs).
    public var processIdentifier: Int32 { process.processIdentifier }

    public func stop() { process.stop() }

    deinit { process.stop() }
}
