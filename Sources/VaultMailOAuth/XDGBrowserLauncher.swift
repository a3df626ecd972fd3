import Foundation
import VaultMailCore

/// Opens the consent page with `xdg-open` (the user's default browser). The URL holds no
/// secret (a PKCE challenge, a state), so it may be on a command line.
public struct XDGBrowserLauncher: BrowserLauncher {
    let command: String

    public init(command: String = "/usr/bin/xdg-open") {
        self.command = command
    }

    public func open(_ url: URL) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }
}
