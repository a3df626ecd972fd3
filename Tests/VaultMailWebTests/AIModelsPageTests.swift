import Crypto
import Foundation
import Logging
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// Settings → On-device AI and the onboarding step over HTTP (AC-A-03, AC-A-08): the web app
/// over a fresh store with the model administration of a temporary models folder, whose
/// catalog is one small model served by a `ModelFileServer` on loopback.
@MainActor
@Suite("Web app: On-device AI page and onboarding step (issue 15)", .timeLimit(.minutes(5)))
struct AIModelsPageTests {
    static let files = [("config.json", Data(#"{"dim": 4}"#.utf8)), ("weights.bin", Data((0..<30_000).map { UInt8($0 % 253) }))]
    static let id = AIModelCatalog.embeddingModelId

    /// The web app, signed in, its models folder, and the file server.
    @MainActor
    final class Bed {
        let web: WebApp
        let task: Task<Void, any Error>
        let port: Int
        let home: URL
        let server: ModelFileServer
        let models: AIModelAdministrator
        var cookie = ""
        var csrf = ""

        init() async throws {
            let server = try ModelFileServer(files: Dictionary(uniqueKeysWithValues: AIModelsPageTests.files.map { ("/files/\($0.0)", $0.1) }))
            self.server = server
            home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-aiweb-\(UUID().uuidString.prefix(8))")
            let catalog = AIModelCatalog(models: [AIModelDescriptor(
                id: AIModelsPageTests.id, name: "Tiny MiniLM", purpose: .embedding, licence: "Apache-2.0", summary: "A small test model.",
                files: AIModelsPageTests.files.map {
                    AIModelFile(name: $0.0, url: server.baseURL.appendingPathComponent("files/\($0.0)"),
                                sha256: SHA256.hash(data: $0.1).hexString, sizeBytes: Int64($0.1.count))
                })])
            models = AppDependencies.modelAdministration(home: VaultMailHome(explicit: home.path), catalog: catalog, environment: [:])
            let database = try AppDatabase.inMemory()
            let app = await AppDependencies(database: database, center: MockNotificationCenter(), composeEmail: RecordingComposeEmail())
            let sending = MailSending(database: database, credentials: FixedCredentialProvider(everyAccount: "secret"), undoDelaySeconds: { 0 },
                                      transport: RecordingMailTransport(), remoteMailbox: RecordingRemoteMailbox())
            var mail = app.webMail(compose: sending.compose, credentials: InMemoryCredentialStore())
            mail.aiModels = models
            let web = try WebApp(configuration: WebConfiguration(port: 0, home: home), mail: mail, logger: Logger(label: "ai-web-test"))
            self.web = web
            task = Task { try await web.run() }
            guard let port = await web.waitUntilServing() else { throw HTTPTestClient.Failure(description: "the web app did not start") }
            self.port = port
            let secret = try #require(try WebSecret.load(at: web.configuration.secretURL))
            let reply = try await HTTPTestClient.request(port: port, method: "POST", path: "/signin",
                                                         headers: [("Origin", "null"), ("Content-Type", "application/x-www-form-urlencoded")],
                                                         body: "token=\(SignInToken.make(secret: secret))")
            cookie = String(try #require(reply.headers["set-cookie"]).split(separator: ";")[0])
            csrf = String(try #require(try await get("/settings/ai").text.firstMatch(of: /name="csrf-token" content="([0-9a-f]+)"/)?.1))
        }

        func stop() async {
            server.stop()
            await models.cancelDownload(AIModelsPageTests.id)
            task.cancel()
            _ = try? await task.value
            try? FileManager.default.removeItem(at: home)
        }

        func get(_ path: String, json: Bool = false) async throws -> HTTPTestClient.Reply {
            try await HTTPTestClient.request(port: port, path: path, headers: [("Cookie", cookie), ("Accept", json ? "application/json" : "text/html")])
        }

        func post(_ path: String, _ body: String, csrf: Bool = true) async throws -> HTTPTestClient.Reply {
            try await HTTPTestClient.request(
                port: port, method: "POST", path: path,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie), ("Origin", "http://127.0.0.1:\(port)")],
                body: body + (csrf ? "&csrf=\(self.csrf)" : ""))
        }

        /// The status the page's script reads.
        func status() async throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: try await get("/settings/ai/status", json: true).body) as? [String: Any])
            return try #require((object["models"] as? [[String: Any]])?.first)
        }
    }

    static func with(_ body: (Bed) async throws -> Void) async throws {
        let bed = try await Bed()
        do {
            try await body(bed)
        } catch {
            await bed.stop()
            throw error
        }
        await bed.stop()
    }

    @Test("AC-A-03: the page lists the model with name, purpose, size, licence and state, the storage used and how to install offline")
    func page() async throws {
        try await Self.with { bed in
            let page = try await bed.get("/settings/ai")
            #expect(page.status == 200)
            let html = page.text
            for text in ["<h1>On-device AI</h1>", "Tiny MiniLM", "Sentence vectors for categories and search by meaning", "30 KB", "Apache-2.0",
                         "Not installed", "Storage used by models: <strong data-ai-storage>0 bytes</strong>",
                         "vaultmail ai install \(Self.id) /path/to/the/folder/", AIModelsScript.asset.path] {
                #expect(html.contains(text), "missing \(text)")
            }
            #expect(html.contains("id=\"download-\(Self.id)\""))
            #expect(!html.contains("<progress"), "no bar before a download")
            #expect(!html.contains("Remove…"), "nothing to remove yet")
            let script = try await HTTPTestClient.request(port: bed.port, path: AIModelsScript.asset.path)
            #expect(script.status == 200 && script.text.contains("/settings/ai/status"))
        }
    }

    @Test("Download shows a bar while it runs (status for the script), then Installed; Remove asks first and frees the storage")
    func downloadAndRemove() async throws {
        try await Self.with { bed in
            bed.server.setBehaviour(.pause(afterBytes: 12_000), for: "/files/weights.bin")
            let started = try await bed.post("/settings/ai/download", "id=\(Self.id)&return=/settings/ai")
            #expect(started.status == 303 && started.headers["location"] == "/settings/ai")
            try await waitUntil("the download pauses", timeout: .seconds(30)) { bed.server.stalledConnections == 1 }
            try await waitUntil("the status shows the bytes so far", timeout: .seconds(30)) { (try await bed.status()["percent"] as? Int ?? 0) >= 39 }
            let running = try await bed.status()
            #expect(running["downloading"] as? Bool == true)
            #expect(running["installed"] as? Bool == false)
            #expect((running["label"] as? String)?.hasPrefix("Downloading: ") == true)
            let page = try await bed.get("/settings/ai").text
            #expect(page.contains("<progress id=\"progress-\(Self.id)\" max=\"100\" value=\""))
            #expect(page.contains("data-downloading=\"true\""))
            #expect(page.contains("id=\"cancel-\(Self.id)\""))
            let again = try await bed.post("/settings/ai/download", "id=\(Self.id)")
            #expect(again.status == 303, "asking again while it downloads does nothing")

            bed.server.releaseStalled()
            try await waitUntil("the model is installed", timeout: .seconds(30)) { try await bed.status()["installed"] as? Bool == true }
            let done = try await bed.status()
            #expect(done["percent"] as? Int == 100)
            #expect(done["downloading"] as? Bool == false)
            let installed = try await bed.get("/settings/ai").text
            #expect(installed.contains("Installed: categories and search by meaning are on"))
            #expect(!installed.contains("<progress"))
            #expect(bed.server.requests.filter { $0.path == "/files/weights.bin" }.count == 1, "one request: the pause was not a failure")

            let confirm = try await bed.get("/settings/ai/remove?id=\(Self.id)").text
            #expect(confirm.contains("<h1>Remove Tiny MiniLM?</h1>") && confirm.contains("id=\"confirm-remove\""))
            let refused = try await bed.post("/settings/ai/remove", "id=\(Self.id)", csrf: false)
            #expect(refused.status == 403, "no removal without the page's token")
            #expect(try await bed.status()["installed"] as? Bool == true)
            let removed = try await bed.post("/settings/ai/remove", "id=\(Self.id)")
            let location = try #require(removed.headers["location"])
            #expect(location.hasPrefix("/settings/ai?notice=Removed"))
            #expect(try await bed.status()["installed"] as? Bool == false)
            #expect(try await bed.get("/settings/ai").text.contains("<strong data-ai-storage>0 bytes</strong>"))
        }
    }

    @Test("Cancel keeps what arrived and offers Resume, which continues from there")
    func cancelAndResume() async throws {
        try await Self.with { bed in
            bed.server.setBehaviour(.stall(afterBytes: 9_000), for: "/files/weights.bin")
            _ = try await bed.post("/settings/ai/download", "id=\(Self.id)&return=/settings/ai")
            try await waitUntil("the download stalls", timeout: .seconds(30)) { bed.server.stalledConnections == 1 }
            try await waitUntil("the bytes are counted", timeout: .seconds(30)) { (try await bed.status()["percent"] as? Int ?? 0) >= 30 }
            let cancelled = try await bed.post("/settings/ai/cancel", "id=\(Self.id)&return=/settings/ai")
            #expect(cancelled.status == 303)
            let page = try await bed.get("/settings/ai").text
            #expect(page.contains("Download cancelled. What arrived is kept: Resume continues from there."))
            #expect(page.contains("Partly downloaded (30%)"))
            #expect(page.contains("aria-label=\"Resume the download of Tiny MiniLM\""))
            #expect(page.contains("value=\"30\""), "the bar shows what is kept")
            bed.server.setBehaviour(.normal, for: "/files/weights.bin")
            bed.server.releaseStalled()
            _ = try await bed.post("/settings/ai/download", "id=\(Self.id)")
            try await waitUntil("the model is installed", timeout: .seconds(30)) { try await bed.status()["installed"] as? Bool == true }
            #expect(bed.server.requests.last == .init(path: "/files/weights.bin", range: "bytes=9000-"))
        }
    }

    @Test("AC-A-08: the onboarding step offers Download with its bar and Skip; a failed download says why and what to do")
    func onboardingStep() async throws {
        try await Self.with { bed in
            let step = try await bed.get("/welcome/ai").text
            #expect(step.contains("Sort and search your mail by meaning"))
            #expect(step.contains("id=\"download-\(Self.id)\"") && step.contains("name=\"return\" value=\"/welcome/ai\""))
            #expect(step.contains("<a class=\"tool\" href=\"/mail\" id=\"ai-skip\">Skip for now</a>"))
            #expect(step.contains("Download a model to enable"))

            bed.server.setBehaviour(.status(404), for: "/files/config.json")
            let started = try await bed.post("/settings/ai/download", "id=\(Self.id)&return=/welcome/ai")
            #expect(started.headers["location"] == "/welcome/ai")
            try await waitUntil("the download ends", timeout: .seconds(30)) { try await bed.status()["problem"] is String }
            let failed = try await bed.get("/welcome/ai").text
            #expect(failed.contains("role=\"alert\""))
            // Issue 29: what happened and what to do in words, the server's answer behind Details.
            #expect(failed.contains("role=\"alert\"><p>The download didn&#39;t finish. Check your connection and press Download again"), "\(failed)")
            #expect(failed.contains("<summary>Details</summary><pre>") && failed.contains("answered 404"))

            bed.server.setBehaviour(.normal, for: "/files/config.json")
            _ = try await bed.post("/settings/ai/download", "id=\(Self.id)&return=/welcome/ai")
            try await waitUntil("the model is installed", timeout: .seconds(30)) { try await bed.status()["installed"] as? Bool == true }
            let done = try await bed.get("/welcome/ai").text
            #expect(done.contains("Categories and search by meaning are on"))
            #expect(done.contains("id=\"ai-to-mail\""))
        }
    }
}
