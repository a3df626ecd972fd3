import Foundation
import Synchronization

/// A one-connection server on 127.0.0.1 that sends `greeting`, then answers each line it
/// reads with `answer(line)` (nil: close the connection without a word), and keeps the lines
/// it read. For what a real server does not do on demand — a STARTTLS that is not offered or
/// is refused, a connection closed inside a message — in IMAP and in SMTP alike.
final class ScriptedLineServer: Sendable {
    /// What the server does with a line it read.
    enum Answer: Sendable {
        case reply(String)
        /// Sends the text, then closes the connection.
        case replyAndClose(String)
    }

    let port: Int
    private let listener: Int32
    private let received = Transcript()

    /// The lines read, shared with the serving thread (which must not keep the server alive).
    private final class Transcript: Sendable {
        let lines = Mutex<[String]>([])
    }

    init(greeting: String, answer: @escaping @Sendable (String) -> Answer?) throws {
        (listener, port) = try LoopbackListener.open(backlog: 1)
        let (listener, received) = (listener, received)
        Thread.detachNewThread { Self.serve(listener, received, greeting: greeting, answer: answer) }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The lines read so far, without their line ends.
    var lines: [String] { received.lines.withLock { $0 } }

    private static func serve(
        _ listener: Int32, _ received: Transcript, greeting: String, answer: @Sendable (String) -> Answer?
    ) {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        send(client, greeting)
        var pending: [UInt8] = []
        while let line = readLine(client, &pending) {
            received.lines.withLock { $0.append(line) }
            switch answer(line) {
            case .reply(let text): send(client, text)
            case .replyAndClose(let text):
                send(client, text)
                return
            case nil: return
            }
        }
    }

    private static func send(_ client: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            sent += written
        }
    }

    private static func readLine(_ client: Int32, _ pending: inout [UInt8]) -> String? {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(...end)
                return line
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }
}
