import Foundation
import Testing
import VaultMailCore

@Suite("PKCE")
struct PKCETests {
    @Test("RFC 7636 Appendix B: the S256 challenge of the example verifier")
    func rfcExample() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("a fresh verifier is 43 unreserved characters, different every time")
    func freshVerifier() {
        let a = PKCE(), b = PKCE()
        #expect(a.verifier.count == 43)
        #expect(a.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(a.verifier != b.verifier)
        #expect(a.method == "S256")
    }

    @Test("the consent URL carries the client, loopback redirect, scopes, state, challenge and provider parameters")
    func consentURL() throws {
        let url = OAuthSignIn.consentURL(provider: .microsoft, client: OAuthClient(id: "client-1"),
                                         redirectURI: URL(string: "http://127.0.0.1:4321/")!, challenge: "abc",
                                         state: "s+t", email: "ada@outlook.com")
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(url.host == "login.microsoftonline.com")
        #expect(query["client_id"] == "client-1")
        #expect(query["redirect_uri"] == "http://127.0.0.1:4321/")
        #expect(query["scope"] == "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["login_hint"] == "ada@outlook.com")
        #expect(url.absoluteString.contains("state=s%2Bt"))
        let google = OAuthSignIn.consentURL(provider: .google, client: OAuthClient(id: "c"), redirectURI: URL(string: "http://127.0.0.1:1/")!,
                                            challenge: "x", state: "y", email: nil)
        #expect(google.absoluteString.contains("scope=https://mail.google.com/") || google.absoluteString.contains("scope=https%3A%2F%2Fmail.google.com%2F"))
        #expect(google.absoluteString.contains("access_type=offline"))
    }

    @Test("presets by command-line name")
    func presets() {
        #expect(OAuthProvider.preset("gmail") == .google)
        #expect(OAuthProvider.preset("Outlook") == .microsoft)
        #expect(OAuthProvider.preset("yahoo") == nil)
    }
}
