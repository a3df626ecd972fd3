import Foundation
import Testing
@testable import VaultMailAI
import VaultMailCore

/// Choosing llama.cpp's CPU code (issue 27) among the real modules `make deps` built, with the
/// kernel's register state (XCR0) and the AMX trial given, so every case runs on any machine.
/// The real binary on emulated processors: `ProcessorPortabilityTests` (end to end).
@Suite("llama.cpp's CPU code chosen at run time (issue 27)")
struct LlamaCPUBackendTests {
    static let modules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/llama/lib")
    /// What Linux sets on a processor with AVX-512: x87, SSE, AVX, opmask, ZMM.
    static let avx512State: UInt64 = 0xe7

    func choose(xcr0: UInt64, override: String? = nil, amx: String? = "the kernel offers no AMX tile state")
        throws -> (chosen: LlamaCPUBackend.Variant, variants: [LlamaCPUBackend.Variant]) {
        try LlamaCPUBackend.choose(directory: Self.modules, override: override, xcr0: xcr0, amxProbe: { amx })
    }

    @Test("The kernel's saved registers, read from XCR0")
    func savedState() {
        #expect(LlamaCPUBackend.savedState(xcr0: 0) == .sse)
        #expect(LlamaCPUBackend.savedState(xcr0: 0x3) == .sse)
        #expect(LlamaCPUBackend.savedState(xcr0: 0x7) == .avx)
        #expect(LlamaCPUBackend.savedState(xcr0: 0x27) == .avx, "AVX-512 needs all three of its state components")
        #expect(LlamaCPUBackend.savedState(xcr0: Self.avx512State) == .avx512)
        #expect(LlamaCPUBackend.savedState(xcr0: 0x200e7) == .avx512, "AMX needs both tile components")
        #expect(LlamaCPUBackend.savedState(xcr0: 0x600e7) == .amx)
    }

    @Test("Every variant the build makes is one this code knows, and none is built for the building machine")
    func knownVariants() throws {
        let (_, variants) = try choose(xcr0: 0)
        #expect(Set(variants.map(\.name)) == ["x64", "sse42", "sandybridge", "haswell", "skylakex", "icelake", "zen4", "alderlake", "sapphirerapids"])
        #expect(variants.allSatisfy { $0.excluded != "not a variant this VaultMail knows" })
    }

    @Test("A kernel that saves no AVX state gets SSE code, whatever the processor announces")
    func noAVXState() throws {
        let (chosen, variants) = try choose(xcr0: 0)
        #expect(chosen.name == "sse42" || chosen.name == "x64")
        for variant in variants where !["x64", "sse42"].contains(variant.name) {
            #expect(variant.score == 0, "\(variant.name) was opened although its registers are not saved")
            #expect(variant.excluded?.contains("does not save") == true, "\(variant.name): \(variant.excluded ?? "-")")
        }
    }

    @Test("AVX state without AVX-512's: never an AVX-512 variant")
    func avxStateOnly() throws {
        let (chosen, variants) = try choose(xcr0: 0x7)
        #expect(LlamaCPUBackend.stateOfVariant[chosen.name]! <= .avx)
        #expect(variants.filter { LlamaCPUBackend.stateOfVariant[$0.name]! > .avx }.allSatisfy { !$0.mayRun })
    }

    @Test("With every state saved, the highest-scoring variant the processor runs is chosen")
    func bestVariant() throws {
        let (chosen, variants) = try choose(xcr0: Self.avx512State)
        #expect(chosen.mayRun)
        #expect(variants.filter(\.mayRun).allSatisfy { $0.score <= chosen.score })
        #expect(variants.first { $0.name == "x64" }?.mayRun == true, "the baseline runs on every x86-64 processor")
    }

    @Test("AMX is never chosen when a tile instruction faults in the trial, even with the tile state saved")
    func amxFaultExcludes() throws {
        let (chosen, variants) = try choose(xcr0: 0x600e7, amx: "an AMX tile instruction stopped a test process with signal 4")
        #expect(chosen.name != "sapphirerapids")
        let amx = try #require(variants.first { $0.name == "sapphirerapids" })
        #expect(!amx.mayRun)
    }

    @Test("The trial of AMX runs only for a processor that announces AMX")
    func amxTrialOnlyWhenAnnounced() throws {
        var trials = 0
        let (_, variants) = try LlamaCPUBackend.choose(directory: Self.modules, override: nil, xcr0: 0x600e7,
                                                       amxProbe: { trials += 1; return nil })
        let amx = try #require(variants.first { $0.name == "sapphirerapids" })
        #expect(trials == (amx.score > 0 ? 1 : 0))
    }

    @Test("VAULTMAIL_LLAMA_CPU picks a variant that may run, and names the choices when it cannot")
    func override() throws {
        #expect(try choose(xcr0: Self.avx512State, override: "x64").chosen.name == "x64")
        #expect(try choose(xcr0: Self.avx512State, override: "sse42").chosen.name == "sse42")
        #expect(throws: AIError.self) { try choose(xcr0: Self.avx512State, override: "pentium4") }
        do {
            _ = try choose(xcr0: 0, override: "haswell")
            Issue.record("haswell was allowed without AVX state")
        } catch let error as AIError {
            #expect(error.description.contains("VAULTMAIL_LLAMA_CPU=haswell cannot run here"), "\(error)")
            #expect(error.description.contains("sse42"), "\(error)")
        }
    }

    @Test("A folder without the CPU code says what is missing and how to get it")
    func missingModules() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-ggml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect {
            try LlamaCPUBackend.choose(directory: empty, override: nil, xcr0: 0, amxProbe: { nil })
        } throws: { error in
            "\(error)".contains("libggml-cpu-*.so") && "\(error)".contains("make deps")
        }
    }

    @Test("The process loads the chosen code from beside libggml and reports what it uses")
    func loadsInProcess() throws {
        let backend = try LlamaCPUBackend.load()
        #expect(backend.chosen.mayRun)
        #expect(URL(fileURLWithPath: backend.chosen.path).deletingLastPathComponent().path
                == Self.modules.resolvingSymlinksInPath().path)
        #expect(!backend.features.isEmpty)
    }
}
