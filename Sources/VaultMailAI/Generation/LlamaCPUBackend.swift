import CCPUState
import CLlama
import Foundation
import VaultMailCore

/// Which of llama.cpp's CPU code runs here, chosen when the process first needs it (issue 27).
///
/// ggml's CPU code is built once per x86-64 family (`scripts/build-llama.sh`), each a module
/// `libggml-cpu-<variant>.so` beside `libggml.so`. ggml scores each module by the processor's
/// CPUID alone; a processor can announce instructions whose registers its kernel does not
/// save (a hypervisor that passes AVX-512 or AMX through without the state), and ggml's own
/// AMX check trusts the kernel's permission without running a tile instruction. So a variant
/// is chosen here only when all three hold: ggml's score says the processor has its
/// instructions; XCR0 says the kernel saves the registers it uses; and for the AMX variant, a
/// child process was granted the tile permission and ran tile instructions without a signal.
/// `VAULTMAIL_LLAMA_CPU=<variant>` picks another variant among those that may run (to compare
/// them on one machine, or to step around a fault).
public struct LlamaCPUBackend: Sendable, Equatable {
    /// A module found beside libggml.
    public struct Variant: Sendable, Equatable {
        /// Its name after the processor family ggml builds it for: `haswell`, `skylakex`, …
        public let name: String
        public let path: String
        /// ggml's score for this processor: 0 when the processor lacks its instructions.
        public let score: Int32
        /// Why it may not run here, when it may not.
        public let excluded: String?

        public var mayRun: Bool { score > 0 && excluded == nil }
    }

    /// The variant loaded.
    public let chosen: Variant
    /// Every variant found, in ascending order of name.
    public let variants: [Variant]
    /// The instruction set extensions the chosen code uses, as ggml names them (`AVX2`, `FMA`, …).
    public let features: [String]

    /// The environment variable that picks a variant by name.
    public static let overrideVariable = "VAULTMAIL_LLAMA_CPU"

    /// The register state a variant's code uses, after ggml's list of variants
    /// (`ggml/src/CMakeLists.txt`): the SSE registers, AVX's, AVX-512's, or AMX's tiles too.
    enum RegisterState: Int, Comparable {
        case sse, avx, avx512, amx

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .sse: "SSE"
            case .avx: "AVX"
            case .avx512: "AVX-512"
            case .amx: "AMX tile"
            }
        }
    }

    static let stateOfVariant: [String: RegisterState] = [
        "x64": .sse, "sse42": .sse,
        "sandybridge": .avx, "ivybridge": .avx, "piledriver": .avx, "haswell": .avx, "alderlake": .avx,
        "skylakex": .avx512, "cannonlake": .avx512, "cascadelake": .avx512, "icelake": .avx512,
        "cooperlake": .avx512, "zen4": .avx512,
        "sapphirerapids": .amx,
    ]

    /// The register state the kernel saves for this process, read from XCR0.
    static func savedState(xcr0: UInt64) -> RegisterState {
        let avx: UInt64 = 0b110                      // SSE and the upper halves of the YMM registers
        let avx512: UInt64 = 0b1110_0000             // opmask, ZMM upper halves, ZMM16-31
        let tiles: UInt64 = 0b11 << 17               // TILECFG, TILEDATA
        guard xcr0 & avx == avx else { return .sse }
        guard xcr0 & avx512 == avx512 else { return .avx }
        return xcr0 & tiles == tiles ? .amx : .avx512
    }

    /// Chooses among the modules in `directory`: the highest score among those that may run, or
    /// the one `override` names. Loads nothing into ggml (see `load()`).
    static func choose(directory: URL, override: String?, xcr0: UInt64 = vm_cpu_os_xsave_state(),
                       amxProbe: () -> String? = probeAMX) throws -> (chosen: Variant, variants: [Variant]) {
        let prefix = "libggml-cpu-", suffix = ".so"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
        guard !files.isEmpty else {
            throw AIError.noProcessorCode(reason: "llama.cpp's CPU code (\(prefix)*\(suffix)) is missing from \(directory.path); "
                + "reinstall VaultMail (from source: `make deps` builds it)")
        }
        let saved = savedState(xcr0: xcr0)
        var amxVerdict: String??
        let variants = files.map { file -> Variant in
            let name = String(file.dropFirst(prefix.count).dropLast(suffix.count))
            let path = directory.appendingPathComponent(file).path
            guard let needed = stateOfVariant[name] else {
                return Variant(name: name, path: path, score: 0, excluded: "not a variant this VaultMail knows")
            }
            // Not even opened when the kernel does not save its registers: its initializers may use them.
            guard needed <= saved else {
                return Variant(name: name, path: path, score: 0,
                               excluded: "the kernel does not save \(needed.name) registers (XCR0 0x\(String(xcr0, radix: 16)))")
            }
            let score = ggmlScore(path)
            guard score > 0, needed == .amx else { return Variant(name: name, path: path, score: score, excluded: nil) }
            if amxVerdict == nil { amxVerdict = amxProbe() }
            return Variant(name: name, path: path, score: score, excluded: amxVerdict ?? nil)
        }
        let runnable = variants.filter(\.mayRun)
        if let override, !override.isEmpty {
            guard let picked = variants.first(where: { $0.name == override }) else {
                throw AIError.noProcessorCode(reason: "\(overrideVariable)=\(override) names no variant; there are "
                    + variants.map(\.name).joined(separator: ", "))
            }
            guard picked.mayRun else {
                throw AIError.noProcessorCode(reason: "\(overrideVariable)=\(override) cannot run here ("
                    + (picked.excluded ?? "this processor lacks its instructions") + "); these can: "
                    + runnable.map(\.name).joined(separator: ", "))
            }
            return (picked, variants)
        }
        guard let best = runnable.max(by: { $0.score < $1.score }) else {
            throw AIError.noProcessorCode(reason: "none of llama.cpp's CPU variants in \(directory.path) fits this processor")
        }
        return (best, variants)
    }

    /// ggml's own score of a module for this processor (its `ggml_backend_score`), or 0.
    private static func ggmlScore(_ path: String) -> Int32 {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return 0 }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, "ggml_backend_score") else { return 0 }
        typealias Score = @convention(c) () -> Int32
        return unsafeBitCast(symbol, to: Score.self)()
    }

    /// Nil when AMX tile instructions ran in a child process; otherwise why not.
    static func probeAMX() -> String? {
        var signal: Int32 = 0
        switch vm_cpu_amx_probe(&signal) {
        case VM_AMX_USABLE: return nil
        case VM_AMX_NOT_OFFERED: return "the kernel offers no AMX tile state"
        case VM_AMX_REFUSED: return "the kernel refused the AMX tile permission"
        case VM_AMX_FAULTED: return "an AMX tile instruction stopped a test process with signal \(signal)"
        default: return "AMX could not be tried (no test process)"
        }
    }

    /// The folder libggml.so was loaded from: the variants are installed beside it.
    static func moduleDirectory() -> URL? {
        let load: @convention(c) (UnsafePointer<CChar>?) -> ggml_backend_reg_t? = ggml_backend_load
        guard let file = vm_library_path_of(unsafeBitCast(load, to: UnsafeRawPointer.self)) else { return nil }
        return URL(fileURLWithPath: String(cString: file)).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The backend this process uses: chosen and loaded into ggml once, on first use.
    public static func load() throws -> LlamaCPUBackend {
        try loaded.get().backend
    }

    /// ggml's registration of the loaded CPU code: its thread pool functions are looked up through it.
    static func registration() throws -> ggml_backend_reg_t {
        try loaded.get().registration
    }

    // @unchecked: ggml's registration is a pointer it owns for the process's life and never changes.
    private struct Loaded: @unchecked Sendable {
        let backend: LlamaCPUBackend
        let registration: ggml_backend_reg_t
    }

    private static let loaded: Result<Loaded, AIError> = Result {
        // Silenced first: llama.cpp and ggml would print every load's details on standard error.
        llama_log_set({ _, _, _ in }, nil)
        guard let directory = moduleDirectory() else {
            throw AIError.noProcessorCode(reason: "the folder of llama.cpp's libraries could not be found")
        }
        let (chosen, variants) = try choose(directory: directory, override: ProcessInfo.processInfo.environment[overrideVariable])
        guard let registration = ggml_backend_load(chosen.path) else {
            throw AIError.noProcessorCode(reason: "llama.cpp could not load its CPU code \(chosen.path)")
        }
        return Loaded(backend: LlamaCPUBackend(chosen: chosen, variants: variants, features: features(of: registration)),
                      registration: registration)
    }.mapError { $0 as? AIError ?? .noProcessorCode(reason: "\($0)") }

    /// The extensions ggml reports for the loaded code (`ggml_backend_get_features`), those it uses.
    private static func features(of registration: ggml_backend_reg_t) -> [String] {
        typealias GetFeatures = @convention(c) (ggml_backend_reg_t?) -> UnsafePointer<ggml_backend_feature>?
        guard let symbol = ggml_backend_reg_get_proc_address(registration, "ggml_backend_get_features"),
              var feature = unsafeBitCast(symbol, to: GetFeatures.self)(registration) else { return [] }
        var names: [String] = []
        while let name = feature.pointee.name {
            if let value = feature.pointee.value, String(cString: value) == "1" { names.append(String(cString: name)) }
            feature += 1
        }
        return names
    }
}
