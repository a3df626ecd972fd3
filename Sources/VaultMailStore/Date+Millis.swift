import Foundation

extension Date {
    /// Whole milliseconds since 1970, as stored in the database.
    var millis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(millis: Int64) {
        self.init(timeIntervalSince1970: Double(millis) / 1000)
    }
}
