import Foundation
import Testing
import VaultMailTesting

/// On-device AI through the built tool against real Dovecot (issue 15): the model installed
/// from files, mail categorized as it is synced, a correction that sticks, and search by
/// meaning; without a model, every AI feature says how to get one.
@Suite("On-device AI end to end (issue 15)", .serialized)
struct AIEndToEndTests {
    static let modelId = "all-minilm-l6-v2"

    func subjects(_ output: EndToEndWorld.Output) throws -> [String] {
        let page = try ToolJSON.object(output.text)
        let rows = try #require((page["results"] ?? page["threads"]) as? [[String: Any]], "no rows: \(output.text)")
        return rows.compactMap { $0["subject"] as? String }
    }

    func deliverMail(_ world: EndToEndWorld) throws {
        try world.deliver(EndToEndWorld.message(
            "50% off shoes today only!", from: "Shoe Shop <deals@shoes.example>",
            headers: ["List-Unsubscribe: <https://shoes.example/unsubscribe>", "Precedence: bulk"],
            body: "Every pair of sneakers half price until midnight. Free shipping on orders over 50 dollars."))
        try world.deliver(EndToEndWorld.message(
            "Quarterly budget review", from: "Alice Martin <alice@example.org>",
            body: "Hi Ada, can we go through the Q3 spending figures and next year's forecast on Thursday?"))
        try world.deliver(EndToEndWorld.message(
            "[dev] Patch: fix the build on arm64", from: "Linus <linus@lists.example.org>",
            headers: ["List-Id: Developers <dev.lists.example.org>", "List-Post: <mailto:dev@lists.example.org>", "Precedence: list"],
            body: "This patch fixes the arm64 build when the compiler is gcc 12."))
        try world.deliver(EndToEndWorld.message(
            "Photos from the wedding", from: "Carol <carol@example.org>", body: "Here are the pictures from Saturday, the cake was amazing."))
    }

    @Test("Without a model: sync categorizes by headers alone, and search by meaning says how to get one", .timeLimit(.minutes(3)))
    func withoutModel() async throws {
        try await EndToEndWorld.with { world in
            try deliverMail(world)
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)
            let promotions = try await world.vaultmail(["threads", "--category", "promotions", "--json"], errors: false)
            #expect(try subjects(promotions) == ["50% off shoes today only!"], "\(promotions.text)")
            let forums = try await world.vaultmail(["threads", "--category", "forums", "--json"], errors: false)
            #expect(try subjects(forums) == ["[dev] Patch: fix the build on arm64"], "\(forums.text)")

            let semantic = try await world.vaultmail(["search", "--semantic", "financial planning meeting"])
            #expect(semantic.status != 0)
            #expect(semantic.text.contains("Download a model to enable search by meaning"), "\(semantic.text)")
            let status = try await world.vaultmail(["ai", "status"])
            #expect(status.text.contains("Download a model to enable"), "\(status.text)")
        }
    }

    @Test("With the model installed from files: categories, a correction that sticks and teaches, and search by meaning", .timeLimit(.minutes(3)))
    func withModel() async throws {
        try await EndToEndWorld.with { world in
            let model = try AIModelFixture.installedMiniLMDirectory()
            let install = try await world.vaultmail(["ai", "install", Self.modelId] + AIModelFixture.miniLMFiles.map { model.appendingPathComponent($0).path })
            try #require(install.status == 0, "\(install.text)")
            #expect(try await world.vaultmail(["ai", "status"]).text.contains("on (\(Self.modelId))"))

            try deliverMail(world)
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)

            let promotions = try subjects(try await world.vaultmail(["threads", "--category", "promotions", "--json"], errors: false))
            #expect(promotions == ["50% off shoes today only!"])
            let search = try await world.vaultmail(["search", "--json", "--messages", "shoes"], errors: false)
            let shoes = try #require(try ToolJSON.object(search.text)["results"] as? [[String: Any]])
            let emailId = try #require(shoes.first?["id"] as? String)
            let threadId = try #require(shoes.first?["threadId"] as? String)
            let why = try ToolJSON.object(try await world.vaultmail(["why-category", emailId, "--json"], errors: false).text)
            #expect(why["category"] as? String == "promotions")
            #expect(why["source"] as? String == "header")
            #expect((why["reason"] as? String)?.isEmpty == false)

            // AC-A-04: the user's correction is stored, never overwritten, and teaches.
            #expect(try await world.vaultmail(["categorize", threadId, "primary"]).status == 0)
            try world.deliver(EndToEndWorld.message(
                "Last chance: boots 30% off", from: "Shoe Shop <deals@shoes.example>",
                headers: ["List-Unsubscribe: <https://shoes.example/unsubscribe>", "Precedence: bulk"], body: "Winter boots, today only."))
            #expect(try await world.vaultmail(["sync"]).status == 0)
            let primary = try subjects(try await world.vaultmail(["threads", "--category", "primary", "--json"], errors: false))
            #expect(primary.contains("50% off shoes today only!"))
            #expect(primary.contains("Last chance: boots 30% off"), "later mail from the sender follows the correction: \(primary)")
            let afterWhy = try ToolJSON.object(try await world.vaultmail(["why-category", emailId, "--json"], errors: false).text)
            #expect(afterWhy["source"] as? String == "user")

            // AC-A-07: found by meaning, sharing no word with the query; operators still narrow.
            let meaning = try subjects(try await world.vaultmail(["search", "--semantic", "--json", "financial planning meeting"], errors: false))
            #expect(meaning.first == "Quarterly budget review", "\(meaning)")
            let narrowed = try subjects(try await world.vaultmail(["search", "--semantic", "--json", "financial planning meeting", "from:carol"], errors: false))
            #expect(!narrowed.contains("Quarterly budget review"))
        }
    }

    @Test("The daemon reads new mail in the background; By meaning in the browser lists what the words mean; axe-clean", .timeLimit(.minutes(3)))
    func daemonAndBrowser() async throws {
        try await EndToEndWorld.with { world in
            let model = try AIModelFixture.installedMiniLMDirectory()
            let install = try await world.vaultmail(["ai", "install", Self.modelId, model.path])
            try #require(install.status == 0, "\(install.text)")
            try deliverMail(world)
            try await world.addAccount()
            try await world.startDaemon()
            try await world.waitForLog("read 4 message(s) for search by meaning")
            let promotions = try subjects(try await world.vaultmail(["threads", "--category", "promotions", "--json"], errors: false))
            #expect(promotions == ["50% off shoes today only!"], "the daemon categorized the first sync's mail")

            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.js("location.href = '/mail/search?q=financial%20planning%20meeting'")
            try await browser.wait("return document.querySelector('#search-mode') !== null")
            #expect(try await browser.count("#threads .row") == 0, "no message says these words")
            try await browser.click("#search-mode a:not([aria-current])")
            try await browser.wait("return location.search.includes('meaning=1') && document.querySelectorAll('#threads .row').length === 1")
            #expect(try await browser.string("return document.querySelector('#threads .row .subject').textContent").hasSuffix("Quarterly budget review"))
            try await world.expectAccessible(browser, page: "results by meaning")
            try await world.screenshots(browser, name: "search-by-meaning")
            // Typing a new query keeps the mode.
            try await browser.js("const q = document.querySelector('#q'); q.value = 'wedding pictures'; q.dispatchEvent(new Event('input'))")
            try await browser.wait("return document.querySelector('#list-title').textContent.includes('wedding pictures') && document.querySelectorAll('#threads .row').length === 1")
            #expect(try await browser.string("return location.search").contains("meaning=1"))
            #expect(try await browser.string("return document.querySelector('#threads .row .subject').textContent").hasSuffix("Photos from the wedding"))
        }
    }
}
