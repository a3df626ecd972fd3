import Foundation
import NIOCore
import Synchronization

/// Who is at the other end of a loopback connection: the kernel's socket table
/// (`/proc/net/tcp`) names the user that owns the client's socket. The web app talks only to
/// its own user's programs, so another local user is refused even with a cookie in hand
/// (browsers send cookies to every port of 127.0.0.1, so one could leak to another user's server).
enum PeerOwner {
    /// The uid owning the client socket 127.0.0.1:`peerPort` connected to 127.0.0.1:`serverPort`,
    /// or nil when the kernel lists no such socket.
    static func uid(peerPort: Int, serverPort: Int, table: String? = nil) -> uid_t? {
        guard let table = table ?? readAll("/proc/net/tcp") else { return nil }
        let local = "0100007F:" + hex(peerPort)
        let remote = "0100007F:" + hex(serverPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
            guard fields.count > 7, fields[1] == local, fields[2] == remote else { continue }
            return uid_t(fields[7])
        }
        return nil
    }

    /// The whole of a /proc file (Foundation's readers stop after the first page of one).
    static func readAll(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += chunk[0..<count]
        }
    }

    private static func hex(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Whether each open connection comes from the user the app belongs to, asked of the kernel
/// once per connection (a browser keeps its few connections open) and forgotten when it closes.
final class ConnectionOwners: Sendable {
    private let verdicts = Mutex<[ObjectIdentifier: Bool]>([:])

    func isOwnUser(_ channel: any Channel, serverPort: Int) -> Bool {
        let key = ObjectIdentifier(channel)
        if let known = verdicts.withLock({ $0[key] }) { return known }
        let own = channel.remoteAddress?.port.map { PeerOwner.uid(peerPort: $0, serverPort: serverPort) == getuid() } ?? false
        verdicts.withLock { $0[key] = own }
        channel.closeFuture.whenComplete { [weak self] _ in self?.verdicts.withLock { _ = $0.removeValue(forKey: key) } }
        return own
    }
}
