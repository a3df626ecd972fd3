import Foundation

/// Sends a form to an OAuth2 endpoint (`application/x-www-form-urlencoded` POST over HTTPS)
/// and gives back the status and body. The form carries secrets (codes, verifiers, refresh
/// tokens): implementations never log it or put it in an error.
public protocol OAuthHTTPClient: Sendable {
    func postForm(_ url: URL, fields: [(String, String)]) async throws -> (status: Int, body: Data)
}
