import Foundation

/// A private `dbus-daemon` for one test: its own configuration, a socket in a temporary
/// directory, no service activation (no service directories), policy open to all.
public final class DBusDaemon: @unchecked Sendable {
    // @unchecked: immutable after init; `ChildProcess` is thread-safe.
    public let address: String
    public let directory: URL
    private let process: ChildProcess

    /// Starts a daemon. `activatableServices` (bus name → command) are installed as service
    /// files, only to prove that nothing activates them by accident.
    public static func start(activatableServices: [String: String] = [:]) async throws -> DBusDaemon {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-dbus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let services = directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        for (name, command) in activatableServices {
            try "[D-BUS Service]\nName=\(name)\nExec=\(command)\n"
                .write(to: services.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
        }
        let serviceDirectory = activatableServices.isEmpty ? "" : "<servicedir>\(services.path)</servicedir>"
        let config = directory.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.path)/bus</listen>
          <auth>EXTERNAL</auth>
          \(serviceDirectory)
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        let process = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"])
        let (line, _) = try await process.waitForLine { $0.hasPrefix("unix:") }
        return DBusDaemon(address: line.trimmingCharacters(in: .whitespaces), directory: directory, process: process)
    }

    private init(address: String, directory: URL, process: ChildProcess) {
        self.address = address
        self.directory = directory
        self.process = process
    }

    /// An environment whose session bus is this daemon.
    public func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
