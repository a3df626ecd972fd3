import Foundation
import Synchronization

/// The fraction of a model's bytes downloaded, told to the caller rising only (a file a
/// server sends again from its start holds the bar until it passes where it was) and at most
/// every thousandth, then exactly 1 at the end.
final class DownloadProgress: Sendable {
    private let total: Int64
    private let report: @Sendable (Double) -> Void
    private let reported = Mutex<Double>(-1)

    init(total: Int64, report: @escaping @Sendable (Double) -> Void) {
        self.total = max(1, total)
        self.report = report
    }

    /// `bytes` of the whole model are here.
    func update(_ bytes: Int64) {
        let fraction = min(1, max(0, Double(bytes) / Double(total)))
        let due = reported.withLock { last -> Bool in
            guard fraction >= last + 0.001 || (last < 0 && fraction >= 0) else { return false }
            last = fraction
            return true
        }
        if due { report(min(fraction, 0.999)) }
    }

    func finish() {
        reported.withLock { $0 = 1 }
        report(1)
    }
}
