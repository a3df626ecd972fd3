internal import CEtPan

/// Calls `body` with a C string for `string`, or with nil.
func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Visits the elements of a libetpan `clist` (which stays owned by its owner).
func forEach<Element>(_ list: UnsafeMutablePointer<clist>?, as type: Element.Type, _ body: (UnsafeMutablePointer<Element>) -> Void) {
    var cursor = vm_clist_begin(list)
    while let cell = cursor {
        if let content = vm_clist_content(cell) {
            body(content.assumingMemoryBound(to: Element.self))
        }
        cursor = vm_clist_next(cell)
    }
}
