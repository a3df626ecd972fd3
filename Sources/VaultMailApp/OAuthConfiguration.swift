import Foundation
import VaultMailCore

/// Where an OAuth2 sign-in's provider and client come from, first match wins:
/// - the client ID: `--oauth-client-id`, else `$VAULTMAIL_GMAIL_CLIENT_ID` /
///   `$VAULTMAIL_OUTLOOK_CLIENT_ID`, else the configuration file of the user
///   (`$XDG_CONFIG_HOME/vaultmail/oauth.json`) or of the packager (`/etc/vaultmail/oauth.json`):
///   `{"gmail": {"clientId": "…", "clientSecret": "…"}, "outlook": {"clientId": "…"}}`;
/// - the client secret (Google issues one to desktop apps): `$VAULTMAIL_GMAIL_CLIENT_SECRET`
///   or the same files, never the command line;
/// - the endpoints: the provider's own, unless `$VAULTMAIL_OAUTH_AUTHORIZATION_URL`,
///   `$VAULTMAIL_OAUTH_TOKEN_URL` and `$VAULTMAIL_OAUTH_REVOCATION_URL` say otherwise (tests,
///   a provider's own deployment).
public struct OAuthConfiguration: Sendable {
    public var environment: [String: String]
    public var files: [String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, files: [String]? = nil) {
        self.environment = environment
        self.files = files ?? Self.defaultFiles(environment)
    }

    static func defaultFiles(_ environment: [String: String]) -> [String] {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return [config + "/vaultmail/oauth.json", "/etc/vaultmail/oauth.json"]
    }

    /// The preset `id` with the endpoints of the environment.
    public func provider(_ id: String) -> OAuthProvider? {
        OAuthProvider.preset(id)?.with(
            authorizationEndpoint: url("VAULTMAIL_OAUTH_AUTHORIZATION_URL"), tokenEndpoint: url("VAULTMAIL_OAUTH_TOKEN_URL"),
            revocationEndpoint: url("VAULTMAIL_OAUTH_REVOCATION_URL"))
    }

    /// The client to sign in to `provider` as.
    public func client(for provider: OAuthProvider, clientID option: String?) throws -> OAuthClient {
        let prefix = "VAULTMAIL_\(provider.id.uppercased())_"
        let file = fileEntry(provider.id)
        guard let id = nonEmpty(option) ?? nonEmpty(environment[prefix + "CLIENT_ID"]) ?? nonEmpty(file?["clientId"]) else {
            throw OAuthError.noClientID(provider: provider.name)
        }
        return OAuthClient(id: id, secret: nonEmpty(environment[prefix + "CLIENT_SECRET"]) ?? nonEmpty(file?["clientSecret"]))
    }

    private func fileEntry(_ provider: String) -> [String: String]? {
        for path in files {
            guard let data = FileManager.default.contents(atPath: path),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let entry = json[provider] as? [String: Any] else { continue }
            return entry.compactMapValues { $0 as? String }
        }
        return nil
    }

    private func url(_ name: String) -> URL? {
        nonEmpty(environment[name]).flatMap(URL.init(string:))
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
