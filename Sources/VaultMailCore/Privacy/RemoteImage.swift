import Foundation

/// An image the proxy gives the page: its bytes and type.
public struct RemoteImage: Sendable, Equatable {
    public var data: Data
    public var contentType: String

    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}
