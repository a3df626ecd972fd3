import Foundation
import VaultMailCore
import VaultMailTesting

/// The built `vaultmail` command-line tool, found beside this benchmark's own executable
/// (`.build/release/vaultmail` under `swift run -c release vaultmail-bench`), brought up to
/// date with `swift build -c <configuration> --product vaultmail` first.
struct VaultMailTool {
    let binary: String

    /// The package root, found from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds the tool (a no-op when it is current) and returns it. When SwiftPM cannot build
    /// now, an existing binary newer than every source file is used; otherwise the error says
    /// which command to run.
    static func locate() async throws -> VaultMailTool {
        guard let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            throw Failure(description: "cannot tell where vaultmail-bench runs from, so cannot find the vaultmail tool beside it")
        }
        let binary = directory.appendingPathComponent("vaultmail").path
        let configuration = directory.lastPathComponent == "debug" ? "debug" : "release"
        let command = "swift build -c \(configuration) --product vaultmail"
        let failure: String
        do {
            try await build(configuration: configuration)
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                throw Failure(description: "`\(command)` succeeded but \(binary) is missing")
            }
            return VaultMailTool(binary: binary)
        } catch let error as Failure {
            failure = error.description
        }
        if let built = modificationDate(binary), let newest = newestSource(), built >= newest.date {
            print("# note: could not run `\(command)` (\(failure.prefix(200))); using \(binary), newer than every source file")
            return VaultMailTool(binary: binary)
        }
        let state = FileManager.default.isExecutableFile(atPath: binary)
            ? "\(binary) is older than \(newestSource()?.path ?? "the sources")" : "\(binary) is missing"
        throw Failure(description: """
            the e2e suite needs the vaultmail tool: \(state), and building it here failed: \(failure)
            Run `\(command)` in \(packageRoot.path), then run the suite again (`make bench SUITES=e2e` does both).
            """)
    }

    /// `swift build … --product vaultmail` in the package root. SwiftPM waits forever when
    /// another SwiftPM holds the build directory's lock; that is reported, not waited for.
    private static func build(configuration: String) async throws {
        guard let swift = which("swift") else { throw Failure(description: "no `swift` on PATH") }
        let process = try ChildProcess(swift, ["build", "-c", configuration, "--product", "vaultmail"], currentDirectory: packageRoot)
        defer { process.stop() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(1800))
        while process.isRunning {
            if process.allOutput.contains("Another instance of SwiftPM") {
                throw Failure(description: "another SwiftPM holds \(packageRoot.path)/.build")
            }
            guard ContinuousClock.now < deadline else { throw Failure(description: "the build took over 30 minutes") }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard process.exitStatus == 0 else {
            throw Failure(description: "the build failed (status \(process.exitStatus)): \(process.allOutput.suffix(2000))")
        }
    }

    private static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// The most recently changed Swift file under Sources/ (the benchmark's own excepted).
    private static func newestSource() -> (path: String, date: Date)? {
        let sources = packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return nil }
        var newest: (path: String, date: Date)?
        for case let relative as String in walker where relative.hasSuffix(".swift") && !relative.hasPrefix("vaultmail-bench/") {
            let path = sources.appendingPathComponent(relative).path
            if let date = modificationDate(path), date > (newest?.date ?? .distantPast) { newest = (path, date) }
        }
        return newest
    }

    // MARK: Running it

    /// Runs a one-shot command (`account add …`) to completion; throws with its output when it fails.
    func run(_ arguments: [String], environment: [String: String]) async throws {
        let result = try await ProcessCapture.run(binary, arguments, environment: environment, timeout: .seconds(120))
        guard result.exitedNormally, result.status == 0 else {
            throw Failure(description: "`vaultmail \(arguments.prefix(2).joined(separator: " "))` failed (status \(result.status)): "
                          + String(decoding: result.output, as: UTF8.self))
        }
    }

    /// Adds a plain-IMAP account on 127.0.0.1 whose password `cat` reads from `passwordFile`
    /// (so it is on no command line).
    func addAccount(name: String, user: String, port: Int, passwordFile: URL, syncWindowDays: Int,
                    environment: [String: String]) async throws {
        try await run(["account", "add", name, "--email", "\(user)@localhost", "--imap", "127.0.0.1:\(port)",
                       "--smtp", "127.0.0.1:2525", "--security", "plain", "--user", user,
                       "--sync-window-days", String(syncWindowDays), "--password-command", "cat \(passwordFile.path)"],
                      environment: environment)
    }

    /// Starts `vaultmail daemon`; its log goes to standard error.
    func startDaemon(environment: [String: String]) throws -> ChildProcess {
        try ChildProcess(binary, ["daemon", "--web-port", "0"], environment: environment)
    }
}
