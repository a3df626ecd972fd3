import Foundation
import VaultMailCore

/// The `vaultmail` binary built beside the demo, run as a user would run it, with the demo's
/// private data directory and bus.
struct VaultMailTool: Sendable {
    let path: String
    let environment: [String: String]

    /// The `vaultmail` executable in the demo's own directory (the same `.build` folder).
    static func besideDemo() throws -> String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("vaultmail").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw DemoFailure("\(path) is missing: build the tool first (`swift build --product vaultmail`, or `make demo`)")
        }
        return path
    }

    /// Runs `vaultmail ARGUMENTS` to completion and returns what it printed; throws with its
    /// output when it fails.
    @discardableResult
    func run(_ arguments: [String], input: Data? = nil) async throws -> String {
        let result = try await ProcessCapture.run(path, arguments, environment: environment, input: input, timeout: .seconds(60))
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0 else {
            throw DemoFailure("`vaultmail \(Self.display(arguments))` failed (status \(result.status)): \(output)")
        }
        return output
    }

    /// The arguments as a shell would show them.
    static func display(_ arguments: [String]) -> String {
        arguments.map { argument in
            argument.contains(where: { " \"'$\\".contains($0) }) || argument.isEmpty
                ? "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'" : argument
        }.joined(separator: " ")
    }
}
