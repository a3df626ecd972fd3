import Foundation

/// A TCP listener on 127.0.0.1 that never accepts or answers: the kernel completes the
/// handshake, then nothing. For timeout tests.
final class SilentServer {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 8)
    }

    deinit {
        close(descriptor)
    }
}
