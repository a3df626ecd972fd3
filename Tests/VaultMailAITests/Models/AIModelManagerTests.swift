import Crypto
import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

@Suite("AC-A-03: the model manager downloads, verifies, resumes, installs and removes models", .timeLimit(.minutes(5)))
struct AIModelManagerTests {
    @Test("With nothing downloaded, every model is listed with its name, purpose, size, licence and 'not installed'")
    func listsTheCatalog() throws {
        let bed = try ModelTestBed()
        let listed = bed.manager.availableModels()
        #expect(listed.map(\.id) == [ModelTestBed.modelId])
        let entry = try #require(listed.first)
        #expect(entry.model.name == "Tiny test model")
        #expect(entry.model.purpose == .embedding)
        #expect(entry.model.licence == "CC0-1.0")
        #expect(entry.model.sizeBytes == Int64(ModelTestBed.files.map(\.bytes.count).reduce(0, +)))
        #expect(entry.state == .notInstalled)
        #expect(!entry.isDownloading)
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.manager.storageUsed() == 0)
        #expect(AIModelManager(directory: bed.directory).availableModels().map(\.id)
                    == [AIModelCatalog.embeddingModelId, AIModelCatalog.generationModelId],
                "the shipped catalog lists the sentence model and the writing model")
    }

    @Test("A download reports progress rising to exactly 1, checks every file and installs the model")
    func downloads() async throws {
        let bed = try ModelTestBed()
        let progress = ProgressLog()
        let folder = try await bed.manager.download(ModelTestBed.modelId) { progress.record($0) }
        #expect(progress.isRising, "progress fell: \(progress.reported)")
        #expect(progress.last == 1)
        #expect(progress.reported.dropLast().allSatisfy { $0 < 1 }, "1 means installed, and only then")
        #expect(progress.reported.count >= 3)
        #expect(folder == bed.directory.appendingPathComponent(ModelTestBed.modelId))
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == folder)
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .installed)
        #expect(bed.holdsPublishedFiles())
        #expect(ModelTestBed.files.allSatisfy { bed.size($0.name, part: true) == nil }, "no part is left behind")
        #expect(bed.server.requests.map(\.path) == ModelTestBed.files.map { ModelTestBed.path($0.name) })
        #expect(bed.server.requests.allSatisfy { $0.range == nil })

        let again = ProgressLog()
        _ = try await bed.manager.download(ModelTestBed.modelId) { again.record($0) }
        #expect(bed.server.requests.count == 3, "an installed model is not fetched again")
        #expect(again.reported == [1])
    }

    @Test("Cancelling mid-file keeps the part; the next download asks for the rest with Range and completes")
    func cancelAndResume() async throws {
        let bed = try ModelTestBed()
        let big = ModelTestBed.path("model.safetensors")
        bed.server.setBehaviour(.stall(afterBytes: 20_000), for: big)
        let progress = ProgressLog()
        let manager = bed.manager
        let download = Task { try await manager.download(ModelTestBed.modelId) { progress.record($0) } }
        try await waitUntil("the first 20,000 bytes are in the part", timeout: .seconds(30)) {
            bed.size("model.safetensors", part: true) == 20_000
        }
        #expect(bed.manager.availableModels().first?.isDownloading == true, "the running download holds the model's lock")
        download.cancel()
        let error = await #expect(throws: AIError.self) { try await download.value }
        #expect(error == .cancelled(modelId: ModelTestBed.modelId))
        #expect(bed.size("model.safetensors", part: true) == 20_000, "what arrived is kept")
        let total = Double(bed.model.sizeBytes)
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .partial(fraction: Double(23_000 + ModelTestBed.bytes(of: "config.json").count) / total))
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.manager.availableModels().first?.isDownloading == false, "a cancelled download lets go of the lock")
        #expect(progress.isRising)
        #expect((progress.last ?? 0) > 0.3 && (progress.last ?? 1) < 1)

        bed.server.setBehaviour(.normal, for: big)
        bed.server.releaseStalled()
        let resumed = ProgressLog()
        _ = try await bed.manager.download(ModelTestBed.modelId) { resumed.record($0) }
        let last = try #require(bed.server.requests.last)
        #expect(last == .init(path: big, range: "bytes=20000-"))
        #expect(bed.server.requests.filter { $0.path != big }.count == 2, "files already verified are not fetched again")
        #expect(bed.holdsPublishedFiles())
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .installed)
        #expect(resumed.isRising && resumed.last == 1)
        #expect((resumed.reported.first ?? 0) >= 0.4, "the resumed download starts where the first stopped: \(resumed.reported)")
    }

    @Test("A server that answers a Range with 200 sends the whole file: the part starts over and the model installs")
    func serverIgnoringRange() async throws {
        let bed = try ModelTestBed()
        let big = ModelTestBed.path("model.safetensors")
        bed.server.setBehaviour(.close(afterBytes: 30_000), for: big)
        await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        #expect(bed.size("model.safetensors", part: true) == 30_000)
        bed.server.setBehaviour(.ignoreRange, for: big)
        let progress = ProgressLog()
        _ = try await bed.manager.download(ModelTestBed.modelId) { progress.record($0) }
        #expect(bed.server.requests.last == .init(path: big, range: "bytes=30000-"))
        #expect(bed.holdsPublishedFiles())
        #expect(progress.isRising, "the bar holds while the file starts over: \(progress.reported)")
        #expect(progress.last == 1)
    }

    @Test("A connection lost mid-file fails naming the model and what to do, keeps the part, and the next run resumes")
    func connectionLost() async throws {
        let bed = try ModelTestBed()
        let big = ModelTestBed.path("model.safetensors")
        bed.server.setBehaviour(.close(afterBytes: 10_000), for: big)
        let error = await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        guard case .downloadFailed(let id, _) = error else {
            Issue.record("expected downloadFailed, got \(String(describing: error))")
            return
        }
        #expect(id == ModelTestBed.modelId)
        #expect(error?.description.contains("Run the download again to resume it") == true)
        #expect(bed.size("model.safetensors", part: true) == 10_000)
        bed.server.setBehaviour(.normal, for: big)
        _ = try await bed.manager.download(ModelTestBed.modelId)
        #expect(bed.server.requests.last == .init(path: big, range: "bytes=10000-"))
        #expect(bed.holdsPublishedFiles())
    }

    @Test("A file that is not the published one is deleted and nothing is installed; the error says so")
    func checksumMismatch() async throws {
        let bed = try ModelTestBed()
        var wrong = ModelTestBed.bytes(of: "vocab.txt")
        wrong[100] ^= 0xFF
        bed.server.setFile(wrong, at: ModelTestBed.path("vocab.txt"))
        let error = await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        let expected = try #require(bed.model.files.first { $0.name == "vocab.txt" }).sha256
        guard case .checksumMismatch(let file, let published, let actual) = error else {
            Issue.record("expected checksumMismatch, got \(String(describing: error))")
            return
        }
        #expect(file == "vocab.txt")
        #expect(published == expected)
        #expect(actual == SHA256.hash(data: wrong).hexString)
        #expect(error?.description.contains("is not the published file") == true)
        #expect(bed.size("vocab.txt") == nil && bed.size("vocab.txt", part: true) == nil, "the bad file is deleted")
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.manager.state(of: ModelTestBed.modelId) != .installed)
        #expect(!bed.server.requests.contains { $0.path == ModelTestBed.path("model.safetensors") }, "the download stops at the bad file")
    }

    @Test("A server that answers 404 gives an error naming the model, the address and what to do")
    func notFound() async throws {
        let bed = try ModelTestBed()
        bed.server.setBehaviour(.status(404), for: ModelTestBed.path("config.json"))
        let error = await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        let text = try #require(error?.description)
        #expect(text.contains("the download of \(ModelTestBed.modelId) did not finish"))
        #expect(text.contains("404"))
        #expect(text.contains(bed.server.baseURL.absoluteString + "/files/config.json"))
        #expect(text.contains("--mirror"))
        #expect(text.contains("vaultmail ai install \(ModelTestBed.modelId)"))
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .notInstalled)
    }

    @Test("A port where nothing listens gives an error naming the model and the server, at once")
    func refused() async throws {
        let closed = try ModelFileServer(files: [:])
        let port = closed.port
        closed.stop()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-models-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = AIModelManager(directory: directory, catalog: ModelTestBed.catalog(base: URL(string: "http://127.0.0.1:\(port)/files")!))
        let error = await #expect(throws: AIError.self) { try await manager.download(ModelTestBed.modelId) }
        let text = try #require(error?.description)
        #expect(text.contains(ModelTestBed.modelId))
        #expect(text.contains("127.0.0.1:\(port)"))
        #expect(text.contains("check the network"))
    }

    @Test("A server that stops sending is given up after the timeout, with the part kept")
    func stalledServerTimesOut() async throws {
        let bed = try ModelTestBed(timeout: 1)
        bed.server.setBehaviour(.stall(afterBytes: 5_000), for: ModelTestBed.path("model.safetensors"))
        let started = ContinuousClock.now
        let error = await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(error?.description.contains("timed out") == true, "\(String(describing: error))")
        #expect(bed.size("model.safetensors", part: true) == 5_000)
        bed.server.releaseStalled()
    }

    @Test("A mirror replaces the catalog's addresses with <mirror>/<id>/<file name>")
    func mirror() async throws {
        let bed = try ModelTestBed()
        for file in ModelTestBed.files { bed.server.setFile(file.bytes, at: "/mirror/\(ModelTestBed.modelId)/\(file.name)") }
        let unreachable = AIModelManager(directory: bed.directory,
                                         catalog: ModelTestBed.catalog(base: URL(string: "http://127.0.0.1:9/nowhere")!))
        _ = try await unreachable.download(ModelTestBed.modelId, mirror: bed.server.baseURL.appendingPathComponent("mirror"))
        #expect(bed.server.requests.map(\.path) == ModelTestBed.files.map { "/mirror/\(ModelTestBed.modelId)/\($0.name)" })
        #expect(bed.holdsPublishedFiles())
    }

    @Test("Two downloads of one model at once: the second is refused and says why; the first completes")
    func oneDownloadAtATime() async throws {
        let bed = try ModelTestBed()
        let big = ModelTestBed.path("model.safetensors")
        bed.server.setBehaviour(.stall(afterBytes: 1_000), for: big)
        let manager = bed.manager
        let first = Task { try await manager.download(ModelTestBed.modelId) }
        try await waitUntil("the first download stalls", timeout: .seconds(30)) { bed.server.stalledConnections == 1 }
        let error = await #expect(throws: AIError.self) { try await manager.download(ModelTestBed.modelId) }
        #expect(error?.description.contains("downloading it now") == true)
        #expect(throws: AIError.self, "a model being downloaded is not removed") { try manager.remove(ModelTestBed.modelId) }
        first.cancel()
        _ = await first.result
        bed.server.setBehaviour(.normal, for: big)
        bed.server.releaseStalled()
        _ = try await manager.download(ModelTestBed.modelId)
        #expect(bed.holdsPublishedFiles())
    }

    @Test("Storage used counts every byte under the models folder, parts included; removing frees it")
    func storageAndRemove() async throws {
        let bed = try ModelTestBed()
        bed.server.setBehaviour(.close(afterBytes: 7_000), for: ModelTestBed.path("model.safetensors"))
        await #expect(throws: AIError.self) { try await bed.manager.download(ModelTestBed.modelId) }
        #expect(bed.manager.storageUsed() == bed.bytesOnDisk())
        #expect(bed.manager.storageUsed() == Int64(ModelTestBed.files[0].bytes.count + ModelTestBed.files[1].bytes.count + 7_000))
        bed.server.setBehaviour(.normal, for: ModelTestBed.path("model.safetensors"))
        _ = try await bed.manager.download(ModelTestBed.modelId)
        let used = bed.manager.storageUsed()
        #expect(used == bed.bytesOnDisk())
        #expect(used > bed.model.sizeBytes, "the files and the small marker")
        let freed = try bed.manager.remove(ModelTestBed.modelId)
        #expect(freed == used)
        #expect(bed.manager.storageUsed() == 0)
        #expect(bed.bytesOnDisk() == 0)
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .notInstalled)
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(try bed.manager.remove(ModelTestBed.modelId) == 0, "removing what is not there frees nothing")
    }

    @Test("Installing from files: found by name (or in a folder), checked, installed; missing or wrong files are refused")
    func installFromFiles() throws {
        let bed = try ModelTestBed()
        let source = bed.directory.deletingLastPathComponent().appendingPathComponent("vaultmail-source-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: source) }
        for file in ModelTestBed.files { try file.bytes.write(to: source.appendingPathComponent(file.name)) }

        let partial = [source.appendingPathComponent("config.json"), source.appendingPathComponent("vocab.txt")]
        let missing = #expect(throws: AIModelInstallError.self) { try bed.manager.install(ModelTestBed.modelId, from: partial) }
        #expect(missing == .missingFiles(modelId: ModelTestBed.modelId, names: ["model.safetensors"], searched: partial.map(\.path)))
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .notInstalled)

        var wrong = ModelTestBed.bytes(of: "model.safetensors")
        wrong[0] ^= 1
        try wrong.write(to: source.appendingPathComponent("model.safetensors"))
        let mismatch = #expect(throws: AIError.self) { try bed.manager.install(ModelTestBed.modelId, from: [source]) }
        guard case .checksumMismatch(let name, _, _) = mismatch else {
            Issue.record("expected checksumMismatch, got \(String(describing: mismatch))")
            return
        }
        #expect(name == "model.safetensors")
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.size("model.safetensors") == nil && bed.size("model.safetensors", part: true) == nil)

        try ModelTestBed.bytes(of: "model.safetensors").write(to: source.appendingPathComponent("model.safetensors"))
        let folder = try bed.manager.install(ModelTestBed.modelId, from: [source])
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == folder)
        #expect(bed.holdsPublishedFiles())
        #expect(bed.server.requests.isEmpty, "nothing was downloaded")
        #expect(throws: AIModelInstallError.notFound(path: "/nonexistent/model.safetensors")) {
            try bed.manager.install(ModelTestBed.modelId, from: [URL(fileURLWithPath: "/nonexistent/model.safetensors")])
        }
    }

    @Test("An id not in the catalog is refused by every operation with an error listing where the ids are")
    func unknownModel() async throws {
        let bed = try ModelTestBed()
        let error = await #expect(throws: AIError.self) { try await bed.manager.download("gpt-17") }
        #expect(error == .unknownModel("gpt-17"))
        #expect(error?.description.contains("vaultmail ai models") == true)
        #expect(throws: AIError.unknownModel("gpt-17")) { try bed.manager.remove("gpt-17") }
        #expect(throws: AIError.unknownModel("gpt-17")) { try bed.manager.install("gpt-17", from: []) }
        #expect(bed.manager.state(of: "gpt-17") == .notInstalled)
        #expect(bed.manager.installedDirectory(for: "gpt-17") == nil)
        #expect(bed.server.requests.isEmpty)
    }

    @Test("Installed means the marker lists the catalog's digests: a marker for other files does not count")
    func markerFollowsTheCatalog() async throws {
        let bed = try ModelTestBed()
        _ = try await bed.manager.download(ModelTestBed.modelId)
        var changed = bed.catalog
        changed.models[0].files[2].sha256 = String(repeating: "0", count: 64)
        let newer = AIModelManager(directory: bed.directory, catalog: changed)
        #expect(newer.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) != nil)
        try FileManager.default.removeItem(at: bed.url("installed.sha256"))
        #expect(bed.manager.installedDirectory(for: ModelTestBed.modelId) == nil)
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .partial(fraction: 1))
        let requests = bed.server.requests.count
        _ = try await bed.manager.download(ModelTestBed.modelId)
        #expect(bed.server.requests.count == requests, "verified files are checked again, not fetched again")
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .installed)
    }
}
