import Foundation

/// Where the web app listens and where it keeps its secret.
public struct WebConfiguration: Sendable {
    /// The port `vaultmail daemon` serves on unless told otherwise (`--web-port`).
    public static let defaultPort = 8517
    /// Always loopback: the app is for the user at this machine only.
    public static let host = "127.0.0.1"

    public var port: Int
    /// The VaultMail home: the sign-in secret (`web-secret`, mode 0600) and the port file live there.
    public var home: URL

    public init(port: Int = WebConfiguration.defaultPort, home: URL) {
        self.port = port
        self.home = home
    }

    public var secretURL: URL { home.appendingPathComponent("web-secret") }
    /// Written while the app is served: the port, so `vaultmail open` finds it.
    public var portFileURL: URL { home.appendingPathComponent("web-port") }
    /// Where `vaultmail open` leaves its one-time sign-in page for the browser.
    public var signInDirectory: URL { home.appendingPathComponent("web-signin") }

    /// The app's own origin, as the browser names it.
    public var origin: String { "http://\(Self.host):\(port)" }
}
