import Foundation
import VaultMailCore

/// Runs a short command-line tool (openssl, doveadm) to completion and returns its output.
enum CommandRunner {
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var output: String
        var description: String { "`\(command)` failed with status \(status): \(output)" }
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin. Throws when it exits
    /// with a non-zero status. Never pass a secret here: arguments are visible in `ps`.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> String {
        let result = try ProcessCapture.run(executable, arguments, environment: environment, input: input, directory: directory)
        let text = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0 else {
            throw Failure(command: ([executable] + arguments).joined(separator: " "), status: result.status, output: text)
        }
        return text
    }
}
