import Foundation

/// A one-connection IMAP server on 127.0.0.1 that answers LOGIN, SELECT and a UID FETCH of
/// attributes with canned lines, and a UID FETCH of message bodies with `bodyResponse`, after
/// which it closes the connection. For a server that dies inside a message literal.
final class ScriptedIMAPServer: Sendable {
    let port: Int
    private let listener: Int32

    init(bodyResponse: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, listening else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { Self.serve(fd, bodyResponse: bodyResponse) }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ listener: Int32, bodyResponse: String) {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        send(client, "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] scripted server ready\r\n")
        var pending: [UInt8] = []
        while let line = readLine(client, &pending) {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count >= 2 else { continue }
            let tag = words[0]
            let command = words[1].uppercased() + " " + (words.count > 2 ? words[2].uppercased() : "")
            if command.hasPrefix("SELECT") || command.hasPrefix("EXAMINE") {
                send(client, "* FLAGS (\\Seen)\r\n* 1 EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT 2] ok\r\n"
                    + "\(tag) OK [READ-WRITE] selected\r\n")
            } else if command.hasPrefix("UID FETCH") && command.contains("BODY.PEEK[") {
                send(client, bodyResponse)
                return  // closes the connection inside the literal
            } else if command.hasPrefix("UID FETCH") {
                send(client, "* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE 5000 INTERNALDATE \"15-Jan-2026 12:00:00 +0000\")\r\n"
                    + "\(tag) OK fetched\r\n")
            } else if command.hasPrefix("LOGOUT") {
                send(client, "* BYE bye\r\n\(tag) OK bye\r\n")
                return
            } else if command.hasPrefix("CAPABILITY") {
                send(client, "* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n\(tag) OK done\r\n")
            } else {
                send(client, "\(tag) OK done\r\n")
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
