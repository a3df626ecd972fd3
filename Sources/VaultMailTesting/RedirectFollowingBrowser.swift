import Foundation
import VaultMailCore

/// A `BrowserLauncher` for tests that does what the user's browser does on an automatic
/// consent page: asks for the URL and follows its redirects (to the loopback listener), over
/// plain HTTP on 127.0.0.1. It records what it opened; `onOpen` runs first (to tamper with the
/// flow, or to do nothing at all: `follows: false`).
public actor RedirectFollowingBrowser: BrowserLauncher {
    public private(set) var opened: [URL] = []
    /// The status of the last page it reached (the listener's answer).
    public private(set) var lastStatus: Int?
    public private(set) var lastPage: String?
    private let follows: Bool

    public init(follows: Bool = true) {
        self.follows = follows
    }

    public func open(_ url: URL) async throws {
        opened.append(url)
        guard follows else { return }
        var next: URL? = url
        var hops = 0
        while let current = next, hops < 5 {
            hops += 1
            guard let port = current.port else { break }
            let path = current.path.isEmpty ? "/" : current.path
            let target = path + (current.query.map { "?" + $0 } ?? "")
            let reply = try await HTTPTestClient.request(port: port, path: target)
            lastStatus = reply.status
            lastPage = reply.text
            next = reply.headers["location"].flatMap(URL.init(string:))
        }
    }
}
