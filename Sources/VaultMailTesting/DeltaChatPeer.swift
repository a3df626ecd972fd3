import Foundation

/// A Delta Chat account for tests (issue 32): PyPI's `deltachat-rpc-server` driven through its
/// Python client by `scripts/deltachat-peer.py`, both unpacked into `.build/deltachat` by
/// `scripts/install-deltachat.sh`. One JSON command per line in, one JSON answer per line out;
/// passwords reach the driver through its environment. `stop()` ends it and removes its folder.
public final class DeltaChatPeer: @unchecked Sendable {
    // @unchecked Sendable: `process` and `directory` are set in init and never changed; the
    // answers are read from the process's own guarded output.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let driver = repository.appendingPathComponent("scripts/deltachat-peer.py").path
    /// Delta Chat's server, 2.65.0.
    public static let server = repository.appendingPathComponent(".build/deltachat/deltachat_rpc_server/deltachat-rpc-server").path
    /// Delta Chat's server 2.45.0: the last release that makes Autocrypt Setup Messages.
    public static let setupMessageServer = repository.appendingPathComponent(".build/deltachat/setup-message/deltachat-rpc-server").path

    /// Why Delta Chat's `server` cannot run here, or nil when it can.
    public static func unavailable(_ server: String = server) -> String? {
        FileManager.default.isExecutableFile(atPath: server) ? nil
            : "Delta Chat is not unpacked at \(server); run scripts/install-deltachat.sh (scripts/install-deps.sh runs it)"
    }

    public let directory: URL
    private let process: ChildProcess
    private var answered = 0

    /// Starts the driver over `server` with a fresh account folder; `imapPassword` and
    /// `smtpPassword` are handed over in its environment.
    public init(imapPassword: String, smtpPassword: String, server: String = DeltaChatPeer.server) throws {
        if let unavailable = Self.unavailable(server) { throw Failure(description: unavailable) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-deltachat-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["DC_ACCOUNTS_DIR"] = directory.appendingPathComponent("accounts").path
        environment["DC_IMAP_PASSWORD"] = imapPassword
        environment["DC_SMTP_PASSWORD"] = smtpPassword
        environment["DELTACHAT_RPC_SERVER"] = server
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process = try ChildProcess("/usr/bin/python3", ["-u", Self.driver], environment: environment)
    }

    /// Sends `command` and returns its answer; throws when the driver answers `error`.
    @discardableResult
    public func command(_ command: [String: Any], timeout: Duration = .seconds(180)) async throws -> [String: Any] {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self)
        try process.send(line)
        let (answer, index) = try await process.waitForLine(from: answered, timeout: timeout) { $0.hasPrefix("{") }
        answered = index + 1
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw Failure(description: "Delta Chat's driver answered \(answer)")
        }
        if let error = object["error"] as? String {
            throw Failure(description: "Delta Chat: \(error) (for \(command["cmd"] ?? "?")); its log ends: \(String(process.errorOutput.suffix(3000)))")
        }
        return object
    }

    /// What the driver and Delta Chat wrote to standard error (warnings, errors).
    public var log: String { process.errorOutput }

    /// Asks the driver to quit, stops it, and removes the account folder.
    public func stop() async {
        if process.isRunning {
            // Quitting lets the client stop Delta Chat's server (its child) too.
            try? process.send("{\"cmd\": \"quit\"}")
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { _ = await process.terminate(grace: .seconds(5)) }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
