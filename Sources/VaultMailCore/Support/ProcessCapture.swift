import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and captures its output. It waits for the program to *exit*,
/// reading as it goes, and never for end of file: a process started at the same moment by
/// someone else may inherit the pipe and keep it open long after our program is gone.
public enum ProcessCapture {
    public struct Result: Sendable {
        /// The exit status, or the signal that ended it.
        public var status: Int32
        /// False when a signal ended it (including the timeout's).
        public var exitedNormally: Bool
        public var output: Data
    }

    public struct LaunchFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` and returns its output (with standard error when `includeErrors`).
    /// Past `timeout` the program's whole process group is killed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        directory: URL? = nil, includeErrors: Bool = true, timeout: Duration = .seconds(120)
    ) throws -> Result {
        let running = try start(executable, arguments, environment: environment, input: input, directory: directory,
                                includeErrors: includeErrors)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !running.step(deadline: deadline) { usleep(2000) }
        return running.result
    }

    /// The same, waiting without holding a thread.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        directory: URL? = nil, includeErrors: Bool = true, timeout: Duration = .seconds(120)
    ) async throws -> Result {
        let running = try start(executable, arguments, environment: environment, input: input, directory: directory,
                                includeErrors: includeErrors)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !running.step(deadline: deadline) { try? await Task.sleep(for: .milliseconds(2)) }
        return running.result
    }

    private static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]?, input: Data?, directory: URL?,
        includeErrors: Bool
    ) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = includeErrors ? output : FileHandle.nullDevice
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw LaunchFailure(description: "cannot run \(executable): \(error)")
        }
        if let input {
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return Running(process: process, pipe: output, exited: exited)
    }

    /// One program being run: `step` reads what is there and says whether it has exited.
    private final class Running {
        let process: Process
        let pipe: Pipe
        let exited: DispatchSemaphore
        var output = Data()
        var done = false

        init(process: Process, pipe: Pipe, exited: DispatchSemaphore) {
            self.process = process
            self.pipe = pipe
            self.exited = exited
        }

        func step(deadline: ContinuousClock.Instant) -> Bool {
            drain()
            if exited.wait(timeout: .now()) == .success {
                drain()
                done = true
                return true
            }
            if ContinuousClock.now >= deadline { kill(-process.processIdentifier, SIGKILL) }
            return false
        }

        private func drain() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(pipe.fileHandleForReading.fileDescriptor, &buffer, buffer.count)
                if count <= 0 { return }
                output.append(contentsOf: buffer[0..<count])
            }
        }

        var result: Result {
            Result(status: process.terminationStatus, exitedNormally: process.terminationReason == .exit, output: output)
        }
    }
}
