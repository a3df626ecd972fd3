import Foundation

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
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil, in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(
                command: ([executable] + arguments).joined(separator: " "), status: process.terminationStatus, output: text)
        }
        return text
    }
}
