// TEMPORARY: lets the rest compile until the real sanitizer lands; deleted then.
public struct SanitizedHTML: Sendable, Equatable {
    public var html: String
    public var blockedRemoteContent: Int
    public var contentIds: [String]
}
public struct HTMLSanitizer: Sendable {
    public struct Options: Sendable {
        public var allowRemoteImages: Bool = false
        public var contentIdURLs: [String: String] = [:]
        public var foldQuotes: Bool = true
        public init(allowRemoteImages: Bool = false, contentIdURLs: [String: String] = [:], foldQuotes: Bool = true) {}
    }
    public init() {}
    public func sanitize(_ html: String, options: Options = Options()) -> SanitizedHTML { SanitizedHTML(html: "", blockedRemoteContent: 0, contentIds: []) }
}
