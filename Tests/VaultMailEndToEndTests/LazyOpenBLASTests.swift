import Foundation
import Testing
import VaultMailCore

/// OpenBLAS is opened only when a model is loaded: the built tool does not link it, and a
/// process that loads no model never maps it (so never starts its thread pool).
@Suite("OpenBLAS loaded only with a model")
struct LazyOpenBLASTests {
    @Test("the built tool does not link libopenblas")
    func notLinked() async throws {
        let binary = EndToEndWorld.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the tool first (`swift build`): \(binary) is missing")
        let ldd = try await ProcessCapture.run("/usr/bin/ldd", [binary])
        let libraries = String(decoding: ldd.output, as: UTF8.self)
        #expect(ldd.status == 0, "ldd failed: \(libraries)")
        #expect(libraries.contains("libc.so.6"), "ldd listed nothing: \(libraries)")
        #expect(!libraries.lowercased().contains("blas"), "the tool links BLAS: \(libraries)")
    }

    @Test("commands that load no model never open libopenblas", arguments: [["--version"], ["ai", "status"]])
    func notOpened(arguments: [String]) async throws {
        let binary = EndToEndWorld.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the tool first (`swift build`): \(binary) is missing")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-blas-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        // The dynamic loader reports every library it maps, at start and by dlopen, on standard error.
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_HOME"] = home.path
        environment["LD_DEBUG"] = "files"
        let run = try await ProcessCapture.run(binary, arguments, environment: environment)
        let text = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 0, "vaultmail \(arguments.joined(separator: " ")) failed: \(text.suffix(2000))")
        #expect(text.contains("libc.so.6"), "the loader reported nothing: \(text.suffix(2000))")
        #expect(!text.contains("libopenblas"), "vaultmail \(arguments.joined(separator: " ")) opened libopenblas")
    }
}
