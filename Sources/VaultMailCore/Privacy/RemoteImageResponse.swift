import Foundation

/// What a remote server answered to one GET.
public struct RemoteImageResponse: Sendable {
    public var status: Int
    /// The `Location` of a redirect, as sent (maybe relative).
    public var location: String?
    /// The `Content-Type`, without its parameters, lowercased.
    public var contentType: String?
    public var body: Data

    public init(status: Int, location: String? = nil, contentType: String? = nil, body: Data = Data()) {
        self.status = status
        self.location = location
        self.contentType = contentType
        self.body = body
    }
}
