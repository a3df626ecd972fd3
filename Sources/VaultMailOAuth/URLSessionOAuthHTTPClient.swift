import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import VaultMailCore

/// `OAuthHTTPClient` over URLSession (libcurl on Linux): an ephemeral session (no cookies, no
/// cache), HTTPS to the provider (plain HTTP only to loopback, for tests), a time limit.
/// The form is never logged; errors say what failed without it.
public struct URLSessionOAuthHTTPClient: OAuthHTTPClient {
    let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
    }

    public func postForm(_ url: URL, fields: [(String, String)]) async throws -> (status: Int, body: Data) {
        guard url.scheme == "https" || (url.scheme == "http" && ConnectionSecurity.isLoopback(url.host ?? "")) else {
            throw OAuthError.unreachable(endpoint: url.host ?? "the endpoint", reason: "an OAuth2 endpoint must use https")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(Self.formEncode(fields).utf8)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// `application/x-www-form-urlencoded`: everything but unreserved characters escaped.
    static func formEncode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}
