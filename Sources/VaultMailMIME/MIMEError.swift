/// What went wrong inside the GMime wrapper. The parser never throws to its callers: these
/// errors become sentences in `ParsedMessage.problems`.
struct MIMEError: Error, CustomStringConvertible {
    let description: String
}

/// The one place where GMime's failure signals (a NULL where an object was expected) become
/// Swift errors that say what failed and what the reader is shown instead.
func check<Pointee>(_ pointer: UnsafeMutablePointer<Pointee>?, _ failure: @autoclosure () -> String) throws(MIMEError) -> UnsafeMutablePointer<Pointee> {
    guard let pointer else { throw MIMEError(description: failure()) }
    return pointer
}
