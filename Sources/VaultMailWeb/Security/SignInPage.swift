import Foundation

/// What `vaultmail open` hands the browser: a page in a file only the user can read, which posts
/// a fresh one-time token to the app. The token never appears on a command line (where other
/// local users could read it): the browser is given the file's path only.
public enum SignInPage {
    /// Writes a sign-in page for the app at `configuration` and returns its file; signed in, the
    /// browser shows conversation `thread` when one is given. Stale pages of earlier runs are removed.
    public static func write(configuration: WebConfiguration, secret: WebSecret, thread: String? = nil, now: Date = Date()) throws -> URL {
        let directory = configuration.signInDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        removeStale(in: directory, now: now)
        let token = SignInToken.make(secret: secret, now: now)
        struct Model { var origin: String; var token: String; var next: String }
        let html = template.render(Model(origin: configuration.origin, token: token, next: thread.map { Mailbox.allInboxes.url(thread: $0) } ?? "/mail")).html
        let file = directory.appendingPathComponent("open-\(UUID().uuidString.lowercased()).html")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(html.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw WebError.signInPage(file.path)
        }
        return file
    }

    private static let template = Template("""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Opening VaultMail…</title></head>
        <body>
        <form id="signin" method="post" action="{{origin}}/signin">
        <input type="hidden" name="token" value="{{token}}">
        <input type="hidden" name="next" value="{{next}}">
        <p>Opening VaultMail… <button type="submit">Open VaultMail</button></p>
        </form>
        <script>document.getElementById("signin").submit();</script>
        </body></html>
        """)

    /// Removes the sign-in pages in `directory` whose token has expired.
    static func removeStale(in directory: URL, now: Date) {
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey]) else { return }
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            if now.timeIntervalSince(modified) > SignInToken.lifetime { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    public static func isServing(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr.s_addr = inet_addr(WebConfiguration.host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// The port the daemon wrote when it started serving `home`'s app, if it did.
    public static func servingPort(configuration: WebConfiguration) -> Int? {
        (try? String(contentsOf: configuration.portFileURL, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
