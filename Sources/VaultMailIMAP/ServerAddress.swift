import Foundation

/// `host:port`, with IPv6 literals in brackets.
enum ServerAddress {
    static func text(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
