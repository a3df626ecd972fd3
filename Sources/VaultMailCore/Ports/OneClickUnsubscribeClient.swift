import Foundation

/// Sends RFC 8058's one-click unsubscribe request (§3.1): one `POST` to an https URL with the
/// body `List-Unsubscribe=One-Click` as `application/x-www-form-urlencoded`, no cookies, no
/// credentials, no Referer, and no redirect followed (a 3xx is the answer). Implemented by
/// `TLSOneClickUnsubscribeClient` (VaultMailIMAP) over the same verified TLS as mail.
public protocol OneClickUnsubscribeClient: Sendable {
    /// The status code of the sender's answer. Throws, with the reason in words, when the
    /// server cannot be reached, its certificate is not trusted, or it does not answer in time.
    func postOneClick(to url: URL) async throws -> Int
}
