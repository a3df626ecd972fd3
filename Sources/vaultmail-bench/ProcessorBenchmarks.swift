import Foundation
import VaultMailAI
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// `vaultmail-bench cpu` (issue 27): the on-device models on each processor variant of their code.
/// Natively: llama.cpp's automatic choice, then every variant that may run here
/// (`VAULTMAIL_LLAMA_CPU`), each beside the OpenBLAS kernels of the same processor generation
/// (`OPENBLAS_CORETYPE`); emulated: the bench itself under qemu-user as a Nehalem and as a
/// Haswell, where each picks its own code. Each configuration is a child process of this bench
/// (`vaultmail-bench cpu-probe`), so each loads its code afresh. Figures, medians:
/// - `cpu-embed-throughput-<run>`: all-MiniLM-L6-v2 on the first real messages of the search
///   corpus (subject and the first 300 characters of the body), emails/s;
/// - `cpu-first-token-<run>`: SmolLM2-135M-Instruct's first token on the bench's reply prompt
///   (about 100 tokens, a different beginning each round), ms.
/// Emulation is 20 to 100 times slower than the processor it runs on, so an emulated run does
/// less: `Rounds.emulated`.
enum ProcessorBenchmarks {
    struct Rounds {
        var texts: Int
        var embeddings: Int
        var firstTokens: Int

        static let native = Rounds(texts: 64, embeddings: 3, firstTokens: 5)
        static let emulated = Rounds(texts: 16, embeddings: 1, firstTokens: 3)

        /// The probe's arguments: `cpu-probe TEXTS EMBEDDINGS FIRST_TOKENS`.
        var arguments: [String] { ["cpu-probe", String(texts), String(embeddings), String(firstTokens)] }

        init(texts: Int, embeddings: Int, firstTokens: Int) {
            (self.texts, self.embeddings, self.firstTokens) = (texts, embeddings, firstTokens)
        }

        init(arguments: [String]) {
            let numbers = arguments.drop { $0 != "cpu-probe" }.dropFirst().compactMap { Int($0) }
            self = numbers.count == 3 ? Rounds(texts: numbers[0], embeddings: numbers[1], firstTokens: numbers[2]) : .native
        }
    }

    /// The OpenBLAS kernels of each llama.cpp variant's processor generation.
    static let openBLASCore = [
        "x64": "Core2", "sse42": "Nehalem", "sandybridge": "Sandybridge", "haswell": "Haswell", "alderlake": "Haswell",
        "skylakex": "SkylakeX", "icelake": "SkylakeX", "zen4": "Cooperlake", "sapphirerapids": "SapphireRapids",
    ]

    struct Configuration {
        let label: String
        let qemu: String?
        let environment: [String: String]
    }

    static func run() async throws {
        _ = try AIModelFixture.installedMiniLMDirectory()
        _ = try AIModelFixture.installedGenerationDirectory()
        let backend = try LlamaCPUBackend.load()
        print("# cpu: real messages (search corpus) embedded by all-MiniLM-L6-v2 on OpenBLAS, SmolLM2-135M-Instruct's first reply"
              + " token; natively \(Rounds.native.texts) messages, \(Rounds.native.embeddings) rounds and \(Rounds.native.firstTokens) first tokens,"
              + " emulated \(Rounds.emulated.texts), \(Rounds.emulated.embeddings) and \(Rounds.emulated.firstTokens); each run a child process"
              + "\(AIBenchmarks.cpuModel().map { " (\($0))" } ?? ""); natively llama.cpp chose \(backend.chosen.name)")
        var configurations = [Configuration(label: "native-auto", qemu: nil, environment: [:])]
        for variant in backend.variants where variant.mayRun {
            var environment = [LlamaCPUBackend.overrideVariable: variant.name]
            environment["OPENBLAS_CORETYPE"] = openBLASCore[variant.name]
            configurations.append(Configuration(label: "native-\(variant.name)", qemu: nil, environment: environment))
        }
        for processor in ["Nehalem", "Haswell"] where FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-x86_64") {
            configurations.append(Configuration(label: "qemu-\(processor.lowercased())", qemu: processor, environment: [:]))
        }
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        for configuration in configurations {
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: LlamaCPUBackend.overrideVariable)
            environment.removeValue(forKey: "OPENBLAS_CORETYPE")
            environment.merge(configuration.environment) { $1 }
            let rounds = configuration.qemu == nil ? Rounds.native : Rounds.emulated
            let (program, arguments) = configuration.qemu.map { ("/usr/bin/qemu-x86_64", ["-cpu", $0, bench] + rounds.arguments) }
                ?? (bench, rounds.arguments)
            let result = try await ProcessCapture.run(program, arguments, environment: environment, includeErrors: false,
                                                      timeout: .seconds(1800))
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
            guard result.exitedNormally, result.status == 0 else {
                print("# \(configuration.label): the probe failed (status \(result.status)): \(lines.suffix(3).joined(separator: " | "))")
                continue
            }
            func values(_ key: String) -> [Double] {
                lines.filter { $0.hasPrefix(key + " ") }.compactMap { Double($0.dropFirst(key.count + 1)) }
            }
            let code = lines.first { $0.hasPrefix("code ") }.map { $0.dropFirst(5) } ?? "?"
            print("# \(configuration.label): \(code)")
            Measure.report("cpu-embed-throughput-\(configuration.label)", Measure.median(values("embed")), "emails/s", n: rounds.texts)
            Measure.report("cpu-first-token-\(configuration.label)", Measure.median(values("first-token")), "ms", n: rounds.firstTokens)
        }
    }

    /// The child: which code it runs, then one line per round.
    static func probe() async throws {
        let rounds = Rounds(arguments: CommandLine.arguments)
        let backend = try LlamaCPUBackend.load()
        let corpus = try SearchCorpus.load(repeatedTo: rounds.texts)
        let parser = GMimeMessageParser()
        let inputs = corpus.messages.map { raw -> String in
            let message = parser.parse(raw)
            return message.subject + "\n" + String((message.textPlain ?? "").prefix(300))
        }
        let embedder = MiniLMEngine()
        try await embedder.loadModel(path: try AIModelFixture.installedMiniLMDirectory())
        let blas = ProcessorCode.report(sentenceModelInstalled: true).last ?? ""
        print("code llama.cpp \(backend.chosen.name), \(blas)")
        for _ in 0..<rounds.embeddings {
            let started = ContinuousClock.now
            _ = try await embedder.embed(inputs)
            print("embed \(Double(inputs.count) / ((ContinuousClock.now - started) / .seconds(1)))")
        }
        await embedder.unloadModel()

        let engine = LlamaEngine()
        try engine.load(from: try AIModelFixture.installedGenerationDirectory())
        defer { engine.unload() }
        for round in 0..<rounds.firstTokens {
            let statistics = try engine.generate(GenerationBenchmarks.replyRequest(round: round, maxTokens: 1)) { _ in true }
            print("first-token \(statistics.timeToFirstToken.millis)")
        }
    }
}
