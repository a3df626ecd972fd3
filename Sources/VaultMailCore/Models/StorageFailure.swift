/// An error of the store on this computer that can say whether the disk was full (issue 34):
/// the store's adapter conforms its errors (SQLite's SQLITE_FULL).
public protocol StorageFailure: Error {
    /// The write failed because the disk (or the store's size limit) is full.
    var isDiskFull: Bool { get }
}
