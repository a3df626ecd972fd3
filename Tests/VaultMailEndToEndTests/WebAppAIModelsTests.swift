import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Settings → On-device AI and the onboarding step in a real browser (AC-A-03, AC-A-08): the
/// daemon downloads the real all-MiniLM-L6-v2 (from `make deps`' copy) from a file server on
/// loopback named by `VAULTMAIL_MODELS_MIRROR`; the server pauses part-way so the page is seen
/// moving its bar before it says "Installed". axe-core checks each screen.
@Suite("Web app in a browser: on-device AI models (issue 15)", .serialized, .timeLimit(.minutes(3)))
struct WebAppAIModelsTests {
    @Test("AC-A-03, AC-A-08: the onboarding step can be skipped; Download shows a moving bar, then Installed, and the features are on")
    func downloadInTheBrowser() async throws {
        let model = try AIModelFixture.installedMiniLMDirectory()
        let id = AIModelCatalog.embeddingModelId
        var files: [String: Data] = [:]
        for name in AIModelFixture.miniLMFiles {
            files["/\(id)/\(name)"] = try Data(contentsOf: model.appendingPathComponent(name), options: .alwaysMapped)
        }
        let server = try ModelFileServer(files: files)
        defer { server.stop() }
        server.setBehaviour(.pause(afterBytes: 30_000_000), for: "/\(id)/model.safetensors")

        try await EndToEndWorld.with { world in
            var environment = world.environment
            environment["VAULTMAIL_MODELS_MIRROR"] = server.baseURL.absoluteString
            let daemon = try ChildProcess(EndToEndWorld.binary, ["daemon", "--web-port", "0"], environment: environment)
            defer { daemon.stop() }
            try await daemon.waitForOutput("web app at http://127.0.0.1:", timeout: .seconds(90))
            let browser = try await world.signedInBrowser(landing: "/welcome")
            defer { browser.stop() }

            // The onboarding step: what it is, Download, Skip.
            try await browser.js("location.href = '/welcome/ai'")
            try await browser.wait("return document.querySelector('#ai-skip') !== null")
            #expect(try await browser.string("return document.querySelector('h1').textContent") == "Sort and search your mail by meaning")
            #expect(try await browser.string("return document.querySelector('#download-\(id)').textContent") == "Download")
            try await world.expectAccessible(browser, page: "the onboarding's AI step")
            try await world.screenshots(browser, name: "ai-onboarding")
            #expect(try await browser.string("return document.querySelector('#ai-skip').getAttribute('href')") == "/mail")
            #expect(try await world.vaultmail(["ai", "status"]).text.contains("Download a model to enable categories and search by meaning"),
                    "skipped: the features say how to turn them on")

            // Settings → On-device AI: Download, the bar moves while the server pauses, then Installed.
            try await browser.js("location.href = '/settings'")
            try await browser.wait("return document.querySelector('a[href=\"/settings/ai\"]') !== null")
            try await browser.click("a[href=\"/settings/ai\"]")
            try await browser.wait("return location.pathname === '/settings/ai' && document.querySelector('#download-\(id)') !== null")
            try await world.expectAccessible(browser, page: "Settings → On-device AI")
            try await browser.click("#download-\(id)")
            try await browser.wait("return document.querySelector('#progress-\(id)') !== null && document.querySelector('#progress-\(id)').value >= 30", timeout: 60)
            #expect(server.stalledConnections == 1)
            #expect(try await browser.string("return document.querySelector('[data-ai-state]').textContent").hasPrefix("Downloading: "))
            #expect(try await browser.js("return document.querySelector('#cancel-\(id)') !== null") as? Bool == true)
            try await world.expectAccessible(browser, page: "a download under way")
            try await world.screenshots(browser, name: "ai-downloading")
            server.releaseStalled()
            try await browser.wait("return document.querySelector('[data-ai-state]').textContent.startsWith('Installed')", timeout: 90)
            #expect(try await browser.js("return document.querySelector('progress') === null") as? Bool == true)
            try await world.expectAccessible(browser, page: "an installed model")
            try await world.screenshots(browser, name: "ai-installed")
            let status = try await world.vaultmail(["ai", "status"]).text
            #expect(status.contains("categories and search by meaning: on (\(id))"), "\(status)")
            #expect(server.requests.filter { $0.path.hasSuffix("model.safetensors") }.count == 1)
        }
    }
}
