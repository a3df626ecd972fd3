import Foundation

/// A listening TCP socket on 127.0.0.1 at a free port, for the test servers here.
enum LoopbackListener {
    static func open(backlog: Int32) throws -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, listening else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
