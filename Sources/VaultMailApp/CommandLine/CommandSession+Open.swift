import Foundation
import VaultMailCore
import VaultMailWeb

extension CommandSession {
    /// `vaultmail open`: opens the daemon's web app in the default browser, signed in. The
    /// browser gets the path of a page only the user can read, which carries a one-time token;
    /// the token itself is on no command line. Returns what to tell the user.
    public func openWeb(thread: String? = nil, launchBrowser: Bool) async throws -> String {
        let configuration = WebConfiguration(home: home.directory)
        // A port file left by a daemon that died names a port someone else may now hold.
        guard DaemonLock.isHeld(path: home.daemonLockPath), let port = SignInPage.servingPort(configuration: configuration) else {
            throw CommandError("\(WebError.notServing("no daemon is serving it for \(home.directory.path)"))")
        }
        let served = WebConfiguration(port: port, home: home.directory)
        guard SignInPage.isServing(port: port) else {
            throw CommandError("\(WebError.notServing("nothing answers on 127.0.0.1:\(port)"))")
        }
        guard let secret = try WebSecret.load(at: served.secretURL) else {
            throw CommandError("\(WebError.notServing("it has no sign-in secret in \(home.directory.path) yet"))")
        }
        var threadId: String?
        if let thread { threadId = try await self.threadId(thread) }
        let page = try SignInPage.write(configuration: served, secret: secret, thread: threadId)
        guard launchBrowser else { return page.path }
        let opener = ["xdg-open", "sensible-browser"].first { command in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
        }
        guard let opener else {
            return "No browser opener (xdg-open) here: open \(page.path) in your browser within \(Int(SignInToken.lifetime)) seconds."
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [opener, page.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return "Opening VaultMail (\(served.origin)/) in your browser."
    }
}

