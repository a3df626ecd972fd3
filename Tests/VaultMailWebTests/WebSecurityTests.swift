import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 12's security points, each against the running server over a real socket.
@Suite("Web app security (issue 12)", .serialized)
@MainActor
struct WebSecurityTests {
    @Test("It listens on 127.0.0.1 only, and its secret is readable by its owner only")
    func loopbackAndSecret() async throws {
        try await WebFixture.with { web in
            let hexPort = String(format: "%04X", web.port)
            let table = try #require(PeerOwner.readAll("/proc/net/tcp"))
            let listening = table.split(separator: "\n").filter { $0.contains(":\(hexPort) ") && $0.contains(" 0A ") }
            #expect(!listening.isEmpty, "no listening socket on port \(web.port)")
            for line in listening {
                #expect(line.contains("0100007F:\(hexPort)"), "listens beyond loopback: \(line)")
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: web.web.configuration.secretURL.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test("Without the session cookie a page says to run `vaultmail open`, and no mail is shown")
    func noCookie() async throws {
        try await WebFixture.with { web in
            try await web.store([MailFixtures.email(accountId: web.account.id, number: 1, subject: "Secret plans")])
            for path in ["/mail", "/mail/list?box=inbox", "/mail/counts?box=inbox", "/events"] {
                let reply = try await web.get(path, cookie: nil)
                #expect(reply.status == 401, "\(path) answered \(reply.status)")
                #expect(reply.text.contains("vaultmail open"), "\(path) does not say how to sign in")
                #expect(!reply.text.contains("Secret plans"))
            }
            let forged = try await web.get("/mail", cookie: "vaultmail_session=1.abc.def")
            #expect(forged.status == 401)
        }
    }

    @Test("A one-time token signs in once with an HttpOnly, SameSite=Strict cookie; a reused, forged or expired one does not")
    func signIn() async throws {
        try await WebFixture.with { web in
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let token = SignInToken.make(secret: secret)
            let form: [(String, String)] = [("Origin", "null"), ("Content-Type", "application/x-www-form-urlencoded")]
            let first = try await HTTPTestClient.request(port: web.port, method: "POST", path: "/signin", headers: form, body: "token=\(token)")
            let cookie = try #require(first.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.hasPrefix("vaultmail_session="))
            let again = try await HTTPTestClient.request(port: web.port, method: "POST", path: "/signin", headers: form, body: "token=\(token)")
            #expect(again.headers["set-cookie"] == nil)
            #expect(again.text.contains("already used"))
            let forged = SignInToken.make(secret: WebSecret(key: Array(repeating: 7, count: 32)))
            let refused = try await HTTPTestClient.request(port: web.port, method: "POST", path: "/signin", headers: form, body: "token=\(forged)")
            #expect(refused.headers["set-cookie"] == nil)
            let old = SignInToken.make(secret: secret, now: Date().addingTimeInterval(-SignInToken.lifetime - 10))
            let expired = try await HTTPTestClient.request(port: web.port, method: "POST", path: "/signin", headers: form, body: "token=\(old)")
            #expect(expired.headers["set-cookie"] == nil)
        }
    }

    @Test("A foreign or missing Host is refused (DNS rebinding)")
    func foreignHost() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            for host in ["evil.example", "evil.example:\(web.port)", "127.0.0.1:1", "127.0.0.1"] {
                let reply = try await HTTPTestClient.request(port: web.port, path: "/mail", host: host, headers: [("Cookie", session.cookie)])
                #expect(reply.status == 421, "Host \(host) answered \(reply.status)")
            }
            let none = try await HTTPTestClient.request(port: web.port, path: "/mail", host: nil, headers: [("Cookie", session.cookie)])
            #expect(none.status == 421)
            let localhost = try await HTTPTestClient.request(port: web.port, path: "/mail", host: "localhost:\(web.port)", headers: [("Cookie", session.cookie)])
            #expect(localhost.status == 200)
        }
    }

    @Test("A state-changing request needs a same-origin Origin and the page's CSRF token")
    func crossOriginPost() async throws {
        try await WebFixture.with { web in
            let stored = try await web.store([MailFixtures.email(accountId: web.account.id, number: 1)])
            let thread = stored[0].threadId
            let session = try await web.signIn()
            let body = "action=star&t[]=\(thread)&csrf=\(session.csrf)"
            for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
                let reply = try await web.post("/actions", body, cookie: session.cookie, origin: origin)
                #expect(reply.status == 403, "Origin \(origin) answered \(reply.status)")
            }
            #expect(try await web.post("/actions", body, cookie: session.cookie, origin: nil).status == 403)
            #expect(try await web.post("/actions", "action=star&t[]=\(thread)", cookie: session.cookie).status == 403)
            #expect(try await web.post("/actions", "action=star&t[]=\(thread)&csrf=0000", cookie: session.cookie).status == 403)
            #expect(try await web.app.emailRepository.getThread(id: thread)?.isStarred == false)

            let done = try await web.post("/actions", body, cookie: session.cookie)
            #expect(done.status == 303)
            #expect(try await web.app.emailRepository.getThread(id: thread)?.isStarred == true)
        }
    }

    @Test("Every page carries a strict Content-Security-Policy and has no inline script, handler or style")
    func contentSecurityPolicy() async throws {
        try await WebFixture.with { web in
            let stored = try await web.store([MailFixtures.email(accountId: web.account.id, number: 1)])
            let session = try await web.signIn()
            for path in ["/mail", "/mail?box=inbox&t=\(stored[0].threadId)", "/signin", "/mail?box=outbox", "/mail/search?q=x"] {
                let reply = try await web.get(path, cookie: path == "/signin" ? nil : session.cookie)
                let policy = try #require(reply.headers["content-security-policy"], "\(path) has no CSP")
                #expect(policy.contains("default-src 'self'"))
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
                #expect(reply.headers["x-content-type-options"] == "nosniff")
                #expect(!reply.text.contains("<script>"), "\(path) has an inline script")
                #expect(reply.text.firstMatch(of: /\son[a-z]+=/) == nil, "\(path) has an event handler attribute")
                #expect(!reply.text.contains(" style=\""), "\(path) has an inline style")
            }
        }
    }

    @Test("A message's HTML is served sandboxed with its own CSP; a download is an attachment that never renders")
    func messageFrame() async throws {
        try await WebFixture.with { web in
            var email = MailFixtures.email(accountId: web.account.id, number: 1)
            email.bodyHTML = "<p>Hello <script>window.parent.pwned=1</script><img src=\"http://127.0.0.1:9/pixel.gif\"></p>"
            try await web.store([email])
            let session = try await web.signIn()
            let frame = try await web.get("/message/\(email.id)/body", cookie: session.cookie)
            #expect(frame.status == 200)
            let policy = try #require(frame.headers["content-security-policy"])
            #expect(policy.contains("sandbox"))
            #expect(policy.contains("default-src 'none'"))
            #expect(!policy.contains("http:"))
            // One script only, ours (the height report, MessageFrameTests); the mail's is gone.
            #expect(frame.text.components(separatedBy: "<script").count == 2 && !frame.text.contains("pwned"))
            #expect(!frame.text.contains("127.0.0.1:9"))
            let allowed = try await web.get("/message/\(email.id)/body?images=1", cookie: session.cookie)
            #expect(allowed.headers["content-security-policy"]?.contains("img-src data: http: https:") == true)
        }
    }
}

/// Another user of the machine, with the cookie in hand, is still refused.
@Suite("Web app: other local users (issue 12)", .serialized)
@MainActor
struct WebOtherUserTests {
    @Test("The kernel's socket table names the client's user")
    func peerOwner() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:2135 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 1 1
               1: 0100007F:C350 0100007F:2135 01 00000000:00000000 00:00000000 00000000    65534        0 2 1
            """
        #expect(PeerOwner.uid(peerPort: 0xC350, serverPort: 0x2135, table: table) == 65534)
        #expect(PeerOwner.uid(peerPort: 0x2135, serverPort: 0xC350, table: table) == 1000)
        #expect(PeerOwner.uid(peerPort: 1, serverPort: 0x2135, table: table) == nil)
    }

    @Test("A request from another local user is refused even with a valid session cookie", .enabled(if: getuid() == 0, "needs root to act as another user"))
    func otherUser() async throws {
        try await WebFixture.with { web in
            let session = try await web.signIn()
            let script = """
                import sys, urllib.request
                request = urllib.request.Request(sys.argv[1], headers={"Cookie": sys.argv[2]})
                try:
                    print(urllib.request.urlopen(request, timeout=20).status)
                except urllib.error.HTTPError as error:
                    print(error.code, error.read().decode())
                """
            let result = try await ProcessCapture.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                            "/usr/bin/python3", "-c", script, "\(web.origin)/mail", session.cookie],
                                                      timeout: .seconds(60))
            let output = String(decoding: result.output, as: UTF8.self)
            #expect(output.hasPrefix("403"), "another user got: \(output)")
            #expect(output.contains("belongs to another user"))
            #expect(try await web.get("/mail", cookie: session.cookie).status == 200, "the user's own requests still pass")
        }
    }
}
