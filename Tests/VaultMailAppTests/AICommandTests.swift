import Crypto
import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting

@MainActor
@Suite("`vaultmail ai` (issue 15, AC-A-03)", .timeLimit(.minutes(5)))
struct AICommandTests {
    /// One small model of two files, published by `server` under /files.
    static let files = [("config.json", Data(#"{"dim": 4}"#.utf8)), ("weights.bin", Data((0..<20_000).map { UInt8($0 % 251) }))]

    static func catalog(_ server: ModelFileServer) -> AIModelCatalog {
        AIModelCatalog(models: [AIModelDescriptor(
            id: AIModelCatalog.embeddingModelId, name: "Small", purpose: .embedding, licence: "MIT", summary: "For tests.",
            files: files.map {
                AIModelFile(name: $0.0, url: server.baseURL.appendingPathComponent("files/\($0.0)"),
                            sha256: SHA256.hash(data: $0.1).hexString, sizeBytes: Int64($0.1.count))
            })])
    }

    @Test("`ai models --json` lists the shipped catalog with every key; `ai status` says how to turn the features on")
    func freshHome() async throws {
        let (session, home) = try await CLIFixture.session { _ in [] }
        defer { try? FileManager.default.removeItem(at: home) }
        let object = try ToolJSON.object(try session.aiModels(json: true))
        #expect(object["directory"] as? String == home.appendingPathComponent("models").path)
        #expect(object["storageUsedBytes"] as? Int == 0)
        let model = try #require((object["models"] as? [[String: Any]])?.first)
        for key in ["id", "name", "purpose", "licence", "summary", "sizeBytes", "state", "fraction", "downloading", "path", "files"] {
            #expect(model.keys.contains(key), "missing \(key)")
        }
        #expect(model["id"] as? String == "all-minilm-l6-v2")
        #expect(model["purpose"] as? String == "embedding")
        #expect(model["licence"] as? String == "Apache-2.0")
        #expect(model["state"] as? String == "notInstalled")
        #expect(model["path"] is NSNull)
        #expect((model["files"] as? [[String: Any]])?.map { $0["name"] as? String } == ["config.json", "vocab.txt", "model.safetensors"])

        let status = session.aiStatus()
        #expect(status.contains("Installed:     none"))
        #expect(status.contains("categories and search by meaning: off. Download a model to enable categories and search by meaning: run `vaultmail ai download all-minilm-l6-v2`"))
        let table = try session.aiModels()
        #expect(table.contains("all-minilm-l6-v2      not installed   91.1 MB   embedding  Apache-2.0  all-MiniLM-L6-v2"))
        #expect(table.contains("smollm2-135m-instruct not installed   98.4 MB   generation Apache-2.0  SmolLM2-135M-Instruct (Q4_1)"))
        #expect(status.contains("smart replies and summaries: off. Download a model to enable smart replies and summaries"))
    }

    @Test("download, status, models, remove and install from a folder, end to end against a local server")
    func downloadRemoveInstall() async throws {
        let (session, home) = try await CLIFixture.session { _ in [] }
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try ModelFileServer(files: Dictionary(uniqueKeysWithValues: Self.files.map { ("/files/\($0.0)", $0.1) }))
        defer { server.stop() }
        let catalog = Self.catalog(server)
        let id = AIModelCatalog.embeddingModelId

        let message = try await session.aiDownload(id, catalog: catalog)
        #expect(message == "Installed Small (20 KB) in \(home.path)/models/\(id).")
        #expect(session.aiStatus(catalog: catalog).contains("categories and search by meaning: on (\(id))"))
        let model = try #require((try ToolJSON.object(try session.aiModels(json: true, catalog: catalog))["models"] as? [[String: Any]])?.first)
        #expect(model["state"] as? String == "installed")
        #expect(model["fraction"] as? Double == 1)
        #expect(model["path"] as? String == "\(home.path)/models/\(id)")

        #expect(try session.aiRemove(id, catalog: catalog).hasPrefix("Removed \(id): "))
        #expect(try session.aiRemove(id, catalog: catalog) == "\(id) is not installed; nothing to remove.")

        let folder = home.appendingPathComponent("offline")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in Self.files { try bytes.write(to: folder.appendingPathComponent(name)) }
        #expect(try session.aiInstall(id, from: [folder.path], catalog: catalog).hasPrefix("Installed \(id) in "))
        #expect(session.aiStatus(catalog: catalog).contains(": on ("))
        #expect(server.requests.count == 2, "install fetched nothing")
    }

    @Test("Errors: an unknown id, a bad mirror (usage), a refused download and a cancelled one say what to do")
    func errors() async throws {
        let (session, home) = try await CLIFixture.session { _ in [] }
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try ModelFileServer(files: Dictionary(uniqueKeysWithValues: Self.files.map { ("/files/\($0.0)", $0.1) }))
        defer { server.stop() }
        let catalog = Self.catalog(server)
        let id = AIModelCatalog.embeddingModelId

        let unknown = await #expect(throws: CommandError.self) { try await session.aiDownload("nope", catalog: catalog) }
        #expect(unknown?.description == "there is no AI model 'nope': `vaultmail ai models` lists the ones there are")
        let mirror = await #expect(throws: CommandError.self) { try await session.aiDownload(id, mirror: "ftp://x", catalog: catalog) }
        #expect(mirror?.isUsage == true)
        #expect(throws: CommandError.self) { try session.aiInstall(id, from: [], catalog: catalog) }

        server.setBehaviour(.status(503), for: "/files/config.json")
        let refused = await #expect(throws: CommandError.self) { try await session.aiDownload(id, catalog: catalog) }
        #expect(refused?.description.contains("503") == true)
        #expect(refused?.isUsage == false)

        server.setBehaviour(.normal, for: "/files/config.json")
        server.setBehaviour(.stall(afterBytes: 5_000), for: "/files/weights.bin")
        let download = Task { try await session.aiDownload(id, catalog: catalog) }
        try await waitUntil("the download stalls", timeout: .seconds(30)) { server.stalledConnections == 1 }
        try await waitUntil("the first bytes are kept", timeout: .seconds(30)) {
            let part = home.appendingPathComponent("models/\(id)/weights.bin.part").path
            return (try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int == 5_000
        }
        download.cancel()
        let cancelled = await #expect(throws: CommandError.self) { try await download.value }
        #expect(cancelled?.description.hasPrefix("download cancelled: ") == true)
        #expect(cancelled?.description.hasSuffix("kept; run `vaultmail ai download \(id)` to resume it") == true)
        server.releaseStalled()
    }
}
