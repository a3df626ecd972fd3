import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Summaries and suggested replies in a real headless Chromium (Debian's chromium and
/// chromium-driver through `scripts/browser_driver.py`) against the web app in this process,
/// with a scripted writing model that writes at a readable pace; axe-core 4.x on the page.
@Suite("Web app in a browser: summaries and suggested replies (issue 16)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct WebWritingBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let driver = repository.appendingPathComponent("scripts/browser_driver.py").path
    static let axeScript = repository.appendingPathComponent(".build/axe/axe.min.js").path
    static let screenshots = repository.appendingPathComponent(".build/web-screenshots")

    /// The scripted model's words, a piece every `pause` (as the real one decodes tokens).
    /// A request containing `held` starts writing only once the test opens `gate`, so a test
    /// can look at the page while it is certainly still being written, however slow the machine.
    struct PacedTextGenerator: TextGenerator {
        let inner: ScriptedTextGenerator
        let pause: Duration
        var held: String?
        var gate = Gate()

        /// Opened once by the test; requests wait for it by polling (a condition, not a time).
        final class Gate: Sendable {
            private let isOpen = Mutex(false)
            func open() { isOpen.withLock { $0 = true } }
            var opened: Bool { isOpen.withLock { $0 } }
        }

        var modelId: String { inner.modelId }

        func isAvailable() async -> Bool { await inner.isAvailable() }

        func generate(_ request: GenerationRequest) -> AsyncThrowingStream<String, any Error> {
            let pieces = inner.generate(request)
            let pause = pause
            let waits = held.map { held in request.turns.contains { $0.text.contains(held) } } ?? false
            let gate = gate
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        if waits { try await waitUntil("the test to open the gate", timeout: .seconds(600)) { gate.opened } }
                        for try await piece in pieces {
                            try await Task.sleep(for: pause)
                            continuation.yield(piece)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    @Test("AC-A-05, AC-A-06: a 3-message conversation shows its summary by itself, suggestions stream in, one click puts one in the composer; new mail refreshes the summary live; axe finds nothing")
    func summaryAndReplies() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        // The written suggestion (the last of three) waits until the test has seen the first.
        let writer = PacedTextGenerator(inner: WebWritingTests.writer(), pause: .milliseconds(60), held: "asks one short question")
        try await WebFixture.with(generator: writer) { web in
            let id = web.account.id
            try await web.store(WebWritingTests.launchThread(accountId: id))
            try await web.store([
                MailFixtures.email(accountId: id, number: 20, from: "notes@example.net", fromName: "Notes", subject: "Weekly notes", isRead: true),
                MailFixtures.email(accountId: id, number: 21, from: "kay@example.net", fromName: "Kay", subject: "Lunch on Friday?"),
            ])
            let browser = try await BrowserSession.start(driver: Self.driver)
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: "launch")
            try await browser.get(signIn.absoluteString)
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#conversation') !== null", timeout: 60)

            #expect(try await browser.js("const a = document.querySelector('.replies-ask'); return !a || getComputedStyle(a).display === 'none'") as? Bool == true,
                    "the no-script link is hidden when the script runs")
            // The page is there before the model has written anything: the panel says so.
            let state = try await browser.string("return document.querySelector('#summary').dataset.state")
            #expect(["pending", "summary"].contains(state), "\(state)")
            // Suggestions stream in: the first one is shown before the last is written.
            let first = try #require(try await browser.call(["cmd": "wait", "timeout": 60, "script": """
                const n = document.querySelectorAll('#reply-suggestions .suggestion').length;
                return n >= 1 ? document.querySelector('#reply-suggestions').dataset.state + ':' + n : false
                """]) as? [String: Any])
            #expect((first["value"] as? String)?.hasPrefix("loading:") == true, "the first suggestion is shown while the others are written: \(first)")
            writer.gate.open()
            try await browser.wait("return document.querySelector('#summary').dataset.state === 'summary'", timeout: 60)
            // The summary waits behind its small button (issue 29: it does not push the mail down).
            #expect(try await browser.string("return document.querySelector('#summary').innerText").isEmpty, "the summary is folded until asked")
            try await browser.click(".ai-menu > summary")
            let summary = try await browser.string("return document.querySelector('#summary').innerText")
            #expect(summary.contains("Grace asked to move the launch review from Thursday to Friday."), "\(summary)")
            #expect(summary.contains("Written on this device by SmolLM2-135M-Instruct (Q4_1)"), "\(summary)")
            #expect(try await browser.js("return document.querySelector('#summary').getAttribute('aria-busy')") == nil)

            try await browser.wait("return document.querySelector('#reply-suggestions').dataset.state === 'ready'", timeout: 60)
            #expect(try await browser.count("#reply-suggestions .suggestion") == 3)
            let announced = try await browser.string("return document.querySelector('#reply-suggestions .replies-status').textContent")
            #expect(announced.hasPrefix("3 suggested replies: "), "\(announced)")

            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("summary-light.png").path)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("summary-dark.png").path, dark: true)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("summary-narrow.png").path, width: 420, height: 860)
            try await browser.setSize(width: 1280, height: 800)
            try await browser.js("document.querySelector('#reply-suggestions').scrollIntoView({block: 'end'})")
            try await browser.screenshot(Self.screenshots.appendingPathComponent("replies-light.png").path)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("replies-dark.png").path, dark: true)
            for scheme in ["light", "dark"] {
                try await browser.call(["cmd": "scheme", "value": scheme])
                let violations = try await browser.axe(script: Self.axeScript)
                #expect(violations.isEmpty, "axe (\(scheme)): \(violations.map { "\($0["id"] ?? "?") (\($0["impact"] ?? "?")): \($0["help"] ?? "") at \($0["nodes"] ?? "")" })")
            }
            try await browser.call(["cmd": "scheme", "value": "light"])

            // Keyboard: the suggestions are links in the tab order.
            try await browser.js("document.querySelector('#reply-suggestions .suggestion').focus()")
            #expect(try await browser.js("return document.activeElement.classList.contains('suggestion')") as? Bool == true)

            // New mail: the live refresh keeps the summary and writes it again for 4 messages.
            try await web.store(Array(WebWritingTests.launchThread(accountId: id, count: 4).suffix(1)))
            try await browser.wait("return document.querySelectorAll('#conversation .message').length === 4", timeout: 60)
            #expect(try await browser.count("#summary") == 1)
            try await browser.wait("return document.querySelector('#summary').dataset.state === 'summary' && document.querySelector('#summary').textContent.includes('covers 4 messages')", timeout: 60)
            try await browser.js("document.querySelector('.ai-menu').open = true")
            #expect(try await browser.string("return document.querySelector('#summary').innerText").contains("covers 4 messages"))
            try await browser.wait("return document.querySelector('#reply-suggestions').dataset.state === 'ready'", timeout: 60)

            // One click: the reply composer, the suggestion in its body above the quote, the cursor after it.
            let text = try await browser.string("return document.querySelector('#reply-suggestions .suggestion').textContent.replace('Reply with: ', '')")
            try await browser.click("#reply-suggestions .suggestion")
            try await browser.wait("return location.pathname === '/compose' && document.querySelector('#body') !== null", timeout: 60)
            let body = try await browser.string("return document.querySelector('#body').value")
            #expect(body.hasPrefix(text + "\n\n"), "\(body)")
            #expect(body.contains("wrote:\n> "), "the quote is still below: \(body)")
            #expect(try await browser.number("return document.activeElement === document.querySelector('#body') ? document.querySelector('#body').selectionStart : -1") == Double(text.utf16.count))
            try await browser.screenshot(Self.screenshots.appendingPathComponent("suggested-reply-light.png").path)
        }
    }

    @Test("Without JavaScript: the panel's Summarize posts and comes back with the summary; 'Suggest replies' renders the page with them")
    func withoutJavaScript() async throws {
        try await WebFixture.with(generator: WebWritingTests.writer()) { web in
            try await web.store(WebWritingTests.launchThread(accountId: web.account.id, count: 2))
            let browser = try await BrowserSession.start(driver: Self.driver)
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            try await browser.get(try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: "launch").absoluteString)
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#conversation') !== null", timeout: 60)
            try await browser.setJavaScript(false)
            try await browser.get("\(web.origin)/mail?box=inbox&t=launch")
            #expect(try await browser.count("#summary button[data-summarize]") == 1)
            // Each click loads a new page; the click returns before it may have arrived. The
            // summary is behind its button in the toolbar (a <details>: it opens without a script).
            try await browser.click(".ai-menu > summary")
            try await browser.click("#summary button[data-summarize]")
            #expect(try await browser.waitForCount("#summary[data-state=summary]") == 1)
            try await browser.click(".replies-ask a")
            #expect(try await browser.waitForCount("#reply-suggestions .suggestion") >= 1)
            try await browser.setJavaScript(true)
        }
    }
}
