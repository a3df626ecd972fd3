import Foundation
import VaultMailTesting

extension DemoScript {
    /// Step 9: the same mail in the web app the daemon serves. With a display the browser
    /// opens (`vaultmail open`); without one a headless Chromium signs in the same way and
    /// takes a screenshot.
    func webApp(_ tool: VaultMailTool) async throws {
        say.step(9, "The web app")
        guard let home = tool.environment["VAULTMAIL_HOME"],
              let port = (try? String(contentsOfFile: home + "/web-port", encoding: .utf8)).flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            throw DemoFailure("the daemon is not serving its web app (no web-port file in its home)")
        }
        say.say("The daemon also serves the mail as a web app on http://127.0.0.1:\(port)/ (loopback only).")
        say.say("`vaultmail open` opens it in your browser, already signed in, with a one-time token.")
        if display != nil, isatty(STDIN_FILENO) == 1 {
            try await vaultmail(tool, ["open"])
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), let driver = Self.browserDriver() else {
            say.say("(No Chromium here for a screenshot: install it with scripts/install-deps.sh.)")
            return
        }
        let page = try await tool.run(["open", "--no-browser"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let browser = try await BrowserSession.start(driver: driver)
        defer { browser.stop() }
        try await browser.get("file://" + page)
        try await browser.wait("return location.pathname === '/mail' && document.querySelector('#threads') !== null", timeout: 60)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-demo-web.png").path
        try await browser.screenshot(shot)
        let rows = Int(try await browser.number("return document.querySelectorAll('#threads .row').length"))
        say.done("a headless Chromium signed in and shows \(rows) conversations; screenshot: \(shot)")
    }

    /// `scripts/browser_driver.py` of the checkout the demo was built in.
    static func browserDriver() -> String? {
        var directory = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        for _ in 0..<6 {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("scripts/browser_driver.py").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }
}
