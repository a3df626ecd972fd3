import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP, caught so the demo can stop its servers and remove
/// its files before it exits. The handler only records the signal; the demo polls it.
enum InterruptSignal {
    private static let received = Atomic<Int32>(0)

    /// Real handlers, not SIG_IGN, so programs the demo starts get the defaults again on
    /// exec. SIGPIPE (standard output closed early, as by `| head`) is caught and forgotten:
    /// the write fails instead, and the demo goes on to clean up.
    static func install() {
        _ = caught  // initialise the lazy static here, never first inside a handler
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { caught in InterruptSignal.received.store(caught, ordering: .relaxed) }
        }
        signal(SIGPIPE) { _ in }
    }

    /// The signal caught, if any.
    static var caught: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
