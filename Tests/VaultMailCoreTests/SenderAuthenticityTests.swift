import Foundation
import Testing
import VaultMailCore

/// Issue 33: a VIP breaks through only when the user's own server authenticated the sender,
/// read from `Authentication-Results` (RFC 8601) whose authserv-id the account trusts.
@Suite("Sender authentication from Authentication-Results")
struct SenderAuthenticityTests {
    @Test("RFC 8601 fields are read: the server, each method's result and properties; comments and versions dropped")
    func parsing() throws {
        // RFC 8601 Appendix B.6 (trimmed), folded as a server writes it.
        let field = """
            example.com; spf=pass (good SPF) smtp.mailfrom=example.net; \
            sender-id=pass header.from=example.net; dkim/1=pass (good signature) header.d=example.net header.i=@mail-router.example.net
            """
        let results = try #require(AuthenticationResults(field))
        #expect(results.authservId == "example.com")
        #expect(results.checks.map(\.method) == ["spf", "sender-id", "dkim"])
        #expect(results.checks[0].properties["smtp.mailfrom"] == "example.net")
        #expect(results.checks[2].result == "pass")
        #expect(results.checks[2].properties["header.d"] == "example.net")
        #expect(AuthenticationResults("mx.google.com 1; none")?.checks == [])
        #expect(AuthenticationResults("MX.Example.COM; DKIM = Pass header.d=\"a.example\"")?.checks.first
                == .init(method: "dkim", result: "pass", properties: ["header.d": "a.example"]))
        #expect(AuthenticationResults("") == nil)
        #expect(AuthenticationResults("dkim=pass header.d=x.example") == nil, "a field without a server names no one")
    }

    let trust = AuthservTrust(imapHost: "imap.example.com", configured: nil)

    @Test("A DKIM signature, SPF or DMARC aligned with the From domain authenticates; another domain's does not")
    func alignment() {
        func check(_ field: String, from: String = "boss@corp.example") -> SenderAuthenticity {
            .of(fromAddress: from, fields: [field], trust: AuthservTrust(imapHost: "imap.example.com", configured: "mx.example.com"))
        }
        #expect(check("mx.example.com; dkim=pass header.d=corp.example") == .authenticated(by: "mx.example.com", evidence: "dkim=pass header.d=corp.example"))
        #expect(check("mx.example.com; dkim=pass header.d=mail.corp.example").isAuthenticated, "a subdomain aligns (relaxed)")
        #expect(check("mx.example.com; spf=pass smtp.mailfrom=bounce@corp.example").isAuthenticated)
        #expect(check("mx.example.com; dmarc=pass header.from=corp.example").isAuthenticated)
        #expect(!check("mx.example.com; dkim=pass header.d=attacker.example").isAuthenticated, "signed, but by someone else")
        #expect(!check("mx.example.com; dkim=pass header.d=example").isAuthenticated, "a bare top-level domain aligns with nothing")
        #expect(!check("mx.example.com; spf=softfail smtp.mailfrom=corp.example; dkim=none").isAuthenticated)
        #expect(check("mx.example.com; dkim=fail header.d=corp.example")
                == .failed(by: "mx.example.com", evidence: "dkim=fail header.d=corp.example"))
    }

    @Test("Only the trusted server counts: a sender's own field claiming a pass is ignored")
    func onlyTrustedServers() {
        let forged = "attacker.example; dkim=pass header.d=corp.example"
        let configured = AuthservTrust(imapHost: "imap.example.com", configured: "mx.example.com")
        #expect(SenderAuthenticity.of(fromAddress: "boss@corp.example", fields: [forged], trust: configured) == .unchecked(trust: configured))
        // The server's own field says fail; a forged one below it says pass: fail.
        let real = "mx.example.com; dkim=fail header.d=corp.example; spf=fail smtp.mailfrom=corp.example"
        #expect(!SenderAuthenticity.of(fromAddress: "boss@corp.example", fields: [real, forged], trust: configured).isAuthenticated)
    }

    @Test("Without a configured name, the IMAP host's domain and well-known providers' names are trusted")
    func derivedTrust() {
        #expect(trust.trusts("mx.example.com"))
        #expect(trust.trusts("example.com"))
        #expect(trust.trusts("IMAP.example.com"))
        #expect(!trust.trusts("example.com.attacker.net"))
        #expect(!trust.trusts("notexample.com"))
        let gmail = AuthservTrust(imapHost: "imap.gmail.com", configured: nil)
        #expect(gmail.trusts("mx.google.com"))
        #expect(!gmail.trusts("google.com.evil"))
        #expect(AuthservTrust(imapHost: "mail.example.co.uk", configured: nil).derivedDomain == "example.co.uk")
        let loopback = AuthservTrust(imapHost: "127.0.0.1", configured: nil)
        #expect(loopback.derivedDomain == nil)
        #expect(!loopback.trusts("0.0.1"))
        let configured = AuthservTrust(imapHost: "imap.example.com", configured: "mx1.example.net, MX2.example.net")
        #expect(configured.trusts("mx2.example.net"))
        #expect(!configured.trusts("mx.example.com"), "configured names replace the derived ones")
    }

    @Test("Every value of a repeated header field is read, topmost first")
    func repeatedFields() {
        let raw = Array("""
            Authentication-Results: mx.example.com;
             dkim=pass header.d=corp.example
            Received: from x
            Authentication-Results: other.example; none
            Subject: hi

            Authentication-Results: body.example; not a header
            """.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(MessageHeaderFields.values(named: "authentication-results", in: raw)
                == ["mx.example.com; dkim=pass header.d=corp.example", "other.example; none"])
        #expect(MessageHeaderFields.parse(raw)["authentication-results"] == "mx.example.com; dkim=pass header.d=corp.example")
    }
}

extension SenderAuthenticity {
    var isAuthenticated: Bool {
        if case .authenticated = self { return true }
        return false
    }
}
