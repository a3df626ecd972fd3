/// What the web app could not do, saying what to do about it.
public enum WebError: Error, Sendable, CustomStringConvertible {
    case secret(String, String)
    case portInUse(Int)
    case notServing(String)
    case signInPage(String)

    public var description: String {
        switch self {
        case .secret(let path, let reason):
            "cannot use the web app's secret at \(path): \(reason)"
        case .portInUse(let port):
            "cannot serve the web app on 127.0.0.1:\(port): the port is in use (another VaultMail daemon, or another program); pass --web-port with a free port, or --no-web"
        case .signInPage(let path):
            "cannot write the sign-in page \(path); check that the VaultMail home is yours and writable"
        case .notServing(let reason):
            "the web app is not running (\(reason)); start it with `vaultmail daemon` (it serves the app unless given --no-web)"
        }
    }
}
